// One open tab of a grid: its page (the webview), what it listens to, and what it is sent. It owns its
// subscriptions (lifecycle.ts) and ends with its panel. The page's messages are checked against their
// schemas where they enter and handled inside the one error boundary, as a command is.
import type * as vscode from 'vscode';
import { GRID_VIEW_TYPE } from '../../ids';
import { Disposable } from '../../lifecycle';
import { gridToHostSchema } from '../../shared/panelMessages';
import type { GridInitMessage, GridToHostMessage, HostToGridMessage } from '../../shared/protocol';
import { runReported } from '../../ui/errorBoundary';
import { messageReceiver } from '../messages';
import type { GridDocument, RowsChange } from './gridDocument';

export interface GridPageParts {
  /** The grid/init message of the document as it is now (layout, labels, rows). */
  init(document: GridDocument): GridInitMessage;
  /** A message of the page, checked. */
  handle(page: GridPage, message: GridToHostMessage): Promise<void>;
  /** The page ended (its panel closed). */
  ended(page: GridPage): void;
}

export class GridPage extends Disposable {
  constructor(
    readonly panel: vscode.WebviewPanel,
    readonly document: GridDocument,
    private readonly parts: GridPageParts,
  ) {
    super();
    this._register(document.onDidChangeRows((change) => this.sendRows(change)));
    this._register(document.onDidReload(() => this.sendInit()));
    this._register(document.onDidAppendRows((recordIds) => this.sendArrived(recordIds)));
    this._register(document.onDidChangeLoad((load) => this.post({ type: 'grid/load', load })));
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

  sendInit(): void {
    const document = this.document;
    if (!document.isLoaded) {
      this.post({ type: 'grid/loadFailed', message: `The rows of ${document.viewName} could not be read.` });
      return;
    }
    this.post(this.parts.init(document));
    this.sendRows({ changed: document.model.markedRowIds() });
  }

  /** Rows that arrived, appended after the page's; then the marks of those with any (a restored edit). */
  private sendArrived(recordIds: readonly string[]): void {
    const document = this.document;
    if (!document.isLoaded) return;
    const model = document.model;
    this.post({ type: 'grid/append', rows: model.rowArrays(recordIds) });
    const marked = recordIds.filter((recordId) => model.changeSet.row(recordId) !== undefined || model.conflicts.has(recordId));
    if (marked.length > 0) this.sendRows({ changed: marked });
  }

  sendRows(change: Partial<RowsChange>): void {
    const document = this.document;
    if (!document.isLoaded) return;
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
