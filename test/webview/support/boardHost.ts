// A stand-in for the extension host of a board: the real grid model (src/grid/model/gridModel.ts) and the real
// board session (src/board/model/boardSession.ts), with the page's messages instead of VS Code's (what it
// shares with the grid's stand-in: editorHost.ts).
import type { Browser } from 'playwright-core';
import type { PortalClient } from '../../../src/api/client';
import { BoardSession, boardStart } from '../../../src/board/model/boardSession';
import type { BoardDefinition, BoardPlace, BoardToHostMessage, HostToBoardMessage } from '../../../src/board/protocol';
import { EditorHost } from './editorHost';
import type { OpenOptions, PanelServer } from './panelPage';

export class BoardHost extends EditorHost<BoardToHostMessage, HostToBoardMessage> {
  session!: BoardSession;
  definition: BoardDefinition | undefined;
  /** Messages the host passes on to what the custom editor shares with the grid (save, resolve, open). */
  readonly passed: BoardToHostMessage[] = [];
  /** The windows of cards the page asked for (board/window), in order. */
  readonly asked: Array<{ place: BoardPlace; start: number; end: number }> = [];
  private titleField: string | undefined;

  static async open(
    browser: Browser,
    server: PanelServer,
    client: PortalClient,
    options: OpenOptions & { appId: string; viewId: string; titleField?: string; definition?: BoardDefinition },
  ): Promise<BoardHost> {
    const host = new BoardHost();
    host.definition = options.definition;
    host.titleField = options.titleField;
    await host.start(browser, server, client, 'board', options);
    return host;
  }

  protected async redraw(recordIds: readonly string[]): Promise<void> {
    const layout = this.session.rowsChanged({ changed: recordIds, removed: [], renamed: [] });
    if (layout) await this.send(layout);
  }

  protected async take(message: BoardToHostMessage): Promise<void> {
    switch (message.type) {
      case 'ready': {
        const start = boardStart(this.model.columns, this.definition, 'All orders');
        this.session = new BoardSession(this.model, start.definition, this.titleField);
        await this.send({
          type: 'board/init',
          viewName: 'All orders',
          appName: 'Orders',
          portalLabel: 'Demo portal',
          filterColumns: this.filterColumns,
          filters: [],
          ...start,
        });
        const layout = this.session.layout();
        if (layout) await this.send(layout);
        return;
      }
      case 'board/window': {
        const place = this.session.normal(message.place);
        this.asked.push({ place, start: message.start, end: message.end });
        return this.send({
          type: 'board/cards',
          place,
          start: message.start,
          cards: this.session.window(place, message.start, message.end),
        });
      }
      case 'board/move': {
        const { label, edits } = this.session.move(message.recordId, message.to);
        if (edits.length === 0) return;
        const outcome = this.model.edit('edit', label, edits);
        if (outcome.transaction) this.stack.push(outcome.transaction);
        if (outcome.refused[0]) {
          this.session.moveRefused();
          return this.send({ type: 'board/notice', level: 'error', message: outcome.refused[0].message });
        }
        return this.redraw(edits.map((edit) => edit.recordId));
      }
      case 'board/define':
        this.definition = message.definition;
        return this.handle({ type: 'ready' });
      default:
        this.passed.push(message);
        return;
    }
  }
}
