// The board's first cards, for board.bench.ts: the built board page in headless Chromium fed as the board's
// custom editor feeds it (the grid's GridRowsReader over the real PortalClient, the grid's model and the
// board session built from the first batch, board/init and board/layout, then the windows the page asks
// for answered), timed from the start of the read to the frame after the first cards went into the page
// (firstPaint.ts: the page's clock, as for the grid's first rows).
// The read is then stopped, as Cancel does. The page's requests come back through the stand-in's binding,
// as VS Code's postMessage would: that round trip is part of the figure.
import type { Browser } from 'playwright-core';
import type { PortalClient } from '../../../src/api/client';
import { BoardSession, boardStart } from '../../../src/board/model/boardSession';
import { provisionalMetadata } from '../../../src/catalog/recordTitles';
import { GridModel } from '../../../src/grid/model/gridModel';
import type { BoardDefinition, BoardToHostMessage } from '../../../src/board/protocol';
import { GridRowsReader } from '../../../src/grid/host/rowsReader';
import { gridEditColumns } from '../../../src/grid/model/viewColumns';
import { PanelPage, type PanelServer } from '../../webview/support/panelPage';
import { firstPaintAt, watchFirstPaint } from './firstPaint';

export async function boardFirstCards(
  browser: Browser,
  server: PanelServer,
  client: PortalClient,
  view: { appId: string; viewId: string; definition: BoardDefinition; titleField: string },
): Promise<number> {
  const { appId, viewId } = view;
  const columns = await client.listColumns(appId);
  let session: BoardSession | undefined;
  const opened: { panel?: PanelPage } = {};
  const onPost = (message: { type: string }): void => {
    const typed = message as BoardToHostMessage;
    const panel = opened.panel;
    if (typed.type !== 'board/window' || !session || !panel) return;
    const place = session.normal(typed.place);
    // Not awaited: the page takes the cards when they come, as from VS Code's postMessage.
    void panel.send({ type: 'board/cards', place, start: typed.start, cards: session.window(place, typed.start, typed.end) });
  };
  const page = await PanelPage.open(browser, server, 'board', { viewport: { width: 1280, height: 800 }, onPost });
  opened.panel = page;
  try {
    let paintedAt = Number.NaN;
    const reader = new GridRowsReader(
      () => client,
      appId,
      viewId,
      () => undefined,
    );
    let model: GridModel | undefined;
    await watchFirstPaint(page.page, '.card');
    const started = Date.now();
    await reader.read([], {
      first: async (rows, metadata, _live, source) => {
        const shown = metadata ?? (rows[0] ? provisionalMetadata(appId, rows[0], columns) : []);
        model = new GridModel(
          gridEditColumns(appId, shown, (id) => (id === appId ? columns : undefined)),
          columns,
          rows,
          source,
        );
        const start = boardStart(model.columns, view.definition, 'All tickets');
        session = new BoardSession(model, start.definition, view.titleField);
        await page.send({
          type: 'board/init',
          viewName: 'All tickets',
          appName: 'Tickets',
          portalLabel: 'Bench',
          filterColumns: [],
          filters: [],
          load: { state: 'loading', count: rows.length },
          ...start,
        });
        const layout = session.layout();
        if (layout) await page.send(layout);
        paintedAt = await firstPaintAt(page.page);
      },
      more: (rows, source) => {
        const added = model?.appendRows(rows, source) ?? [];
        session?.arrived(added);
      },
      ended: () => undefined,
    });
    const firstMs = paintedAt - started;
    reader.stop();
    await reader.whenEnded();
    return firstMs;
  } finally {
    await page.close();
  }
}
