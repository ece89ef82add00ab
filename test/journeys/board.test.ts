// Journey (p): a view as a board, as a person uses it. Open View as Board… from the view's context menu in
// the Portal view; a card dragged with the mouse from New to Confirmed inside the board's frame; the tab
// dirty; Ctrl+S. Against the emulator's request log and record state: one PUT, of that record, which now
// holds what it held before with only its Status changed.
import * as assert from 'node:assert/strict';
import { eventually, recordState, requestMark, requestsSince } from './support/emulator';
import { panelFrame } from './support/panels';
import { collapseTree, contextMenu, showView } from './support/tree';
import { closeAllEditors, freshStart } from './support/workbench';
import { page, screenshots } from './support/world';

const ORDERS = ['Demo portal', 'Operations', 'Orders'];
const APP = '102';
/** Gift baskets: Status New (1) in the seed. */
const GIFTS = '4';
const STATUS = 'f19';

describe('Journey (p): a view as a board', function () {
  this.timeout(240_000);

  before(async () => {
    await freshStart();
  });

  after(() => closeAllEditors());

  it("the view's context menu opens its board; a card dragged to Confirmed and Ctrl+S send one PUT of its Status", async () => {
    const shot = screenshots('p-board');
    await collapseTree();
    const view = await showView(ORDERS, '3', { expand: false });
    const before = await recordState(APP, GIFTS);
    assert.equal(before.data[STATUS], '1');

    await contextMenu(view, 'Open View as Board…');
    const board = await panelFrame('View 3 (board)');
    const card = board.locator(`.board-cell[data-column="1"] .card[data-record-id="${GIFTS}"]`);
    await card.waitFor();
    await shot('board open');

    await card.dragTo(board.locator('.board-cell[data-column="2"]'));
    await board.locator(`.board-cell[data-column="2"] .card.pending[data-record-id="${GIFTS}"]`).waitFor();
    await page().locator('.part.editor .tabs-container .tab.dirty').waitFor();
    await shot('card dragged to Confirmed');

    const mark = await requestMark();
    await board.locator(`.card[data-record-id="${GIFTS}"]`).click();
    await page().keyboard.press('Control+S');
    const log = await eventually(
      () => requestsSince(mark),
      (requests) => requests.some((request) => request.method === 'PUT'),
      'the PUT of the moved card',
    );
    await page().locator('.part.editor .tabs-container .tab.dirty').waitFor({ state: 'detached', timeout: 20_000 });
    await board.locator(`.board-cell[data-column="2"] .card:not(.pending)[data-record-id="${GIFTS}"]`).waitFor();
    await shot('saved');
    const puts = (await requestsSince(mark)).filter((request) => request.method === 'PUT');
    assert.deepEqual(
      puts.map((request) => `${request.path} ${request.status}`),
      [`/api/v1/app/${APP}/record/${GIFTS} 200`],
      `one PUT, of the card's record: ${JSON.stringify(log.map((request) => `${request.method} ${request.path}`))}`,
    );
    const after = await recordState(APP, GIFTS);
    assert.equal(after.data[STATUS], '2', 'Status: Confirmed');
    assert.deepEqual({ ...after.data, [STATUS]: before.data[STATUS] }, before.data, 'no other field changed');
  });
});
