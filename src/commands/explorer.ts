// The Portal explorer's commands: add and remove views, copy a field id, choose the title field, refresh,
// and the items' own actions (load more, retry). Each takes a tree node from a menu, a target from another
// command, or nothing from the palette (then it asks with the pickers).
import * as vscode from 'vscode';
import { isCancellation } from '../api/errors';
import type { Column } from '../api/types';
import { isSignInRequired } from '../model/signInRequired';
import type { Stores } from '../catalog/stores';
import { chooseTitleField } from '../catalog/titleField';
import { defaultViewName } from '../catalog/views';
import { EXPLORER_COMMANDS } from '../ids';
import { createLogger } from '../log';
import { appTargetOf, portalTargetOf, viewTargetOf, type AppTarget, type ViewTarget } from '../model/targets';
import { columnDescription } from '../tree/columnPresentation';
import type { ExplorerTree } from '../tree/explorer';
import { isNode, type ColumnNode, type ExplorerNode, type ViewNode } from '../tree/nodes';
import { describeError } from '../ui/errorBoundary';
import { prompter } from '../ui/prompter';
import { idProblem, pickApp, pickView } from './pickers';
import type { CommandTable } from './register';

export type ExplorerCommandParts = Pick<Stores, 'portals' | 'catalog' | 'views' | 'rows' | 'titles'> & {
  readonly tree: ExplorerTree;
  readonly treeView: vscode.TreeView<ExplorerNode>;
};

const log = createLogger('explorer');
const EDIT_VIEW_ID = 'Edit View Id';

async function appName(parts: ExplorerCommandParts, app: AppTarget): Promise<string> {
  return (await parts.catalog.app(app.portalId, app.appId).catch(() => undefined))?.name ?? `app ${app.appId}`;
}

/** Drops what the node shows from the caches and redraws it; with no node, the whole tree. */
function refreshNode(parts: ExplorerCommandParts, node: ExplorerNode): void {
  const { catalog, rows, tree } = parts;
  switch (node.kind) {
    case 'portal':
    case 'site':
      // The list of sites is one request for the whole portal: a site is refreshed with it.
      rows.drop(node.portalId);
      catalog.refresh(node.portalId);
      break;
    case 'app':
      rows.drop(node.portalId, node.appId);
      catalog.refresh(node.portalId, node.appId);
      break;
    case 'views':
      rows.drop(node.portalId, node.appId);
      break;
    case 'columns':
    case 'column':
      catalog.refresh(node.portalId, node.appId);
      tree.refresh(node.kind === 'column' ? node.parent : node);
      return;
    case 'view':
    case 'findRecord':
    case 'record':
    case 'loadMore':
    case 'loading':
      rows.drop(node.portalId, node.appId, node.viewId);
      tree.refresh(node.kind === 'view' ? node : node.parent);
      return;
    case 'message':
      refreshNode(parts, node.parent);
      return;
  }
  tree.refresh(node);
}

/** Refresh from the palette or another command: a node, a view, an app or a portal target; else ask. */
async function refreshTarget(parts: ExplorerCommandParts, arg: unknown): Promise<void> {
  if (isNode(arg)) return refreshNode(parts, arg);
  const view = viewTargetOf(arg);
  if (view) {
    parts.rows.drop(view.portalId, view.appId, view.viewId);
    parts.tree.refresh(
      parts.tree.find(
        (node) => node.kind === 'view' && node.portalId === view.portalId && node.appId === view.appId && node.viewId === view.viewId,
      ),
    );
    return;
  }
  const portal = portalTargetOf(arg);
  const app = appTargetOf(arg) ?? (portal ? undefined : await pickApp(parts.portals, parts.catalog, { title: 'Refresh' }));
  if (app) {
    parts.rows.drop(app.portalId, app.appId);
    parts.catalog.refresh(app.portalId, app.appId);
  } else if (portal) {
    parts.rows.drop(portal.portalId);
    parts.catalog.refresh(portal.portalId);
  }
}

function refreshAll(parts: ExplorerCommandParts): void {
  parts.rows.drop();
  parts.catalog.refresh();
  parts.tree.refresh();
}

/**
 * Asks for a view id, checks it by reading the view (the rows read are kept: expanding it next asks
 * nothing), then for an optional name, and remembers it. A refused id is offered again for editing.
 */
async function addView(parts: ExplorerCommandParts, arg: unknown): Promise<ViewTarget | undefined> {
  const app = appTargetOf(arg) ?? (await pickApp(parts.portals, parts.catalog, { title: 'Add View' }));
  if (!app) return undefined;
  const name = await appName(parts, app);
  let previous: string | undefined;
  for (;;) {
    const typed = await prompter().inputBox({
      title: `Add View to ${name} (1/2)`,
      prompt: `The id of a view of ${name} (the number in the view's address in the portal)`,
      placeHolder: 'e.g. 6',
      value: previous,
      ignoreFocusOut: true,
      validateInput: (value) => idProblem(value, 'view'),
    });
    if (typed === undefined) return undefined;
    const viewId = typed.trim();
    const target: ViewTarget = { ...app, viewId };
    try {
      await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Checking view ${viewId} of ${name}…`, cancellable: false },
        () => parts.rows.read(target),
      );
    } catch (error) {
      if (isCancellation(error) || isSignInRequired(error)) throw error;
      // Reported here rather than by the command wrapper, to offer the id again: one message, one line.
      const message = describeError(error);
      log.error(`${EXPLORER_COMMANDS.addView}: ${message}`);
      if ((await prompter().error(message, EDIT_VIEW_ID)) !== EDIT_VIEW_ID) return undefined;
      previous = viewId;
      continue;
    }
    const known = parts.views.get(app.portalId, app.appId, viewId);
    const given = await prompter().inputBox({
      title: `Add View to ${name} (2/2)`,
      prompt: 'A name for the view in the tree (optional: leave empty for the default)',
      placeHolder: known?.name ?? defaultViewName(viewId),
      value: known?.name,
      ignoreFocusOut: true,
    });
    if (given === undefined) return undefined;
    const viewName = given.trim() || known?.name || defaultViewName(viewId);
    await parts.views.add(app.portalId, app.appId, { viewId, name: viewName });
    log.info(`Added view ${viewId} of app ${app.appId} (${app.portalId}).`);
    await revealView(parts, { ...target, viewName });
    return { ...target, viewName };
  }
}

/** Shows the new view in the tree when its app is on show there. */
async function revealView(parts: ExplorerCommandParts, view: ViewTarget): Promise<void> {
  const group = parts.tree.find((node) => node.kind === 'views' && node.portalId === view.portalId && node.appId === view.appId)[0];
  if (!group || !parts.treeView.visible) return;
  const children = await parts.tree.getChildren(group);
  const node = children.find((child): child is ViewNode => child.kind === 'view' && child.viewId === view.viewId);
  if (node) await parts.treeView.reveal(node, { select: true, focus: false, expand: false });
}

async function removeView(parts: ExplorerCommandParts, arg: unknown): Promise<boolean> {
  const view =
    (isNode(arg) && arg.kind !== 'view' ? undefined : viewTargetOf(arg)) ??
    (await pickView(parts.portals, parts.catalog, parts.views, { title: 'Remove View', addedOnly: true, app: appTargetOf(arg) }));
  if (!view) return false;
  const removed = await parts.views.remove(view.portalId, view.appId, view.viewId);
  if (!removed && parts.views.get(view.portalId, view.appId, view.viewId)?.shared) {
    throw new Error(
      `View ${view.viewId} of app ${view.appId} is shared with the workspace: remove it from .vscode/portal.json to remove it for the team.`,
    );
  }
  if (!removed) throw new Error(`View ${view.viewId} of app ${view.appId} is not in the tree.`);
  parts.rows.drop(view.portalId, view.appId, view.viewId);
  log.info(`Removed view ${view.viewId} of app ${view.appId} (${view.portalId}).`);
  return true;
}

type ColumnItem = vscode.QuickPickItem & { readonly column?: Column };

async function pickColumn(
  parts: ExplorerCommandParts,
  app: AppTarget,
  title: string,
  extra: ColumnItem[] = [],
  current?: string,
): Promise<ColumnItem | undefined> {
  const columns = await parts.catalog.columns(app.portalId, app.appId);
  const items: ColumnItem[] = [
    ...extra,
    ...columns.map((column) => ({
      label: column.field_name || column.field_id_in_data,
      description: `${columnDescription(column)}${column.field_id_in_data === current ? ' · current' : ''}`,
      column,
    })),
  ];
  return prompter().quickPick(items, { title, placeHolder: 'Which column?', matchOnDescription: true });
}

async function copyFieldId(parts: ExplorerCommandParts, arg: unknown): Promise<string | undefined> {
  let fieldId = isNode(arg) && arg.kind === 'column' ? (arg as ColumnNode).fieldId : undefined;
  if (fieldId === undefined) {
    const app = appTargetOf(arg) ?? (await pickApp(parts.portals, parts.catalog, { title: 'Copy Field Id' }));
    if (!app) return undefined;
    fieldId = (await pickColumn(parts, app, 'Copy Field Id'))?.column?.field_id_in_data;
    if (fieldId === undefined) return undefined;
  }
  await prompter().copyToClipboard(fieldId);
  vscode.window.setStatusBarMessage(`Copied the field id ${fieldId}`, 3000);
  return fieldId;
}

/** Chooses the column that titles the app's records in the tree and pickers (or back to the default). */
async function setTitleField(parts: ExplorerCommandParts, arg: unknown): Promise<string | undefined> {
  const app = appTargetOf(arg) ?? (await pickApp(parts.portals, parts.catalog, { title: 'Set Title Field' }));
  if (!app) return undefined;
  const current = parts.titles.get(app);
  const byDefault = chooseTitleField(await parts.catalog.columns(app.portalId, app.appId));
  const defaultItem: ColumnItem = {
    label: 'Default: the first text column',
    description: `${byDefault ? `${byDefault.field_name} here` : 'records named by id'}${current === undefined ? ' · current' : ''}`,
    detail: 'Each view titles its records with the first text column it shows.',
  };
  const picked = await pickColumn(parts, app, `Set Title Field of ${await appName(parts, app)}`, [defaultItem], current);
  if (!picked) return undefined;
  const fieldId = picked.column?.field_id_in_data;
  await parts.titles.set(app, fieldId);
  return fieldId ?? '';
}

export function explorerCommands(parts: ExplorerCommandParts): CommandTable {
  return {
    [EXPLORER_COMMANDS.refresh]: () => refreshAll(parts),
    [EXPLORER_COMMANDS.refreshNode]: (arg) => refreshTarget(parts, arg),
    [EXPLORER_COMMANDS.addView]: (arg) => addView(parts, arg),
    [EXPLORER_COMMANDS.removeView]: (arg) => removeView(parts, arg),
    [EXPLORER_COMMANDS.copyFieldId]: (arg) => copyFieldId(parts, arg),
    [EXPLORER_COMMANDS.setTitleField]: (arg) => setTitleField(parts, arg),
    [EXPLORER_COMMANDS.loadMore]: (arg) => {
      const view = isNode(arg) ? (arg.kind === 'loadMore' ? arg.parent : arg.kind === 'view' ? arg : undefined) : undefined;
      if (view) parts.tree.loadMore(view);
    },
    // A failed load is not cached: drawing the node again asks again. A partial read is kept: drop it first.
    [EXPLORER_COMMANDS.retry]: (arg) => {
      if (!isNode(arg)) return;
      const node = arg.kind === 'message' ? arg.parent : arg;
      if (arg.kind === 'message' && arg.tone === 'partial' && node.kind === 'view') parts.rows.drop(node.portalId, node.appId, node.viewId);
      else parts.tree.refresh(node);
    },
    // Stops the rows arriving; those read stay, marked partial (the tree draws the view again when the read ends).
    [EXPLORER_COMMANDS.cancelLoad]: (arg) => {
      const view = isNode(arg) ? (arg.kind === 'loading' ? arg.parent : arg.kind === 'view' ? arg : undefined) : viewTargetOf(arg);
      if (view) parts.rows.stop(view);
    },
  };
}
