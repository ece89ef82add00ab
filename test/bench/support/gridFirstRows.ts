// The editable grid's first rows, for viewScaling.bench.ts (issue 19): the built grid page in headless
// Chromium fed as the custom editor feeds it (GridRowsReader over the real PortalClient, the grid's model
// built from the first batch, grid/init with "Loading…"), timed from the start of the read to the frame
// after the first rows went into the page (firstPaint.ts; both clocks are this machine's). The read is then stopped, as
// Cancel does. gridHostMemory reads the view whole for the host's memory of the grid's rows.
import type { Browser } from 'playwright-core';
import type { PortalClient } from '../../../src/api/client';
import { provisionalMetadata } from '../../../src/catalog/recordTitles';
import { GridModel } from '../../../src/grid/model/gridModel';
import { GridRowsReader } from '../../../src/grid/host/rowsReader';
import { gridEditColumns } from '../../../src/grid/model/viewColumns';
import { PanelPage, type PanelServer } from '../../webview/support/panelPage';
import { firstPaintAt, watchFirstPaint } from './firstPaint';

/** Milliseconds from the start of the view's read to its first row in the editable grid's page. */
export async function gridFirstRows(
  browser: Browser,
  server: PanelServer,
  client: PortalClient,
  appId: string,
  viewId: string,
): Promise<number> {
  const columns = await client.listColumns(appId);
  const panel = await PanelPage.open(browser, server, 'grid', { viewport: { width: 1280, height: 800 } });
  try {
    let model: GridModel | undefined;
    let paintedAt = Number.NaN;
    const reader = new GridRowsReader(
      () => client,
      appId,
      viewId,
      () => undefined,
    );
    await watchFirstPaint(panel.page, '#grid-0-1');
    const started = Date.now();
    await reader.read([], {
      first: async (rows, metadata, _live, source) => {
        const shown = metadata ?? (rows[0] ? provisionalMetadata(appId, rows[0], columns) : []);
        const grid = new GridModel(
          gridEditColumns(appId, shown, (id) => (id === appId ? columns : undefined)),
          columns,
          rows,
          source,
        );
        model = grid;
        const init = {
          type: 'grid/init',
          viewName: 'All tickets',
          appName: 'Tickets',
          portalLabel: 'Bench',
          columns: [...grid.columns],
          rows: grid.initialRows(),
          newRows: 'record',
          filterColumns: [],
          filters: [],
          load: { state: 'loading', count: rows.length },
        };
        await panel.send(init);
        paintedAt = await firstPaintAt(panel.page);
      },
      more: (rows, source) => {
        model?.appendRows(rows, source);
      },
      ended: () => undefined,
    });
    if ((await panel.page.locator('#grid-0-1').count()) !== 1) throw new Error('The grid page shows no first row.');
    const firstMs = paintedAt - started;
    reader.stop();
    await reader.whenEnded();
    return firstMs;
  } finally {
    await panel.close();
  }
}

/**
 * The extension host's memory for the editable grid's rows (issue 19): the view read whole as the custom
 * editor reads it (GridRowsReader, the model built from the first batch, later batches appended, the read's
 * end), then what this process holds after a forced gc, less what it held before, with the model still held.
 * The page is not fed: its heap is the panel's, not the host's.
 */
export async function gridHostMemory(
  client: PortalClient,
  appId: string,
  viewId: string,
  held: () => number,
): Promise<{ bytes: number; rows: number }> {
  const columns = await client.listColumns(appId);
  const before = held();
  let model: GridModel | undefined;
  const reader = new GridRowsReader(
    () => client,
    appId,
    viewId,
    () => undefined,
  );
  await reader.read([], {
    first: (rows, metadata, _live, source) => {
      const shown = metadata ?? (rows[0] ? provisionalMetadata(appId, rows[0], columns) : []);
      model = new GridModel(
        gridEditColumns(appId, shown, (id) => (id === appId ? columns : undefined)),
        columns,
        rows,
        source,
      );
    },
    more: (rows, source) => {
      model?.appendRows(rows, source);
    },
    ended: () => {
      model?.finishRows();
    },
  });
  await reader.whenEnded();
  const bytes = held() - before;
  const rows = model?.rowCount ?? 0;
  reader.dispose();
  model?.dispose();
  return { bytes, rows };
}
