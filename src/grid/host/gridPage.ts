// One open tab of a grid: its page (the webview), what it listens to, and what it is sent. It owns its
// subscriptions (lifecycle.ts) and ends with its panel. The page's messages are checked against their
// schemas where they enter and handled inside the one error boundary, as a command is.
import type * as vscode from 'vscode';
import { GRID_VIEW_TYPE } from '../../ids';
import { Disposable } from '../../lifecycle';
import { gridToHostSchema } from '../messages';
import type { GridInitMessage, GridToHostMessage, HostToGridMessage } from '../protocol';
import { runReported } from '../../ui/errorBoundary';
import { messageReceiver } from '../../webviews/messages';
import type { GridDocument, RowsChange } from './gridDocument';

/**
 * Rows in a page's grid/init; those read beyond follow in grid/append messages of APPEND_ROWS. A page that
 * comes after much of a large view has arrived (it loads while the view is read) would otherwise wait for
 * one message of every row (100,000 rows: seconds to copy across the webview's IPC and to take in) before
 * it paints any.
 */
const INIT_ROWS = 1_000;
const APPEND_ROWS = 5_000;

export interface GridPageParts {
  /** The grid/init message of the document as it is now (layout, labels, its first `rows` rows). */
  init(document: GridDocument, rows: number): GridInitMessage;
  /** A message of the page, checked. */
  handle(page: GridPage, message: GridToHostMessage): Promise<void>;
  /** The page ended (its panel closed). */
  ended(page: GridPage): void;
}

export class GridPage extends Disposable {
  /** The page said ready: its script listens, so an init sent now is painted (before, the ready's answer is). */
  private pageReady = false;
  /** The record whose row to show once the page has its rows (asked for before it had them). */
  private revealing?: string;

  constructor(
    readonly panel: vscode.WebviewPanel,
    readonly document: GridDocument,
    private readonly parts: GridPageParts,
  ) {
    super();
    this._register(document.onDidChangeRows((change) => this.sendRows(change)));
    this._register(
      document.onDidReload(() => {
        if (this.pageReady) this.sendInit();
      }),
    );
    this._register(document.onDidAppendRows((recordIds) => this.sendArrived(recordIds)));
    // Before its ready the page has no rows: its init brings the load's state and every row read by then.
    this._register(
      document.onDidChangeLoad((load) => {
        if (this.pageReady) this.post({ type: 'grid/load', load });
      }),
    );
    this._register(
      panel.webview.onDidReceiveMessage(
        messageReceiver<GridToHostMessage>(GRID_VIEW_TYPE, gridToHostSchema, (message) => parts.handle(this, message), runReported),
      ),
    );
    this._register(panel.onDidDispose(() => this.dispose()));
  }

  post(message: HostToGridMessage): void {
    // Not awaited: postMessage resolves false only when the page is gone (its tab closed meanwhile), and
    // then there is no one to tell; a page that loads again asks for everything with "ready".
    void this.panel.webview.postMessage(message);
  }

  /**
   * The page's ready: its init now, unless the document's first rows are still coming (`firstRowsComing`):
   * the page and the view's read start together, and the rows' arrival sends the init then.
   */
  ready(firstRowsComing: boolean): void {
    this.pageReady = true;
    if (!firstRowsComing || this.document.isLoaded) this.sendInit();
  }

  /** Shows the record's row, now or once the page has its rows (the page waits for a row still to come). */
  reveal(recordId: string): void {
    if (this.pageReady && this.document.isLoaded) this.post({ type: 'grid/reveal', recordId });
    else this.revealing = recordId;
  }

  /** The document's first load ended without rows (it failed): a page that waits for them is told. */
  firstLoadEnded(): void {
    if (this.pageReady && !this.document.isLoaded) this.sendInit();
  }

  sendInit(): void {
    const document = this.document;
    if (!document.isLoaded) {
      this.post({ type: 'grid/loadFailed', message: `The rows of ${document.viewName} could not be read.` });
      return;
    }
    const shown = (): void => document.shown();
    // Not awaited: once delivered, the page has its first rows (it paints them in the task that takes
    // them), and a read of a view read already takes the rest of its rows (GridDocument.shown).
    void Promise.resolve(this.panel.webview.postMessage(this.parts.init(document, INIT_ROWS))).then(shown, shown);
    const model = document.model;
    for (let from = INIT_ROWS; from < model.rowCount; from += APPEND_ROWS)
      this.post({ type: 'grid/append', rows: model.initialRows(from, from + APPEND_ROWS) });
    this.sendRows({ changed: model.markedRowIds() });
    if (this.revealing !== undefined) this.post({ type: 'grid/reveal', recordId: this.revealing });
    this.revealing = undefined;
  }

  /** Rows that arrived, appended after the page's; then the marks of those with any (a restored edit). */
  private sendArrived(recordIds: readonly string[]): void {
    const document = this.document;
    if (!document.isLoaded || !this.pageReady) return;
    const model = document.model;
    this.post({ type: 'grid/append', rows: model.rowArrays(recordIds) });
    const marked = recordIds.filter((recordId) => model.isMarked(recordId));
    if (marked.length > 0) this.sendRows({ changed: marked });
  }

  sendRows(change: Partial<RowsChange>): void {
    const document = this.document;
    if (!document.isLoaded || !this.pageReady) return;
    const { changed = [], removed = [], added = [], renamed = [] } = change;
    this.post({
      type: 'grid/rows',
      rows: changed.map((id) => document.model.rowState(id)),
      ...(removed.length > 0 ? { removed: [...removed] } : {}),
      ...(added.length > 0 ? { added: [...added] } : {}),
      ...(renamed.length > 0 ? { renamed: renamed.map(([from, to]): [string, string] => [from, to]) } : {}),
    });
  }

  override dispose(): void {
    if (this.isDisposed) return;
    super.dispose();
    this.parts.ended(this);
  }
}
