// Share with Workspace and Keep Personal (issue 32). Sharing moves the user's own view, saved query or grid
// layout into a folder's .vscode/portal.json as a text edit of the file's document (workspaceFile/edits.ts
// computes it), so the change shows in the editor and in git and can be undone; the personal copy goes only
// once the file holds the entry. Keeping personal copies a shared entry into the user's own state first and,
// when the user asks, takes it out of the file with the same kind of edit: nothing is lost on the way.
// What a share took out of the user's own is remembered until the file no longer holds it: an Undo of the
// share (or a checkout without it) gives it back to the user rather than losing it.
import { cancelled } from '../api/errors';
import { applyEdits } from 'jsonc-parser';
import * as vscode from 'vscode';
import type { Stores } from '../catalog/stores';
import { COMMANDS, WORKSPACE_FILE_PATH } from '../ids';
import { viewTargetOf, type ViewTarget } from '../model/targets';
import { setting } from '../settings/settings';
import type { SavedQuery } from '../shared/protocol';
import { isNode } from '../tree/nodes';
import { prompter, tell } from '../ui/prompter';
import type { GridLayouts } from '../grid/host/gridLayouts';
import { keyOf, shareEdits, unshareEdits, type FileEdit, type PortalHeader, type SharedEntry } from '../workspaceFile/edits';
import { sameAddress } from '../workspaceFile/merge';
import type { SharedApp, SharedQuery } from '../workspaceFile/model';
import { createLogger } from '../log';
import { savedQueryTargetOf } from './panelTargets';
import { pickView } from './pickers';
import type { CommandTable } from './register';

export interface TeamSetupParts extends Pick<Stores, 'portals' | 'catalog' | 'workspace' | 'views' | 'savedQueries'> {
  /** The grid layouts (the same store the grid editor reads). */
  readonly layouts: GridLayouts;
  /** The workspace's state, where what a share moved is remembered (MOVED_KEY). */
  readonly state: vscode.Memento;
}

/** Workspace state: the entries Share with Workspace took out of the user's own, while the file holds them. */
const MOVED_KEY = 'portal.movedToWorkspace';

interface Moved {
  readonly portalId: string;
  readonly appId: string;
  readonly entry: SharedEntry;
}

/** One entry to move: what it is called in messages, the file's entry, and what the user's side does with it. */
interface Piece extends vscode.QuickPickItem {
  readonly entry: SharedEntry;
  /** Share: forget the user's own copy. Keep Personal: make the user's own copy. */
  readonly then: () => Promise<unknown>;
}

const log = createLogger('team');

const REMOVE_FROM_FILE = 'Keep and Remove from File';
const KEEP_COPY = 'Keep a Copy';

function queryEntry(viewId: string, query: SavedQuery): SharedEntry {
  const shared: SharedQuery = {
    name: query.name,
    viewId,
    filters: query.filters,
    ...(query.sort ? { sort: query.sort } : {}),
    ...(query.columns ? { columns: query.columns } : {}),
  };
  return { kind: 'query', query: shared };
}

function viewName(parts: TeamSetupParts, view: ViewTarget): string {
  return parts.views.get(view.portalId, view.appId, view.viewId)?.name ?? view.viewName ?? `View ${view.viewId}`;
}

/**
 * The user's own entries of a view: the view itself and its grid layout, and its saved queries (`queries`:
 * every one, or the one named; a view's item in the tree shares the view and its layout, not its queries).
 */
function ownPieces(parts: TeamSetupParts, view: ViewTarget, queries: { readonly name: string } | 'all' | 'none'): Piece[] {
  const queryName = typeof queries === 'object' ? queries.name : undefined;
  const { portalId, appId, viewId } = view;
  const name = viewName(parts, view);
  const pieces: Piece[] = [];
  if (queryName === undefined) {
    const own = parts.views.personal(portalId, appId).find((candidate) => candidate.viewId === viewId);
    if (own)
      pieces.push({
        label: `the view "${own.name}"`,
        entry: { kind: 'view', view: { viewId, name: own.name } },
        then: () => parts.views.remove(portalId, appId, viewId),
      });
    const layout = parts.layouts.personal(view);
    if (layout)
      pieces.push({
        label: `the grid layout of "${name}"`,
        entry: { kind: 'layout', layout: { viewId, ...layout } },
        then: () => parts.layouts.delete(view),
      });
  }
  for (const query of parts.savedQueries.personal(view)) {
    if (queries === 'none' || (queryName !== undefined && query.name !== queryName)) continue;
    pieces.push({
      label: `the saved query "${query.name}"`,
      entry: queryEntry(viewId, query),
      then: () => parts.savedQueries.delete(view, query.name),
    });
  }
  return pieces;
}

/** The workspace file's entries of a view (`queries` as for ownPieces), each with the copy Keep Personal makes. */
function sharedPieces(parts: TeamSetupParts, view: ViewTarget, queries: { readonly name: string } | 'all' | 'none'): Piece[] {
  const queryName = typeof queries === 'object' ? queries.name : undefined;
  const { portalId, appId, viewId } = view;
  const app = parts.workspace.app(portalId, appId);
  if (!app) return [];
  const pieces: Piece[] = [];
  if (queryName === undefined) {
    const shared = app.views.find((candidate) => candidate.viewId === viewId);
    if (shared)
      pieces.push({
        label: `the view "${shared.name}"`,
        entry: { kind: 'view', view: shared },
        then: () => parts.views.add(portalId, appId, { viewId, name: shared.name }),
      });
    const layout = app.layouts.find((candidate) => candidate.viewId === viewId);
    if (layout)
      pieces.push({
        label: `the grid layout of "${viewName(parts, view)}"`,
        entry: { kind: 'layout', layout },
        // The user's own layout, when they made one, is theirs already: it is not overwritten.
        then: async () =>
          parts.layouts.personal(view) ??
          parts.layouts.set(view, { order: [...layout.order], hidden: [...layout.hidden], frozen: layout.frozen }),
      });
  }
  for (const { query, shared } of parts.savedQueries.listMarked(view)) {
    if (!shared || queries === 'none' || (queryName !== undefined && query.name !== queryName)) continue;
    pieces.push({
      label: `the saved query "${query.name}"`,
      entry: queryEntry(viewId, query),
      then: () => parts.savedQueries.save(view, query),
    });
  }
  return pieces;
}

/** The view (and query) a tree item or another command names, or the view the user picks. */
async function targetOf(parts: TeamSetupParts, arg: unknown, title: string): Promise<{ view: ViewTarget; queryName?: string }> {
  const query = savedQueryTargetOf(arg);
  if (query && (!isNode(arg) || arg.kind === 'savedQuery')) return { view: query, queryName: query.queryName };
  const view = isNode(arg) && arg.kind !== 'view' ? undefined : viewTargetOf(arg);
  if (view) return { view };
  const picked = await pickView(parts.portals, parts.catalog, parts.views, { title, addedOnly: true });
  if (!picked) throw cancelled(title);
  return { view: picked };
}

/** Asks which entries when there are several and the user gave no single one (the palette). */
async function choose(pieces: Piece[], title: string, single: boolean): Promise<Piece[]> {
  if (pieces.length <= 1 || single) return pieces;
  const chosen = await prompter().quickPickMany(
    pieces.map((piece) => ({ ...piece, picked: true })),
    { title, placeHolder: 'Which of them?' },
  );
  if (!chosen || chosen.length === 0) throw cancelled(title);
  return [...chosen];
}

function fileUri(folder: vscode.WorkspaceFolder): vscode.Uri {
  return vscode.Uri.joinPath(folder.uri, WORKSPACE_FILE_PATH);
}

/** The folder whose file takes the entries: the only one, or the one the user picks (those naming the portal first). */
async function chooseFolder(parts: TeamSetupParts, baseUrl: string): Promise<vscode.WorkspaceFolder> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0)
    throw new Error(`Share with Workspace needs a folder open: the team's setup goes in its ${WORKSPACE_FILE_PATH}.`);
  if (folders.length === 1) return folders[0];
  const names = (folder: vscode.WorkspaceFolder): boolean =>
    parts.workspace.portalsOf(folder).some((portal) => sameAddress(portal.baseUrl, baseUrl));
  const items = [...folders]
    .sort((a, b) => Number(names(b)) - Number(names(a)))
    .map((folder) => ({
      label: folder.name,
      description: names(folder) ? `its ${WORKSPACE_FILE_PATH} names this portal` : undefined,
      folder,
    }));
  const picked = await prompter().quickPick(items, { title: 'Share with Workspace', placeHolder: `Whose ${WORKSPACE_FILE_PATH}?` });
  if (!picked) throw cancelled('Share with Workspace');
  return picked.folder;
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  return vscode.workspace.fs.stat(uri).then(
    () => true,
    () => false,
  );
}

/**
 * Applies the edits `compute` makes of the file's text to its document (creating the file when `create` and
 * it is missing), saves it unless it held unsaved changes of the user's (those stay theirs to save), and shows
 * it. False when there was nothing to change.
 */
async function editFile(uri: vscode.Uri, compute: (text: string) => FileEdit[], create: boolean): Promise<boolean> {
  const edit = new vscode.WorkspaceEdit();
  let document: vscode.TextDocument | undefined;
  if (await exists(uri)) {
    document = await vscode.workspace.openTextDocument(uri);
    // A change on disk (a pull) reaches an open document a moment later: an edit of the old text would not save.
    if (!document.isDirty && new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)) !== document.getText())
      throw new Error(`${vscode.workspace.asRelativePath(uri)} changed on disk a moment ago: try again.`);
    const changes = compute(document.getText());
    if (changes.length === 0) return false;
    for (const change of changes)
      edit.replace(
        uri,
        new vscode.Range(document.positionAt(change.offset), document.positionAt(change.offset + change.length)),
        change.content,
      );
  } else {
    if (!create) return false;
    edit.createFile(uri, { ignoreIfExists: true });
    edit.insert(uri, new vscode.Position(0, 0), `${applyEdits('', compute(''))}\n`);
  }
  const hadUnsaved = document?.isDirty ?? false;
  if (!(await vscode.workspace.applyEdit(edit)))
    throw new Error(`VS Code did not apply the change to ${vscode.workspace.asRelativePath(uri)}: nothing was moved.`);
  document ??= await vscode.workspace.openTextDocument(uri);
  if (!hadUnsaved) await document.save();
  await vscode.window.showTextDocument(document, { preview: true, preserveFocus: true });
  return true;
}

/** What the file says of the portal: the team's entry when a file names it, else the user's connection. */
function headerOf(parts: TeamSetupParts, portalId: string): PortalHeader {
  const connection = parts.portals.get(portalId);
  if (!connection) throw new Error(`The portal ${portalId} is not connected.`);
  const match = parts.workspace.matches().find((candidate) => candidate.kind === 'connected' && candidate.connectionId === portalId);
  if (match) return match.portal;
  return {
    name: connection.label,
    baseUrl: connection.baseUrl,
    clientId: connection.clientId,
    flow: connection.flow,
    // The call-back a teammate's browser must come back to is the one this portal's application has registered.
    ...(connection.flow === 'authorizationCode' ? { redirectMode: setting('auth.redirectMode') } : {}),
  };
}

/** Resolves with the labels of what moved into the file. */
export async function shareWithWorkspace(parts: TeamSetupParts, arg: unknown): Promise<string[]> {
  const title = 'Share with Workspace';
  const { view, queryName } = await targetOf(parts, arg, title);
  const own = ownPieces(parts, view, queryName !== undefined ? { name: queryName } : isNode(arg) ? 'none' : 'all');
  if (own.length === 0)
    throw new Error(
      queryName !== undefined
        ? `The saved query "${queryName}" is not one of yours: it is shared with the workspace already.`
        : `"${viewName(parts, view)}" holds nothing of yours to share: its view and layout are the workspace's already, or you made none.`,
    );
  const pieces = await choose(own, title, isNode(arg));
  const header = headerOf(parts, view.portalId);
  const folder = await chooseFolder(parts, header.baseUrl);
  const uri = fileUri(folder);
  for (const piece of pieces) {
    await editFile(uri, (text) => shareEdits(text, header, view.appId, piece.entry), true);
    const moved: Moved = { portalId: view.portalId, appId: view.appId, entry: piece.entry };
    await parts.state.update(MOVED_KEY, [...(parts.state.get<Moved[]>(MOVED_KEY) ?? []), moved]);
    await piece.then();
  }
  const labels = pieces.map((piece) => piece.label);
  tell('info', `Shared ${labels.join(', ')} in ${vscode.workspace.asRelativePath(uri)}: commit it, and your team has it too.`);
  return labels;
}

/** Resolves with the labels of what was copied into the user's own. */
export async function keepPersonal(parts: TeamSetupParts, arg: unknown): Promise<string[]> {
  const title = 'Keep Personal';
  const { view, queryName } = await targetOf(parts, arg, title);
  const shared = sharedPieces(parts, view, queryName !== undefined ? { name: queryName } : isNode(arg) ? 'none' : 'all');
  if (shared.length === 0)
    throw new Error(
      queryName !== undefined
        ? `The saved query "${queryName}" is yours already: the workspace file does not share it.`
        : `The workspace file shares nothing of "${viewName(parts, view)}".`,
    );
  const pieces = await choose(shared, title, isNode(arg));
  const answer = await prompter().warn(
    `Keep ${pieces.map((piece) => piece.label).join(', ')} as your own?`,
    {
      modal: true,
      detail: `Your copy stays on this machine whatever ${WORKSPACE_FILE_PATH} says later. You can also take it out of the file, for the whole team: an edit you review and commit.`,
    },
    KEEP_COPY,
    REMOVE_FROM_FILE,
  );
  if (answer === undefined) throw cancelled(title);
  // The copy first: a file that cannot be edited then loses nothing.
  for (const piece of pieces) await piece.then();
  if (answer === REMOVE_FROM_FILE) {
    const baseUrl = headerOf(parts, view.portalId).baseUrl;
    for (const folder of vscode.workspace.workspaceFolders ?? [])
      for (const piece of pieces)
        await editFile(fileUri(folder), (text) => unshareEdits(text, baseUrl, view.appId, keyOf(piece.entry)), false);
  }
  return pieces.map((piece) => piece.label);
}

function holds(app: SharedApp | undefined, entry: SharedEntry): boolean {
  const key = keyOf(entry);
  if (!app) return false;
  switch (key.kind) {
    case 'view':
      return app.views.some((view) => view.viewId === key.viewId);
    case 'layout':
      return app.layouts.some((layout) => layout.viewId === key.viewId);
    case 'query':
      return app.queries.some((query) => query.viewId === key.viewId && query.name === key.name);
  }
}

async function giveBack(parts: TeamSetupParts, { portalId, appId, entry }: Moved): Promise<string> {
  switch (entry.kind) {
    case 'view':
      // A view the user has again (added by hand since) keeps the user's name for it.
      if (!parts.views.personal(portalId, appId).some((own) => own.viewId === entry.view.viewId))
        await parts.views.add(portalId, appId, { viewId: entry.view.viewId, name: entry.view.name });
      return `the view "${entry.view.name}"`;
    case 'layout': {
      const { viewId, order, hidden, frozen } = entry.layout;
      const view = { portalId, appId, viewId };
      if (!parts.layouts.personal(view)) await parts.layouts.set(view, { order: [...order], hidden: [...hidden], frozen });
      return `the grid layout of view ${viewId}`;
    }
    case 'query': {
      const { name, viewId, filters, sort, columns } = entry.query;
      const view = { portalId, appId, viewId };
      if (!parts.savedQueries.personal(view).some((own) => own.name === name))
        await parts.savedQueries.save(view, {
          name,
          filters: [...filters],
          ...(sort ? { sort: sort.map((key) => ({ ...key })) } : {}),
          ...(columns ? { columns: [...columns] } : {}),
        });
      return `the saved query "${name}"`;
    }
  }
}

/**
 * Gives the user back what a share moved once the file, as saved, no longer holds it (an Undo and a save, a
 * checkout, a teammate's change). Unsaved text of the file counts for nothing: it may be half typed.
 */
async function giveBackWhatLeft(parts: TeamSetupParts): Promise<void> {
  const moved = parts.state.get<Moved[]>(MOVED_KEY) ?? [];
  if (moved.length === 0) return;
  const typing = vscode.workspace.textDocuments.some(
    (document) => document.isDirty && document.uri.path.endsWith(`/${WORKSPACE_FILE_PATH}`),
  );
  if (typing) return;
  const left = moved.filter(
    (entry) => parts.portals.get(entry.portalId) && !holds(parts.workspace.app(entry.portalId, entry.appId), entry.entry),
  );
  if (left.length === 0) return;
  await parts.state.update(
    MOVED_KEY,
    moved.filter((entry) => !left.includes(entry)),
  );
  const labels: string[] = [];
  for (const entry of left) labels.push(await giveBack(parts, entry));
  tell('info', `${labels.join(', ')}: no longer in ${WORKSPACE_FILE_PATH}, so yours again.`);
}

/** Watches the file for what a share moved leaving it again (one check at a time). */
export function watchWhatWasShared(parts: TeamSetupParts): vscode.Disposable {
  let checks = Promise.resolve();
  const check = (): void => {
    checks = checks
      .then(() => giveBackWhatLeft(parts))
      .catch((error: unknown) => log.warn(`Giving back what left the file: ${String(error)}`));
  };
  const saved = vscode.workspace.onDidSaveTextDocument((document) => {
    if (document.uri.path.endsWith(`/${WORKSPACE_FILE_PATH}`)) check();
  });
  return vscode.Disposable.from(parts.workspace.onDidChange(check), saved);
}

export function teamSetupCommands(parts: TeamSetupParts): CommandTable {
  return {
    [COMMANDS.explorer.shareWithWorkspace]: (arg) => shareWithWorkspace(parts, arg),
    [COMMANDS.explorer.keepPersonal]: (arg) => keepPersonal(parts, arg),
  };
}
