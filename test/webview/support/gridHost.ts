// A stand-in for the extension host of a view grid: the real grid model (src/grid/model/gridModel.ts) and the
// block plans the custom editor uses, with the page's messages instead of VS Code's (what it shares with the
// board's stand-in: editorHost.ts). The clipboard the host writes is kept in `clipboard`.
import type { Browser } from 'playwright-core';
import type { PortalClient } from '../../../src/api/client';
import { blockPlanMessage, planFor } from '../../../src/grid/model/blockMessages';
import { zoneOffset } from '../../../src/grid/model/cellText';
import type { CellEdit, RefusedCell } from '../../../src/grid/model/changeSet';
import type { TransactionKind } from '../../../src/grid/model/editHistory';
import type { SaveSummary } from '../../../src/grid/model/gridModel';
import { linkedFilter, linkedLookup, linkedRows } from '../../../src/grid/model/linkedRecord';
import type { AppRecords } from '../../../src/records/store';
import type { GridToHostMessage, HostToGridMessage } from '../../../src/grid/protocol';
import type { ViewFilter } from '../../../src/shared/protocol';
import { EditorHost } from './editorHost';
import type { OpenOptions, PanelServer, PosterMessage } from './panelPage';

export class GridHost extends EditorHost<GridToHostMessage | PosterMessage, HostToGridMessage> {
  clipboard = '';
  /** The records "opened" (a LookUp cell followed): app id and record id. */
  readonly opened: Array<{ appId: string; recordId: string }> = [];
  private client!: PortalClient;
  private view = { appId: '', viewId: '' };
  /** The filters the rows were last read with (grid/filter). */
  filters: ViewFilter[] = [];
  /** The columns' layout the page asked to keep (grid/layout), as the custom editor keeps it per view. */
  layout: { order: string[]; hidden: string[]; frozen: number } | undefined;

  static async open(
    browser: Browser,
    server: PanelServer,
    client: PortalClient,
    options: OpenOptions & { appId: string; viewId: string; layout?: { order: string[]; hidden: string[]; frozen: number } },
  ): Promise<GridHost> {
    const host = new GridHost();
    host.layout = options.layout;
    host.client = client;
    host.view = { appId: options.appId, viewId: options.viewId };
    await host.start(browser, server, client, 'grid', options);
    return host;
  }

  protected redraw(recordIds: readonly string[]): Promise<void> {
    return this.sendRows(recordIds);
  }

  /** Saves as the custom editor does (without VS Code's progress), and redraws the rows. */
  async save(store: AppRecords): Promise<SaveSummary> {
    const report = await this.model.send(store);
    const summary = this.model.afterSave(report);
    await this.sendRows(this.model.markedRowIds());
    return summary;
  }

  private async edit(kind: TransactionKind, label: string, edits: readonly CellEdit[]): Promise<RefusedCell[]> {
    const outcome = this.model.edit(kind, label, edits);
    if (outcome.transaction) {
      this.stack.push(outcome.transaction);
      await this.sendRows(outcome.transaction.changes.map((change) => change.recordId));
    }
    return outcome.refused;
  }

  /** Rows redrawn, with the new rows added, created and taken out since the last time (as gridDocument.ts does). */
  async sendRows(recordIds: readonly string[]): Promise<void> {
    const added: string[] = [];
    const removed: string[] = [];
    const renamed: Array<[string, string]> = [];
    for (const event of this.model.takeRowEvents()) {
      if ('added' in event) added.push(event.added);
      else if ('removed' in event) removed.push(event.removed);
      else renamed.push([event.created, event.recordId]);
    }
    const ids = [...new Set([...recordIds, ...added, ...renamed.map(([, id]) => id)].map((id) => this.model.currentId(id)))].filter((id) =>
      this.model.hasRow(id),
    );
    await this.send({
      type: 'grid/rows',
      rows: ids.map((id) => this.model.rowState(id)),
      ...(added.length > 0 ? { added } : {}),
      ...(removed.length > 0 ? { removed } : {}),
      ...(renamed.length > 0 ? { renamed } : {}),
    });
  }

  protected async take(message: GridToHostMessage | PosterMessage): Promise<void> {
    const typed = message as GridToHostMessage;
    switch (typed.type) {
      case 'ready':
        return this.send({
          type: 'grid/init',
          viewName: 'All orders',
          appName: 'Orders',
          portalLabel: 'Demo portal',
          columns: [...this.model.columns],
          rows: this.model.initialRows(),
          newRows: 'draft',
          filterColumns: this.filterColumns,
          filters: this.filters,
          ...(this.layout ? { layout: this.layout } : {}),
        });
      case 'grid/filter': {
        // What GridDocument.runFilters does: the view read again, the change set kept, the page starts over.
        let read;
        try {
          read = await this.client.readView(this.view.appId, this.view.viewId, typed.filters);
        } catch (error) {
          // As the custom editor says it: beside the filters, the grid keeping the rows it had.
          return this.send({
            type: 'grid/notice',
            level: 'error',
            message: `The filters could not be run: ${error instanceof Error ? error.message : String(error)}`,
          });
        }
        this.filters = typed.filters;
        this.model.replaceRows(read.rows);
        await this.handle({ type: 'ready' });
        return this.sendRows(this.model.markedRowIds());
      }
      case 'grid/layout':
        this.layout = { order: typed.order, hidden: typed.hidden, frozen: typed.frozen };
        return;
      case 'grid/addRow': {
        const outcome = this.model.history.addRow();
        if (outcome.transaction) this.stack.push(outcome.transaction);
        return this.sendRows([]);
      }
      case 'grid/edit': {
        const refused = await this.edit('edit', typed.label, typed.edits);
        if (refused[0]) await this.send({ type: 'grid/notice', level: 'error', message: refused[0].message });
        return;
      }
      case 'grid/paste':
      case 'grid/fill':
      case 'grid/clear': {
        if (typed.type === 'grid/paste' && !typed.text) return;
        const plan = planFor(this.model, typed.type === 'grid/paste' ? { ...typed, text: typed.text ?? '' } : typed, {
          dateOrder: 'DMY',
          utcOffset: zoneOffset(typed.type === 'grid/paste' ? typed.timeZone : undefined),
        });
        const refused = await this.edit(plan.kind, plan.label, plan.plan.edits);
        const notice = blockPlanMessage(plan.plan, refused.length);
        if (notice) await this.send({ type: 'grid/notice', level: 'error', message: notice });
        return;
      }
      case 'grid/copy':
        this.clipboard = this.model.copyText(
          this.model.layout(typed.block.columns),
          { top: typed.block.top, bottom: typed.block.bottom, left: 0, right: typed.block.columns.length - 1 },
          typed.format,
          { utcOffset: zoneOffset(typed.timeZone) },
        );
        return;
      case 'grid/openLinked': {
        // What the custom editor does (src/grid/host/openLinked.ts) with a view of the linked app added.
        const column = this.model.appColumn(typed.field);
        const linkedApp = typeof column?.lookup_app_id === 'string' ? column.lookup_app_id : '';
        const lookup = column
          ? linkedLookup(column, await this.client.listColumns(linkedApp), this.model.fieldValues(typed.recordId, [typed.field])[0])
          : { problem: 'no column' };
        if ('problem' in lookup) return this.send({ type: 'grid/notice', level: 'error', message: lookup.problem });
        const [row] = linkedRows(lookup, (await this.client.readView(lookup.appId, '1', [linkedFilter(lookup)])).rows);
        if (row?.id) this.opened.push({ appId: lookup.appId, recordId: row.id });
        return;
      }
      default:
        return;
    }
  }
}
