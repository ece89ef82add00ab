// What the stand-ins for the extension host of a grid (gridHost.ts) and of a board (boardHost.ts) share:
// the view read over the real portal client (emulator over HTTP) into the real grid model, the page
// opened, its messages handled one at a time, and VS Code's edit stack as a list: undo() does what
// Ctrl+Z makes VS Code do (call the last edit's undo), and the rows it touched are redrawn.
import type { Browser } from 'playwright-core';
import type { PortalClient } from '../../../src/api/client';
import type { Transaction } from '../../../src/grid/model/editHistory';
import { GridModel } from '../../../src/grid/model/gridModel';
import { filterColumns, gridEditColumns } from '../../../src/grid/model/viewColumns';
import type { FilterColumn } from '../../../src/shared/protocol';
import { PanelPage, type OpenOptions, type PanelServer } from './panelPage';

export abstract class EditorHost<FromPage, ToPage extends object> {
  panel!: PanelPage;
  model!: GridModel;
  readonly stack: Transaction[] = [];
  protected filterColumns: FilterColumn[] = [];
  private pending: Promise<unknown> = Promise.resolve();

  /** Reads the view into the model and opens the page `panel` (grid, board) on it. */
  protected async start(
    browser: Browser,
    server: PanelServer,
    client: PortalClient,
    panel: 'grid' | 'board',
    options: OpenOptions & { appId: string; viewId: string },
  ): Promise<void> {
    const [read, columns] = await Promise.all([client.readView(options.appId, options.viewId), client.listColumns(options.appId)]);
    this.model = new GridModel(
      gridEditColumns(options.appId, read.metadata, (id) => (id === options.appId ? columns : undefined)),
      columns,
      read.rows,
    );
    this.filterColumns = filterColumns(options.appId, columns, read.metadata);
    const onPost = (message: { type: string }): void => {
      this.pending = this.pending
        .then(() => this.handle(message as FromPage))
        .catch((error: unknown) => console.error(`${panel} host:`, error));
    };
    this.panel = await PanelPage.open(browser, server, panel, { ...options, onPost });
    await this.settled();
  }

  /** Every message the page sent so far has been handled. */
  async settled(): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 30));
    await this.pending;
  }

  async send(message: ToPage): Promise<void> {
    await this.panel.post(message);
  }

  async undo(): Promise<void> {
    const transaction = this.stack.pop();
    const step = transaction ? this.model.undo(transaction) : undefined;
    if (step) await this.redraw(step.transaction.changes.map((change) => change.recordId));
  }

  async close(): Promise<void> {
    await this.panel.close();
  }

  /** One message of the page's (after the page was handed over: "ready" comes before). */
  protected async handle(message: FromPage): Promise<void> {
    while (!this.panel) await new Promise((resolve) => setTimeout(resolve, 5));
    return this.take(message);
  }

  protected abstract take(message: FromPage): Promise<void>;

  /** The rows an edit or undo touched, redrawn as the custom editor does. */
  protected abstract redraw(recordIds: readonly string[]): Promise<void>;
}
