// Journey (n): a bulk change from the editable grid, as a person does it (issue 18). Three rows selected
// with the keyboard (a click, Shift+Down twice), Set Field… in the grid's toolbar, the column picked and
// the value typed in VS Code's quick inputs, VS Code's confirmation answered: one PUT per selected
// record and each record holds what it held before plus that field; the grid shows the new values. Then
// two other rows selected and Delete Rows…, confirmed with the count: one DELETE each, both records in the
// trash, and the grid leaves them out.
import * as assert from 'node:assert/strict';
import { eventually, recordState, requestMark, requestsSince, type RecordState } from './support/emulator';
import { panelFrame } from './support/panels';
import { clickRowAction, collapseTree, showView } from './support/tree';
import { answerInput, closeAllEditors, freshStart, notification, pick } from './support/workbench';
import { page, screenshots } from './support/world';

const ORDERS = ['Demo portal', 'Operations', 'Orders'];
const APP = '102';
/** View 3's grid columns (0 is the record column): Quantity is f18. */
const QUANTITY = { column: 9, field: 'f18' } as const;
const recordOfPath = (path: string): string => /\/record\/(\d+)$/.exec(path)?.[1] ?? path;

describe('Journey (n): Set Field… and Delete Rows… on rows selected in the grid', function () {
  this.timeout(240_000);

  before(async () => {
    await freshStart();
  });

  after(() => closeAllEditors());

  it('three rows selected with Shift+Down: Set Field sends one PUT of that field each; two rows: Delete Rows moves them to the trash', async () => {
    const shot = screenshots('n-bulk-change');
    await collapseTree();
    const view = await showView(ORDERS, '3', { expand: false });
    await clickRowAction(view, 'Open View as Grid');
    const grid = await panelFrame('View 3');
    await grid.locator('#grid-0-1').waitFor();
    const before = new Map<string, RecordState>();
    for (const id of ['2', '3', '4']) before.set(id, await recordState(APP, id));

    // Rows 2 to 4 of the grid (records 2, 3 and 4): a click in the first, Shift+Down twice.
    await grid.locator(`#grid-1-${QUANTITY.column}`).click();
    await page().keyboard.press('Shift+ArrowDown');
    await page().keyboard.press('Shift+ArrowDown');
    await shot('three rows selected');
    let mark = await requestMark();
    await grid.locator('#grid-set-field').click();
    await pick(/Which column/, 'Quantity');
    await answerInput(/Set Quantity on 3 records/, '7');
    const confirm = page().locator('.monaco-dialog-box', { hasText: /Set Quantity to "7" on 3 records\?/ });
    await confirm.waitFor();
    await shot('confirm set field');
    await confirm.getByRole('button', { name: 'Set Field', exact: true }).click();
    await notification(/^Setting Quantity: 3 records updated\.$/);
    const puts = (await requestsSince(mark)).filter((request) => request.method === 'PUT');
    assert.deepEqual(
      puts.map((request) => `${recordOfPath(request.path)} ${request.status}`).sort(),
      ['2 200', '3 200', '4 200'],
      'one PUT per selected record',
    );
    for (const id of ['2', '3', '4']) {
      const after = await recordState(APP, id);
      assert.deepEqual(
        after.data,
        { ...before.get(id)?.data, [QUANTITY.field]: '7' },
        `record ${id} holds what it held plus the new Quantity`,
      );
    }
    await eventually(
      () => grid.locator(`#grid-1-${QUANTITY.column}, #grid-2-${QUANTITY.column}, #grid-3-${QUANTITY.column}`).allTextContents(),
      (texts) => texts.every((text) => text.trim() === '7'),
      'the grid shows the new values',
    );
    assert.equal(await page().locator('.part.editor .tabs-container .tab.dirty').count(), 0, 'nothing is pending in the grid');
    await shot('field set');

    // Rows 5 and 6 (records 5 and 6): Delete Rows…, confirmed with the count.
    await grid.locator('#grid-4-2').click();
    await page().keyboard.press('Shift+ArrowDown');
    mark = await requestMark();
    await grid.locator('#grid-delete-rows').click();
    const remove = page().locator('.monaco-dialog-box', { hasText: /Move 2 records to trash\?/ });
    await remove.waitFor();
    await shot('confirm delete');
    await remove.getByRole('button', { name: 'Delete', exact: true }).click();
    await notification(/^Deleting 2 records: 2 records moved to trash\.$/);
    const deletes = (await requestsSince(mark)).filter((request) => request.method === 'DELETE');
    assert.deepEqual(
      deletes.map((request) => `${recordOfPath(request.path)} ${request.status}`).sort(),
      ['5 200', '6 200'],
      'one DELETE per selected record',
    );
    for (const id of ['5', '6']) assert.equal((await recordState(APP, id)).trashed, true, `record ${id} is in the trash`);
    await eventually(
      () => grid.locator('#grid-counts').textContent(),
      (text) => /^6 rows/.test(text ?? ''),
      'the grid leaves the deleted rows out',
    );
    await shot('rows deleted');
  });
});
