// The view grid's custom editor (view type portal.grid). A custom editor rather than a panel because it is
// VS Code's own model of an editable document: the tab shows dirty, Ctrl+S saves, Ctrl+Z / Ctrl+Y walk
// VS Code's edit stack, Revert discards, closing asks, and hot exit / a crash keep a backup. Each open tab
// is a GridPage (gridPage.ts): its messages are checked against the one protocol and handled here inside
// the one error boundary (src/ui), as a command is.
import { cancelled } from '../../api/errors';
import * as vscode from 'vscode';
import type { Stores } from '../../catalog/stores';
import { blockPlanMessage, planFor } from '../model/blockMessages';
import { isNewRowId } from '../model/changeSet';
import { dateOrderOf, decimalSeparatorOf, zoneOffset } from '../model/cellText';
import { COMMANDS, GRID_COMPARE_SCHEME, GRID_VIEW_TYPE } from '../../ids';
import { Disposable } from '../../lifecycle';
import { viewOfUri } from '../../model/recordAddress';
import type { GridInitMessage, GridToHostMessage } from '../protocol';
import { createLogger } from '../../log';
import { describeError, runReported, runShownInPanel } from '../../ui/errorBoundary';
import { prompter } from '../../ui/prompter';
import { createNonce, panelHtml } from '../../webviews/html';
import { openRecord } from '../../webviews/openRecord';
import { GridDocument, type GridDeps } from './gridDocument';
import { GridLayouts } from './gridLayouts';
import { GridPage, type GridPageParts } from './gridPage';
import { openLinkedRecord } from './openLinked';

const log = createLogger('grid');

export type GridEditorDeps = GridDeps & Pick<Stores, 'workspace'> & { readonly extensionUri: vscode.Uri; readonly state: vscode.Memento };

type DocumentChange = vscode.CustomDocumentEditEvent<GridDocument>;

export class GridEditorProvider extends Disposable implements vscode.CustomEditorProvider<GridDocument> {
  private readonly changed = this._register(new vscode.EventEmitter<DocumentChange>());
  readonly onDidChangeCustomDocument = this.changed.event;
  /** The two sides of each Compare opened (by URI), and the grid they compare for: dropped when closed. */
  private readonly compareTexts = new Map<string, { readonly text: string; readonly document: GridDocument }>();
  private readonly layouts: GridLayouts;
  /** The open tabs; each ends with its panel. */
  private readonly pages = new Set<GridPage>();
  /** Documents whose first rows are being read, until that read settles: their pages wait for them (see openCustomDocument). */
  private readonly firstLoads = new Map<GridDocument, Promise<void>>();
  private readonly pageParts: GridPageParts = {
    init: (document, rows) => this.initMessage(document, rows),
    handle: (page, message) => this.handle(page.document, message, page),
    ended: (page) => {
      this.pages.delete(page);
      if (![...this.pages].some((other) => other.document === page.document)) this.forgetCompares(page.document);
    },
  };

  constructor(private readonly deps: GridEditorDeps) {
    super();
    this.layouts = new GridLayouts(deps.state, deps.workspace);
    this._register(
      vscode.workspace.registerTextDocumentContentProvider(GRID_COMPARE_SCHEME, {
        provideTextDocumentContent: (uri) => this.compareTexts.get(uri.toString())?.text ?? '',
      }),
    );
    this._register(vscode.workspace.onDidCloseTextDocument((closed) => this.compareTexts.delete(closed.uri.toString())));
    this._register({ dispose: () => [...this.pages].forEach((page) => page.dispose()) });
  }

  /**
   * The document of the open grid tab at `uri`, once its first rows have come or their read failed (the
   * test API reaches a live grid through it; the tab itself opens before its rows).
   */
  async openDocument(uri: vscode.Uri): Promise<GridDocument | undefined> {
    const document = [...this.pages].find((page) => page.document.uri.toString() === uri.toString())?.document;
    if (document) await this.firstRows(document);
    return document;
  }

  /** Resolves once the document's first rows have come, or their read failed (openCustomDocument returns before). */
  async firstRows(document: GridDocument): Promise<void> {
    await this.firstLoads.get(document);
  }

  openCustomDocument(uri: vscode.Uri, context: vscode.CustomDocumentOpenContext): Promise<GridDocument> {
    return this.openGridDocument(uri, context, (event) => this.changed.fire(event));
  }

  /** A view's document, its backup restored; `fireEdit` is the edit stack of the editor that opens it (the grid's, or the board's). */
  async openGridDocument(
    uri: vscode.Uri,
    context: vscode.CustomDocumentOpenContext,
    fireEdit: (event: DocumentChange) => void,
  ): Promise<GridDocument> {
    const view = viewOfUri(uri);
    if (!view) throw new Error(`${uri.toString()} is not the address of a view's grid.`);
    const document = new GridDocument(uri, view, this.deps, fireEdit);
    const backupId = context.backupId;
    let backup: string | undefined;
    // The one error boundary says what went wrong (one message, one log line); the grid opens all the same.
    if (backupId) {
      await runReported(`${GRID_VIEW_TYPE} backup`, async () => {
        try {
          // An empty backup: the grid had not loaded when VS Code asked for it; there is nothing to restore.
          backup = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.parse(backupId))) || undefined;
        } catch (error) {
          throw new Error(
            `The backup of the grid of ${document.viewName} could not be read: ${describeError(error)}. The grid opens without it.`,
          );
        }
      });
    }
    // A grid that cannot be read still opens: the page says why and offers nothing to lose. The portal's
    // error goes to the boundary as it is, so that a sign-in that expired offers Sign In (and loads again).
    // Not awaited: VS Code makes the tab's webview only once this returns, and loading its page (frames,
    // script) takes as long as reading the first rows of a view next door; the two go on together, and
    // the page's init waits for the rows (GridPage.ready).
    const firstLoad = runReported(`${GRID_VIEW_TYPE} open ${document.viewName}`, () => document.load(backup)).then(() => {
      this.firstLoads.delete(document);
      for (const page of this.pages) if (page.document === document) page.firstLoadEnded();
    });
    this.firstLoads.set(document, firstLoad);
    return document;
  }

  async resolveCustomEditor(document: GridDocument, panel: vscode.WebviewPanel): Promise<void> {
    document.pageOpened();
    const webview = panel.webview;
    const dist = vscode.Uri.joinPath(this.deps.extensionUri, 'dist', 'webview');
    webview.options = { enableScripts: true, localResourceRoots: [dist, vscode.Uri.joinPath(this.deps.extensionUri, 'media')] };
    webview.html = panelHtml({
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'grid.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'grid.css')).toString(),
      nonce: createNonce(),
      title: document.viewName,
    });
    this.pages.add(new GridPage(panel, document, this.pageParts));
  }

  /** Shows the record's row in every grid of the document at `uri` (none open: nothing). */
  reveal(uri: vscode.Uri, recordId: string): void {
    for (const page of this.pages) if (page.document.uri.toString() === uri.toString()) page.reveal(recordId);
  }

  private initMessage(document: GridDocument, rows: number): GridInitMessage {
    const connection = this.deps.portals.get(document.target.portalId);
    const layout = this.layouts.get(document.target);
    return {
      type: 'grid/init',
      viewName: document.viewName,
      appName: document.appName,
      portalLabel: connection?.label ?? document.target.portalId,
      columns: document.model.columns.map((column) => ({ ...column })),
      rows: document.model.initialRows(0, rows),
      ...(layout ? { layout } : {}),
      newRows: document.newRowsAreDrafts ? 'draft' : 'record',
      filterColumns: document.filterColumns,
      filters: document.filters,
      load: document.loadState,
    };
  }

  private async handle(document: GridDocument, message: GridToHostMessage, page: GridPage): Promise<void> {
    switch (message.type) {
      case 'ready':
        return page.ready(this.firstLoads.has(document));
      case 'grid/edit': {
        const result = document.edit('edit', message.label, message.edits);
        if (result.message) page.post({ type: 'grid/notice', level: 'error', message: result.message });
        return;
      }
      case 'grid/paste':
      case 'grid/fill':
      case 'grid/clear': {
        const locale = vscode.env.language;
        const text = message.type === 'grid/paste' ? (message.text ?? (await vscode.env.clipboard.readText())) : '';
        // Nothing on the clipboard: nothing to paste (an empty paste would clear the cell).
        if (message.type === 'grid/paste' && text === '') return;
        const block = message.type === 'grid/paste' ? { ...message, text } : message;
        const plan = planFor(document.model, block, {
          dateOrder: dateOrderOf(locale),
          decimalSeparator: decimalSeparatorOf(locale),
          utcOffset: zoneOffset(message.type === 'grid/paste' ? message.timeZone : undefined),
        });
        const result = document.edit(plan.kind, plan.label, plan.plan.edits);
        const notice = blockPlanMessage(plan.plan, result.refused);
        if (notice) page.post({ type: 'grid/notice', level: 'error', message: notice });
        return;
      }
      case 'grid/copy': {
        const model = document.model;
        const text = model.copyText(
          model.layout(message.block.columns),
          { top: message.block.top, bottom: message.block.bottom, left: 0, right: message.block.columns.length - 1 },
          message.format,
          { utcOffset: zoneOffset(message.timeZone) },
        );
        await vscode.env.clipboard.writeText(text);
        return;
      }
      case 'grid/resolve':
        return this.resolve(document, message.recordId, message.action);
      case 'grid/layout':
        await this.layouts.set(document.target, { order: message.order, hidden: message.hidden, frozen: message.frozen });
        return;
      case 'grid/save':
        await vscode.commands.executeCommand('workbench.action.files.save');
        return;
      case 'grid/addRow':
        // New rows go after the view's rows: while these are arriving, the end is not there yet.
        if (document.loadState.state === 'loading')
          throw new Error(
            `The rows of ${document.viewName} are still arriving: Add Row waits until they are all read (or Cancel the loading).`,
          );
        document.addRow();
        return;
      case 'grid/filter':
        // Said beside the filters, as the Query View does; the grid keeps the rows it had.
        await runShownInPanel(
          `${GRID_VIEW_TYPE} grid/filter`,
          () => document.runFilters(message.filters),
          (text) =>
            page.post({
              type: 'grid/notice',
              level: 'error',
              message: `The filters could not be run: ${text} The grid shows the rows it had.`,
            }),
        );
        return;
      case 'grid/discard':
        return this.discard(document);
      case 'grid/retry':
        return document.retry();
      case 'grid/cancelLoad':
        return document.cancelLoad();
      case 'grid/openLinked':
        return openLinkedRecord(this.deps, document, message.recordId, message.field);
      case 'grid/bulk':
        return this.bulkChange(document, message.change, message.recordIds, page);
      case 'openRecord':
        if (isNewRowId(message.recordId)) throw new Error('This row is new: its record is created when you save the grid.');
        await openRecord(document.target.portalId, document.target.appId, message.recordId);
        return;
    }
  }

  /**
   * Set Field… / Delete Rows… through the bulk commands (progress, Cancel, journal, failures file), on the
   * selected rows or every row of the grid (new rows are not records yet); then the rows are read again.
   * Pending edits are never overwritten: such rows are marked changed on the portal.
   */
  private async bulkChange(
    document: GridDocument,
    change: 'set-field' | 'delete',
    selected: readonly string[] | undefined,
    page: GridPage,
  ): Promise<void> {
    // "Every row" is the view's: while its rows are arriving the grid does not have them all yet.
    if (!selected && document.loadState.state === 'loading') {
      throw new Error(
        `The rows of ${document.viewName} are still arriving (${document.loadState.count.toLocaleString('en-US')} so far): a change of every row waits until they are all read. Select rows to change only those.`,
      );
    }
    const recordIds = (selected ?? document.model.layout([]).rowIds).filter((id) => !isNewRowId(id));
    if (recordIds.length === 0) throw new Error('The rows chosen are new rows: they are no records yet. Remove them with Undo or Discard.');
    const load = document.loadState;
    if (!selected && load.state === 'partial') {
      page.post({
        type: 'grid/notice',
        level: 'info',
        message: `The grid holds only the ${load.count.toLocaleString('en-US')} rows read (partial): ${change === 'delete' ? 'Delete Rows…' : 'Set Field…'} acts on those, not on the rest of the view. Retry reads them all.`,
      });
    }
    const { portalId, appId, viewId } = document.target;
    document.ownBulkChanges += 1;
    try {
      await vscode.commands.executeCommand(change === 'delete' ? COMMANDS.import.deleteRows : COMMANDS.import.setField, {
        portalId,
        appId,
        viewId,
        viewName: document.viewName,
        recordIds,
      });
    } finally {
      document.ownBulkChanges -= 1;
      // Whatever the command did (all, some, nothing), the grid shows the portal's rows again.
      const marked = await document.refreshAfterBulkChange(recordIds);
      if (marked > 0) {
        page.post({
          type: 'grid/notice',
          level: 'info',
          message: `${marked} of the rows changed had pending edits here: they are kept, and the rows are marked changed on the portal (↻). Saving resolves them as conflicts.`,
        });
      }
    }
  }

  /**
   * Discard: VS Code's own revert (the view is read again, the tab is clean and the edit stack starts over),
   * after a confirmation that says what goes: a revert cannot be undone.
   */
  async discard(document: GridDocument): Promise<void> {
    const rows = document.model.pendingRows();
    if (!document.model.hasChanges()) throw new Error(`${document.viewName} has no pending changes to discard.`);
    const added = rows.filter((row) => row.isNew).length;
    const changed = rows.length - added;
    const what = [
      changed > 0 ? `the changes of ${changed} row${changed === 1 ? '' : 's'}` : '',
      added > 0 ? `${added} new row${added === 1 ? '' : 's'}` : '',
    ]
      .filter(Boolean)
      .join(' and ');
    const answer = await prompter().warn(
      `Discard ${what || 'the held-back rows'} of ${document.viewName}? The view is read again from the portal; this cannot be undone.`,
      { modal: true },
      'Discard',
    );
    if (answer !== 'Discard') throw cancelled('Discarding the changes');
    await vscode.commands.executeCommand('workbench.action.files.revert');
  }

  async resolve(document: GridDocument, recordId: string, action: 'compare' | 'keepMine' | 'takeTheirs'): Promise<void> {
    const conflict = document.model.conflictOf(recordId);
    if (action === 'takeTheirs') return document.takeTheirs(recordId);
    if (!conflict) throw new Error(`Record ${recordId} has no conflict to resolve: save first.`);
    if (action === 'keepMine') {
      document.keepMine(recordId);
      // My fields go now (checked against the portal once more), with the rest of what is pending.
      await vscode.commands.executeCommand('workbench.action.files.save');
      return;
    }
    const stamp = Date.now();
    const theirs = vscode.Uri.from({ scheme: GRID_COMPARE_SCHEME, path: `/${recordId} (portal).json`, query: String(stamp) });
    const mine = vscode.Uri.from({ scheme: GRID_COMPARE_SCHEME, path: `/${recordId} (mine).json`, query: String(stamp) });
    this.compareTexts.set(theirs.toString(), { text: `${JSON.stringify(conflict.portalCopy, null, 2)}\n`, document });
    this.compareTexts.set(mine.toString(), {
      text: `${JSON.stringify({ ...conflict.portalCopy, ...conflict.mine }, null, 2)}\n`,
      document,
    });
    await vscode.commands.executeCommand('vscode.diff', theirs, mine, `Record ${recordId}: the portal's ↔ mine`, { preview: true });
  }

  /** The grid's last tab closed: an editor still open keeps its text without the provider. */
  private forgetCompares(document: GridDocument): void {
    for (const [uri, entry] of this.compareTexts) if (entry.document === document) this.compareTexts.delete(uri);
  }

  async saveCustomDocument(document: GridDocument, token: vscode.CancellationToken): Promise<void> {
    const summary = await document.save(token);
    if (token.isCancellationRequested || summary.cancelled > 0) throw cancelled('Saving the grid');
    const left = [
      summary.conflicts > 0
        ? `${summary.conflicts} held back because someone else changed them (Compare, Keep mine or Take theirs in the grid)`
        : '',
      summary.failed > 0 ? `${summary.failed} failed (the grid says why)` : '',
      summary.deleted > 0 ? `${summary.deleted} deleted on the portal` : '',
      summary.blocked > 0 ? `${summary.blocked} not sent because a cell is invalid` : '',
      summary.unsent > 0 ? `${summary.unsent} changed while saving, not sent yet (save again)` : '',
    ].filter(Boolean);
    // Rows still pending keep the tab dirty: VS Code does that when the save fails, and says so.
    const created =
      summary.created > 0 ? ` (${summary.created} of them new: ${summary.created === 1 ? 'a record was' : 'records were'} created)` : '';
    if (left.length > 0)
      throw new Error(
        `Saved ${summary.saved} row${summary.saved === 1 ? '' : 's'} of ${document.viewName}${created}; ${left.join('; ')}. Their edits are kept.`,
      );
  }

  async saveCustomDocumentAs(): Promise<void> {
    throw new Error('A grid is saved to its view in the portal; "Save As" has no other place to put it.');
  }

  async revertCustomDocument(document: GridDocument): Promise<void> {
    // VS Code does not wait for a revert nor report its failure: the one error boundary does.
    await runReported(`${GRID_VIEW_TYPE} revert ${document.viewName}`, () => document.revert());
  }

  async backupCustomDocument(document: GridDocument, context: vscode.CustomDocumentBackupContext): Promise<vscode.CustomDocumentBackup> {
    await vscode.workspace.fs.writeFile(context.destination, new TextEncoder().encode(document.backupText()));
    return {
      id: context.destination.toString(),
      delete: () => {
        // Not awaited: VS Code calls delete() and does not wait. A backup left behind is harmless (VS Code
        // cleans its backup folder itself), so its failure is a log line, not a message.
        void Promise.resolve(vscode.workspace.fs.delete(context.destination)).catch((error: unknown) =>
          log.warn(`deleting the backup ${context.destination.toString()} failed: ${describeError(error)}`),
        );
      },
    };
  }
}
