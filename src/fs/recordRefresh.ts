// How the `portal:` file system follows what happens around it: a save, a tab closed, an editor shown
// again, a document closed, a record changed elsewhere (webhook, another panel), an app's columns changed.
// Each reaction marks the store's copy stale and makes VS Code read the documents concerned again
// (stat: 1 GET; readFile only when the text changed). An editor with unsaved changes is never reloaded:
// its save meets the conflict check instead.
import * as vscode from 'vscode';
import type { Column } from '../api/types';
import type { Catalog } from '../catalog/catalog';
import type { RecordChange, RecordEvents } from '../catalog/recordEvents';
import { Disposable } from '../lifecycle';
import { RECORD_SCHEME } from '../ids';
import { recordUri } from '../model/recordUri';
import { appTargetOf, type AppTarget } from '../model/targets';
import type { RecordFileSystem } from './recordFileSystem';
import { shownInTabs } from './tabs';

/** How long opening waits for VS Code to show a hidden record's current copy. */
const REFRESH_WAIT_MS = 3000;

export class RecordRefresh extends Disposable {
  constructor(
    private readonly files: RecordFileSystem,
    events: RecordEvents,
    private readonly catalog: Catalog,
  ) {
    super();
    this._registerAll(
      events.onDidChange((change) => this.onRecordChange(change)),
      catalog.onDidChange((change) => this.onCatalogChange(change.portalId, change.appId)),
      vscode.workspace.onDidSaveTextDocument((document) => this.afterSave(document.uri)),
      vscode.workspace.onDidCloseTextDocument((document) => this.afterClose(document.uri)),
      vscode.workspace.onDidOpenTextDocument((document) => this.files.newRecords.opened(document.uri)),
      vscode.window.tabGroups.onDidChangeTabs((event) => this.afterTabsClosed(event.closed)),
      vscode.window.onDidChangeVisibleTextEditors((editors) => {
        // Not awaited: a listener; opening a record awaits the same refresh (refreshIfHidden shares it).
        for (const editor of editors) void this.refreshIfHidden(editor.document.uri);
      }),
    );
    // New-record documents VS Code restored before this was built (after a reload) have their entries too.
    for (const document of vscode.workspace.textDocuments) this.files.newRecords.opened(document.uri);
  }

  /**
   * Shows a hidden record's current copy: resolves once VS Code has read it again (at most a few seconds),
   * or at once when the record was not hidden. The editor of a document with unsaved changes is left as it is.
   */
  async refreshIfHidden(uri: vscode.Uri): Promise<void> {
    const key = uri.toString();
    const state = this.files.stateAt(uri);
    if (state?.refreshing) return state.refreshing;
    if (!state?.hidden) return;
    state.hidden = false;
    const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === key);
    if (!document || document.isDirty) return;
    const before = state.clock.stat;
    const reloaded = new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        subscription.dispose();
        resolve();
      };
      const timer = setTimeout(done, REFRESH_WAIT_MS);
      const subscription = vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.document.uri.toString() === key && event.contentChanges.length > 0) done();
      });
      // Unchanged: VS Code reads nothing more after its stat; nothing to wait for then.
      void this.files.textOf(state, 'refresh').then(
        () => state.clock.stat.mtime === before.mtime && done(),
        () => done(),
      );
    });
    state.refreshing = reloaded.finally(() => (state.refreshing = undefined));
    this.files.fireChanged([uri]);
    return state.refreshing;
  }

  private afterSave(uri: vscode.Uri): void {
    const created = this.files.newRecords.createdBy(uri);
    if (created) {
      this.files.fireCreated(uri, recordUri(created));
      return;
    }
    const state = this.files.stateAt(uri);
    if (!state?.reloadAfterSave || !this.files.store.last(state.target)) return;
    // The editor holds the text as typed; the portal's copy is the canonical text (another order, fields
    // someone else changed meanwhile). Moving mtime alone makes VS Code reload it, from this copy.
    state.reloadAfterSave = false;
    state.clock.touch(this.files.now());
    this.files.store.touch(state.target);
    this.files.fireChanged([uri]);
  }

  /**
   * A record no tab shows any more is read anew when shown again. VS Code keeps the document alive a
   * while after its tab closes and shows it again as it was, without asking the file system, so a record
   * changed meanwhile would look unchanged; a change event makes VS Code read it.
   */
  private afterTabsClosed(closed: readonly vscode.Tab[]): void {
    const shown = shownInTabs();
    for (const tab of closed) {
      if (!(tab.input instanceof vscode.TabInputText) || tab.input.uri.scheme !== RECORD_SCHEME) continue;
      const state = this.files.stateAt(tab.input.uri);
      if (state && this.files.store.last(state.target) && ![...state.uris.keys()].some((key) => shown.has(key))) {
        this.files.store.markStale(state.target);
        state.hidden = true;
      }
    }
  }

  private afterClose(uri: vscode.Uri): void {
    this.files.newRecords.close(uri);
  }

  private onRecordChange(change: RecordChange): void {
    // The documents' own saves only: a save in the grid (or a panel) of an open record's is news to its document.
    if (change.source === 'documents' && change.kind !== 'deleted') return;
    if (!this.files.stateAt(recordUri(change))) return;
    if (change.kind === 'deleted') {
      this.files.noteDeleted(change);
      return;
    }
    // Read anew on the next stat: an editor without unsaved changes reloads; one with them will conflict.
    this.files.store.markStale(change);
    this.files.fireChanged(this.files.urisOf(change));
  }

  private onCatalogChange(portalId: string, appId: string | undefined): void {
    const concerned = (target: AppTarget): boolean => target.portalId === portalId && (appId === undefined || target.appId === appId);
    // Only a new list of columns matters (the catalog also changes when a draft is first seen).
    const columnsChanged = (target: AppTarget, used: readonly Column[]): boolean =>
      this.catalog.peekColumns(target.portalId, target.appId) !== used;
    const uris: vscode.Uri[] = [];
    const shown = shownInTabs();
    for (const state of this.files.documentStates()) {
      const copy = this.files.store.last(state.target);
      if (!concerned(state.target) || !copy || !columnsChanged(state.target, copy.columns)) continue;
      this.files.store.markStale(state.target); // read anew now where shown, else when shown again
      for (const [key, uri] of state.uris) if (shown.has(key)) uris.push(uri);
    }
    // A schema is read again now only for an app whose documents are shown; otherwise when one of its
    // records is read next (staleSchema).
    const shownApps = new Set<string>();
    for (const key of shown) {
      const app = appTargetOf(vscode.Uri.parse(key));
      if (app) shownApps.add(`${app.portalId}/${app.appId}`);
    }
    uris.push(
      ...this.files.schemas.takeOutdated(
        (app, used) => concerned(app) && columnsChanged(app, used) && shownApps.has(`${app.portalId}/${app.appId}`),
      ),
    );
    this.files.fireChanged(uris);
  }
}
