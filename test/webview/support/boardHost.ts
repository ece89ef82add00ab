// A stand-in for the extension host of a board: the real grid model (src/grid/model/gridModel.ts) and the real
// board session (src/board/model/boardSession.ts) over the real portal client (emulator over HTTP), with the
// page's messages instead of VS Code's. VS Code's edit stack is a list here: undo() does what Ctrl+Z makes
// VS Code do (call the last edit's undo), and the rows it touched are redrawn as GridDocument does.
import type { Browser } from 'playwright-core';
import type { PortalClient } from '../../../src/api/client';
import { BoardSession, boardStart } from '../../../src/board/model/boardSession';
import type { Transaction } from '../../../src/grid/model/editHistory';
import { GridModel } from '../../../src/grid/model/gridModel';
import type { BoardDefinition, BoardToHostMessage, HostToBoardMessage } from '../../../src/board/protocol';
import { filterColumns, gridEditColumns } from '../../../src/grid/model/viewColumns';
import type { FilterColumn } from '../../../src/shared/protocol';
import { PanelPage, type OpenOptions, type PanelServer } from './panelPage';

export class BoardHost {
  panel!: PanelPage;
  model!: GridModel;
  session!: BoardSession;
  definition: BoardDefinition | undefined;
  readonly stack: Transaction[] = [];
  /** Messages the host passes on to what the custom editor shares with the grid (save, resolve, open). */
  readonly passed: BoardToHostMessage[] = [];
  private filterColumns: FilterColumn[] = [];
  private titleField: string | undefined;
  private pending: Promise<unknown> = Promise.resolve();

  static async open(
    browser: Browser,
    server: PanelServer,
    client: PortalClient,
    options: OpenOptions & { appId: string; viewId: string; titleField?: string; definition?: BoardDefinition },
  ): Promise<BoardHost> {
    const host = new BoardHost();
    host.definition = options.definition;
    host.titleField = options.titleField;
    const [read, columns] = await Promise.all([client.readView(options.appId, options.viewId), client.listColumns(options.appId)]);
    host.model = new GridModel(
      gridEditColumns(options.appId, read.metadata, (id) => (id === options.appId ? columns : undefined)),
      columns,
      read.rows,
    );
    host.filterColumns = filterColumns(options.appId, columns, read.metadata);
    const onPost = (message: { type: string }): void => {
      host.pending = host.pending
        .then(() => host.handle(message as BoardToHostMessage))
        .catch((error: unknown) => console.error('board host:', error));
    };
    host.panel = await PanelPage.open(browser, server, 'board', { ...options, onPost });
    await host.settled();
    return host;
  }

  async settled(): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 30));
    await this.pending;
  }

  async send(message: HostToBoardMessage): Promise<void> {
    await this.panel.post(message);
  }

  async undo(): Promise<void> {
    const transaction = this.stack.pop();
    const step = transaction ? this.model.history.undo(transaction) : undefined;
    if (step) await this.rowsChanged(step.transaction.changes.map((change) => change.recordId));
  }

  async close(): Promise<void> {
    await this.panel.close();
  }

  private async rowsChanged(recordIds: readonly string[]): Promise<void> {
    const layout = this.session.rowsChanged({ changed: recordIds, removed: [], renamed: [] });
    if (layout) await this.send(layout);
  }

  private async handle(message: BoardToHostMessage): Promise<void> {
    // The page says "ready" before PanelPage.open() has handed the page over: wait for it.
    while (!this.panel) await new Promise((resolve) => setTimeout(resolve, 5));
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
        return this.send({
          type: 'board/cards',
          place,
          start: message.start,
          cards: this.session.cards(place, message.start, message.end),
        });
      }
      case 'board/move': {
        const { label, edits } = this.session.move(message.recordId, message.to);
        if (edits.length === 0) return;
        const outcome = this.model.history.edit('edit', label, edits);
        if (outcome.transaction) this.stack.push(outcome.transaction);
        if (outcome.refused[0]) {
          this.session.moveRefused();
          return this.send({ type: 'board/notice', level: 'error', message: outcome.refused[0].message });
        }
        return this.rowsChanged(edits.map((edit) => edit.recordId));
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
