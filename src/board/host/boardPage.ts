// One open tab of a board: its page, the board session over the grid's document model (boardSession.ts)
// and the document's events that keep it in step. Its messages are checked against the board's protocol
// where they enter and handled inside the one error boundary, as a command is.
import type * as vscode from 'vscode';
import { BOARD_VIEW_TYPE } from '../../ids';
import { Disposable } from '../../lifecycle';
import { boardToHostSchema } from '../messages';
import type { BoardDefinition, BoardInitMessage, BoardToHostMessage, HostToBoardMessage } from '../protocol';
import { runReported } from '../../ui/errorBoundary';
import { messageReceiver } from '../../webviews/messages';
import type { GridDocument } from '../../grid/host/gridDocument';
import { definitionProblem } from '../model/boardModel';
import { BoardSession, boardStart } from '../model/boardSession';

export interface BoardPageParts {
  /** The labels, the filters and the load, for board/init. */
  init(document: GridDocument): Omit<BoardInitMessage, 'definition' | 'problem' | 'options'>;
  /** The board kept for the view (the user's, else the workspace file's). */
  definition(document: GridDocument): BoardDefinition | undefined;
  saveDefinition(document: GridDocument, definition: BoardDefinition): Promise<void>;
  /** The field that titles a card: the app's title field when the view shows it. */
  titleField(document: GridDocument): string | undefined;
  /** A message the board shares with the grid (save, discard, filters, conflicts, open a record). */
  handle(page: BoardPage, message: BoardToHostMessage): Promise<void>;
  ended(page: BoardPage): void;
}

export class BoardPage extends Disposable {
  private session: BoardSession | undefined;

  constructor(
    readonly panel: vscode.WebviewPanel,
    readonly document: GridDocument,
    private readonly parts: BoardPageParts,
  ) {
    super();
    this._register(document.onDidReload(() => this.sendInit()));
    this._register(
      document.onDidAppendRows((recordIds) => {
        this.session?.arrived(recordIds);
        this.sendLayout();
      }),
    );
    this._register(
      document.onDidChangeRows((change) => {
        const layout = this.session?.rowsChanged(change);
        if (layout) this.post(layout);
      }),
    );
    this._register(document.onDidChangeLoad((load) => this.post({ type: 'board/load', load })));
    this._register(
      panel.webview.onDidReceiveMessage(
        messageReceiver<BoardToHostMessage>(BOARD_VIEW_TYPE, boardToHostSchema, (message) => this.handle(message), runReported),
      ),
    );
    this._register(panel.onDidDispose(() => this.dispose()));
  }

  post(message: HostToBoardMessage): void {
    // Not awaited: postMessage resolves false only when the page is gone (its tab closed meanwhile); a
    // page that loads again asks for everything with "ready".
    void this.panel.webview.postMessage(message);
  }

  /** Groups every row the document holds and draws the board from the start. */
  sendInit(): void {
    const document = this.document;
    if (!document.isLoaded) {
      this.post({ type: 'board/loadFailed', message: `The rows of ${document.viewName} could not be read.` });
      return;
    }
    const start = boardStart(document.model.columns, this.parts.definition(document), document.viewName);
    this.session = new BoardSession(document.model, start.definition, this.parts.titleField(document));
    this.post({ ...this.parts.init(document), ...start });
    this.sendLayout();
    // The rest of a view read already is taken now (it waits for the first page to show the rows).
    document.shown();
  }

  private sendLayout(): void {
    const layout = this.session?.layout();
    if (layout) this.post(layout);
  }

  private async handle(message: BoardToHostMessage): Promise<void> {
    switch (message.type) {
      case 'ready':
        return this.sendInit();
      case 'board/window': {
        const session = this.session;
        if (!session) return;
        const place = session.normal(message.place);
        this.post({ type: 'board/cards', place, start: message.start, cards: session.window(place, message.start, message.end) });
        return;
      }
      case 'board/move': {
        const session = this.session;
        if (!session) throw new Error('This board has no columns to move a card to.');
        const { label, edits } = session.move(message.recordId, message.to);
        if (edits.length === 0) return;
        const result = this.document.edit('edit', label, edits);
        if (!result.message) return;
        session.moveRefused();
        this.post({ type: 'board/notice', level: 'error', message: result.message });
        return;
      }
      case 'board/define': {
        const problem = definitionProblem(message.definition, this.document.model.columns);
        if (problem) throw new Error(problem);
        await this.parts.saveDefinition(this.document, message.definition);
        return;
      }
      default:
        return this.parts.handle(this, message);
    }
  }

  override dispose(): void {
    if (this.isDisposed) return;
    super.dispose();
    this.parts.ended(this);
  }
}
