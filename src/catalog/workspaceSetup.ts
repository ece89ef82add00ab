// The team's shared setup as this window sees it: each workspace folder's .vscode/portal.json, watched (a
// `git pull` or an edit shows without a reload; an open file's unsaved text counts), merged across folders,
// matched to this VS Code's connections by address, its Problems in a DiagnosticCollection on the file.
// The stores (views, saved queries, title fields, grid layouts) merge what it names with the user's own.
import * as vscode from 'vscode';
import type { Portals } from '../auth/portals';
import { Disposable } from '../lifecycle';
import { createLogger } from '../log';
import { matchPortals, mergeFiles, sameAddress, sharedAppOf, type PortalMatch } from '../workspaceFile/merge';
import { WORKSPACE_FOLDER } from '../ids';
import {
  parseWorkspaceFile,
  WORKSPACE_FILE_PATH,
  type FileProblem,
  type SharedApp,
  type SharedPortal,
  type SharedRedirectMode,
  type WorkspaceFile,
} from '../workspaceFile/model';

/** An app whose shared entries changed, with the views whose shared queries or layout may have. */
export interface SharedAppChange {
  readonly portalId: string;
  readonly appId: string;
  readonly viewIds: readonly string[];
}

/** What the stores read of the shared setup. */
export interface SharedSetup {
  /** The shared entries of a connection's app, when the workspace names that portal at its address. */
  app(portalId: string, appId: string): SharedApp | undefined;
  /** Every shared app of every connected portal. */
  apps(): readonly { readonly portalId: string; readonly app: SharedApp }[];
  readonly onDidChange: vscode.Event<readonly SharedAppChange[]>;
}

interface FolderFile {
  readonly uri: vscode.Uri;
  readonly file: WorkspaceFile;
}

const log = createLogger('workspace');

function rangeOf(text: string, problem: FileProblem): vscode.Range {
  const position = (offset: number): vscode.Position => {
    const before = text.slice(0, offset).split(/\r\n|\r|\n/);
    return new vscode.Position(before.length - 1, before[before.length - 1].length);
  };
  return new vscode.Range(position(problem.offset), position(problem.offset + problem.length));
}

type ConnectedApps = ReturnType<SharedSetup['apps']>;

function changedApps(before: ConnectedApps, after: ConnectedApps): SharedAppChange[] {
  const changes = new Map<string, { portalId: string; appId: string; viewIds: Set<string> }>();
  for (const { portalId, app } of [...before, ...after]) {
    const key = JSON.stringify([portalId, app.appId]);
    const change = changes.get(key) ?? { portalId, appId: app.appId, viewIds: new Set<string>() };
    for (const viewId of [
      ...app.views.map((view) => view.viewId),
      ...app.queries.map((query) => query.viewId),
      ...app.layouts.map((layout) => layout.viewId),
      ...(app.boards ?? []).map((board) => board.viewId),
    ])
      change.viewIds.add(viewId);
    changes.set(key, change);
  }
  return [...changes.values()].map((change) => ({ portalId: change.portalId, appId: change.appId, viewIds: [...change.viewIds] }));
}

export class WorkspaceSetup extends Disposable implements SharedSetup {
  private readonly changed = this._register(new vscode.EventEmitter<readonly SharedAppChange[]>());
  readonly onDidChange = this.changed.event;
  private readonly diagnostics = this._register(vscode.languages.createDiagnosticCollection('portal-workspace'));
  /** By folder URI, in folder order once read. */
  private readonly files = new Map<string, FolderFile>();
  private readonly watchers = new Map<string, vscode.Disposable>();
  private matched: PortalMatch[] = [];
  private connectedApps: { portalId: string; app: SharedApp }[] = [];
  private readonly firstRead: Promise<void>;

  constructor(private readonly portals: Portals) {
    super();
    this._registerAll(
      portals.onDidChange(() => this.update()),
      // Not awaited: a folder's file is read in the background (read() reports its own failures).
      vscode.workspace.onDidChangeWorkspaceFolders(() => void this.watchFolders()),
      // An edit shows before it is saved: the Problems follow the text as typed.
      vscode.workspace.onDidChangeTextDocument((event) => {
        const folder = this.folderOfFile(event.document.uri);
        if (folder) this.take(folder, event.document.uri, event.document.getText());
      }),
      { dispose: () => [...this.watchers.values()].forEach((watcher) => watcher.dispose()) },
    );
    this.firstRead = this.watchFolders();
  }

  /** Resolves once every folder's file has been read once. */
  ready(): Promise<void> {
    return this.firstRead;
  }

  /** Each portal the workspace names and how it stands against this VS Code's connections. */
  matches(): readonly PortalMatch[] {
    return this.matched;
  }

  app(portalId: string, appId: string): SharedApp | undefined {
    return sharedAppOf(this.matched, portalId, appId);
  }

  /** The redirect mode the workspace file gives the portal at `baseUrl`, if it names one. */
  redirectModeOf(baseUrl: string): SharedRedirectMode | undefined {
    return this.matched.find((match) => sameAddress(match.portal.baseUrl, baseUrl))?.portal.redirectMode;
  }

  /** The portals a folder's own file names, as last read (none when it has no file). */
  portalsOf(folder: vscode.WorkspaceFolder): readonly SharedPortal[] {
    return this.files.get(folder.uri.toString())?.file.portals ?? [];
  }

  apps(): readonly { readonly portalId: string; readonly app: SharedApp }[] {
    return this.connectedApps;
  }

  private folderOfFile(uri: vscode.Uri): vscode.WorkspaceFolder | undefined {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    return folder && vscode.Uri.joinPath(folder.uri, WORKSPACE_FILE_PATH).toString() === uri.toString() ? folder : undefined;
  }

  private async watchFolders(): Promise<void> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const current = new Set(folders.map((folder) => folder.uri.toString()));
    for (const [key, watcher] of this.watchers) {
      if (current.has(key)) continue;
      watcher.dispose();
      this.watchers.delete(key);
      this.forget(key);
    }
    await Promise.all(
      folders
        .filter((folder) => !this.watchers.has(folder.uri.toString()))
        .map(async (folder) => {
          // The folder `.vscode` too: a file written with its new folder at once can come before the watch
          // on that folder exists (inotify), and then only the folder's creation is seen.
          const watcher = vscode.workspace.createFileSystemWatcher(
            new vscode.RelativePattern(folder, `{${WORKSPACE_FOLDER},${WORKSPACE_FILE_PATH}}`),
          );
          // Not awaited: read() reports its own failures, and the tree follows its change event.
          const reread = (): void => void this.read(folder);
          this.watchers.set(
            folder.uri.toString(),
            vscode.Disposable.from(watcher, watcher.onDidCreate(reread), watcher.onDidChange(reread), watcher.onDidDelete(reread)),
          );
          await this.read(folder);
        }),
    );
  }

  private async read(folder: vscode.WorkspaceFolder): Promise<void> {
    const uri = vscode.Uri.joinPath(folder.uri, WORKSPACE_FILE_PATH);
    const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
    if (open?.isDirty) return this.take(folder, uri, open.getText());
    try {
      this.take(folder, uri, new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
    } catch (error) {
      if (!(error instanceof vscode.FileSystemError && error.code === 'FileNotFound'))
        log.warn(`Reading ${uri.fsPath}: ${error instanceof Error ? error.message : String(error)}`);
      this.forget(folder.uri.toString());
    }
  }

  private take(folder: vscode.WorkspaceFolder, uri: vscode.Uri, text: string): void {
    const file = parseWorkspaceFile(text);
    this.files.set(folder.uri.toString(), { uri, file });
    this.diagnostics.set(
      uri,
      file.problems.map((problem) => {
        const diagnostic = new vscode.Diagnostic(
          rangeOf(text, problem),
          problem.message,
          problem.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
        );
        diagnostic.source = 'Portal Explorer';
        return diagnostic;
      }),
    );
    this.update();
  }

  private forget(folderKey: string): void {
    const known = this.files.get(folderKey);
    if (!known) return;
    this.files.delete(folderKey);
    this.diagnostics.delete(known.uri);
    this.update();
  }

  private update(): void {
    const order = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.toString());
    const files = order.flatMap((key) => {
      const known = this.files.get(key);
      return known ? [known.file] : [];
    });
    this.matched = matchPortals(mergeFiles(files), this.portals.list());
    const before = this.connectedApps;
    this.connectedApps = this.matched.flatMap((match) =>
      match.kind === 'connected' ? match.portal.apps.map((app) => ({ portalId: match.connectionId, app })) : [],
    );
    const changes = changedApps(before, this.connectedApps);
    // Unchanged entries (a save without an edit, a sign-in) redraw no app; the matches may still be new.
    this.changed.fire(JSON.stringify(before) === JSON.stringify(this.connectedApps) ? [] : changes);
  }
}
