// The board's session over the grid's model: each layout carries the cards in sight of every cell (the
// window the page last asked for, the first cards before it asked), so that the page draws them at once
// instead of asking after each layout, across VS Code's postMessage, behind a host busy reading the view.
import * as assert from 'node:assert/strict';
import { groupableColumns } from '../../../src/board/model/boardModel';
import { BoardSession, FIRST_CARDS, LAYOUT_CARDS_LIMIT } from '../../../src/board/model/boardSession';
import type { BoardLayoutMessage } from '../../../src/board/protocol';
import { GridModel } from '../../../src/grid/model/gridModel';
import type { ViewRow } from '../../../src/api/answers';
import { ordersView, startGridPortal, type GridPortal } from '../grid/gridPortal';

describe('board: the session', function () {
  let portal: GridPortal;
  let rows: ViewRow[];
  let columns: Awaited<ReturnType<typeof ordersView>>['columns'];

  before(async () => {
    portal = await startGridPortal();
    ({ rows, columns } = await ordersView(portal));
  });
  after(() => portal.emulator.close());

  /** A board of `count` rows (the view's rows repeated under new ids), by its first Choice column. */
  function session(count: number): { board: BoardSession; model: GridModel } {
    const many = Array.from({ length: count }, (_, index) => ({ ...rows[index % rows.length], id: `r${index}` }));
    const model = new GridModel(columns, portal.columns, many);
    const [column] = groupableColumns(model.columns);
    assert.ok(column, 'Orders has a Choice column to group by');
    return { board: new BoardSession(model, { column: column.key, fields: [] }, undefined), model };
  }

  const cellCards = (layout: BoardLayoutMessage | undefined): Map<string, { start: number; ids: string[] }> =>
    new Map(
      (layout?.cards ?? []).map((entry) => [entry.place.column, { start: entry.start, ids: entry.cards.map((card) => card.recordId) }]),
    );

  it('gives each cell its first cards with the layout, as board/window would', () => {
    const { board } = session(500);
    const layout = board.layout();
    assert.ok(layout);
    const given = cellCards(layout);
    assert.equal(given.size, layout.cells.length, 'every cell holding cards');
    for (const [column, , count] of layout.cells) {
      const cell = given.get(column);
      assert.equal(cell?.start, 0);
      assert.deepEqual(
        cell?.ids,
        board.cards({ column }, 0, Math.min(count, FIRST_CARDS)).map((card) => card.recordId),
      );
    }
  });

  it('gives a cell the window the page last asked for, after a move and as rows arrive', () => {
    const { board, model } = session(600);
    const [column, , count] = board.layout()?.cells[0] ?? ['', '', 0];
    assert.ok(count > 60, `${count} cards in the first column`);
    const asked = board.window({ column }, 40, 60);
    assert.equal(asked.length, 20);
    const { edits } = board.move(asked[0].recordId, { column: board.layout()?.cells[1][0] ?? '' });
    model.history.edit('edit', 'Move', edits);
    const after = board.rowsChanged({ changed: [asked[0].recordId], removed: [], renamed: [] });
    assert.deepEqual(cellCards(after).get(column), {
      start: 40,
      ids: board.cards({ column }, 40, 60).map((card) => card.recordId),
    });
    const more = Array.from({ length: 50 }, (_, index) => ({ ...rows[index % rows.length], id: `more${index}` }));
    board.arrived(model.appendRows(more));
    assert.equal(cellCards(board.layout()).get(column)?.start, 40, 'kept as rows arrive');
  });

  it('gives no more cards in one layout than its limit, the later cells asking for theirs', () => {
    const { board } = session(500);
    for (const [column] of board.layout()?.cells ?? []) board.window({ column }, 0, LAYOUT_CARDS_LIMIT);
    const given = board.layout()?.cards ?? [];
    const total = given.reduce((sum, entry) => sum + entry.cards.length, 0);
    assert.ok(total <= LAYOUT_CARDS_LIMIT, `${total} cards in one layout`);
    assert.ok(given.length >= 1);
  });
});
