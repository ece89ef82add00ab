// Journey (l): a view as an editable grid, as a person uses it. One click on the view's table icon in the
// Portal view; three cells of two rows typed inside the grid's frame (click, F2, type, Enter); a 3 × 2
// block put on the clipboard and pasted with Ctrl+V; another user changes one of the edited rows through
// the portal's API; Ctrl+S. Against the emulator's request log and record state: every other changed row
// got exactly one PUT, and each record now holds what it held before plus only the fields changed in the
// grid; the rows were checked against one read of the grid's view (five changed rows of eight), not a GET
// each; the row someone else changed is held back and shown; Keep Mine sends it with one PUT, and the
// other user's field stays.
import * as assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { changeRecordAsAnotherUser, eventually, recordState, requestMark, requestsSince, type RecordState } from './support/emulator';
import { panelFrame } from './support/panels';
import { clickRowAction, collapseTree, showView } from './support/tree';
import { closeAllEditors, freshStart, notification, tabLabels } from './support/workbench';
import { page, screenshots } from './support/world';

const ORDERS = ['Demo portal', 'Operations', 'Orders'];
const APP = '102';
/** The grid's columns (0 is the record column) of view 3 and their field ids, as the seed has them. */
const COLUMN = { title: 2, customerId: 3, quantity: 9 } as const;
/** What is typed and pasted, by record id: the fields each record must change, and nothing else. */
const TYPED: Record<string, Record<string, string>> = { '1': { f11: 'Ergonomic chairs', f18: '14' }, '2': { f11: 'Sit-stand desks' } };
const PASTED: Record<string, Record<string, string>> = {
  '3': { f11: 'Toner cartridges', f12: '2' },
  '4': { f11: 'Hampers', f12: '6' },
  '5': { f11: 'Rack 42U', f12: '3' },
};
const PASTE_TEXT = 'Toner cartridges\t2\nHampers\t6\nRack 42U\t3\n';
/** The other user's change, to a field nobody touched in the grid. */
const THEIRS = { f18: '99' };

/** LookUp columns: the portal fills them from the linked customer, so a new Customer id changes them too. */
const LOOKUPS = ['f13', 'f14'];
const withoutLookups = (data: Record<string, string> | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(data ?? {}).filter(([key]) => !LOOKUPS.includes(key)));

const isPut = (request: { method: string }): boolean => request.method === 'PUT';
const recordOfPath = (path: string): string => /\/record\/(\d+)$/.exec(path)?.[1] ?? path;

/** Clicks the cell (row, column) of the grid, F2, its text replaced by `text`, Enter: the keys go into the frame. */
async function typeIntoCell(grid: Frame, row: number, column: number, text: string): Promise<void> {
  await grid.locator(`#grid-${row}-${column}`).click();
  await page().keyboard.press('F2');
  await grid.locator('.cell-editor').waitFor();
  await page().keyboard.press('Control+A');
  await page().keyboard.type(text);
  await page().keyboard.press('Enter');
  await grid.locator('.cell-editor').waitFor({ state: 'detached' });
  await grid.locator(`#grid-${row}-${column}.pending`).waitFor();
}

describe('Journey (l): a view as an editable grid', function () {
  this.timeout(240_000);

  before(async () => {
    await freshStart();
  });

  after(() => closeAllEditors());

  it('one click opens the grid; three cells of two rows typed, a 3 × 2 block pasted; Ctrl+S saves the others with one PUT each of only their fields; the conflict is held back and Keep Mine sends mine', async () => {
    const shot = screenshots('l-grid');
    await collapseTree();
    const view = await showView(ORDERS, '3', { expand: false });
    const before = new Map<string, RecordState>();
    for (const id of ['1', '2', '3', '4', '5']) before.set(id, await recordState(APP, id));

    // One click on the table icon of the view's row (an inline action: it shows on the row under the pointer).
    await clickRowAction(view, 'Open View as Grid');
    const grid = await panelFrame('View 3');
    await grid.locator('#grid-0-1').waitFor();
    assert.ok(
      (await tabLabels()).some((label) => /View 3 — Orders/.test(label)),
      `the tab is titled by the view and the app: ${JSON.stringify(await tabLabels())}`,
    );
    assert.match((await grid.locator('#grid-counts').textContent()) ?? '', /^8 rows/, 'a view opened from the tree shows all its rows');
    await shot('grid open');

    // Three cells of two rows: Title and Quantity of record 1, Title of record 2.
    await typeIntoCell(grid, 0, COLUMN.title, TYPED['1'].f11);
    await typeIntoCell(grid, 0, COLUMN.quantity, TYPED['1'].f18);
    await typeIntoCell(grid, 1, COLUMN.title, TYPED['2'].f11);
    await page().locator('.part.editor .tabs-container .tab.dirty').waitFor();
    await shot('three cells typed');

    // A 3 × 2 block (Title, Customer id of records 3 to 5) copied from a spreadsheet: TSV on the clipboard.
    await page().evaluate(
      (text) =>
        (globalThis as unknown as { navigator: { clipboard: { writeText(text: string): Promise<void> } } }).navigator.clipboard.writeText(
          text,
        ),
      PASTE_TEXT,
    );
    await grid.locator(`#grid-2-${COLUMN.title}`).click();
    await page().keyboard.press('Control+V');
    await grid.locator(`#grid-4-${COLUMN.customerId}.pending`).waitFor();
    assert.equal(await grid.locator('.grid-cell.pending').count(), 9, 'nine pending cells: three typed, six pasted');
    assert.deepEqual(await grid.locator(`#grid-3-${COLUMN.title}, #grid-3-${COLUMN.customerId}`).allTextContents(), ['Hampers', '6']);
    await shot('block pasted');

    // Someone else changes record 2 (one of the rows edited) in the portal.
    await changeRecordAsAnotherUser(APP, '2', THEIRS);
    const theirs = await recordState(APP, '2');

    let mark = await requestMark();
    await grid.locator(`#grid-0-${COLUMN.title}`).click();
    await page().keyboard.press('Control+S');
    await notification(/Saved 4 rows of View 3; 1 held back because someone else changed/);
    await grid.locator('.row-conflict').waitFor();
    // The save is over: its progress (with its Cancel) goes, not left on screen beside the outcome. VS Code
    // keeps a progress notification up for at least 800 ms, so the screenshots after were taken beside it.
    await page()
      .locator('.notifications-toasts .notification-list-item-message', { hasText: /^Saving 5 changed rows/ })
      .waitFor({ state: 'detached', timeout: 15_000 });
    await shot('saved with one conflict');
    const saveLog = await requestsSince(mark);
    const puts = saveLog.filter(isPut);
    assert.deepEqual(
      puts.map((request) => `${recordOfPath(request.path)} ${request.status}`).sort(),
      ['1 200', '3 200', '4 200', '5 200'],
      'one PUT for each row saved, none for the row someone else changed',
    );
    // Five changed rows of eight: checked against one read of the grid's view, answered before any update, not a GET each.
    const viewRead = saveLog.findIndex((request) => request.method === 'GET' && request.path === `/api/v1/app/${APP}/view/3`);
    assert.ok(viewRead >= 0 && viewRead < saveLog.findIndex(isPut), 'one read of the view before the updates');
    assert.deepEqual(
      saveLog.filter((request) => request.method === 'GET' && request.path.includes('/record/')).map((request) => request.path),
      [],
      'no GET per row',
    );
    for (const [id, fields] of Object.entries({ '1': TYPED['1'], ...PASTED })) {
      const after = await recordState(APP, id);
      assert.deepEqual(
        withoutLookups(after.data),
        withoutLookups({ ...before.get(id)?.data, ...fields }),
        `record ${id} holds its data as before plus only the fields changed in the grid`,
      );
    }
    assert.deepEqual((await recordState(APP, '2')).data, theirs.data, 'nothing was sent for the record held back');
    assert.equal(await page().locator('.part.editor .tabs-container .tab.dirty').count(), 1, 'the held-back row keeps the tab dirty');

    // The conflict, shown on its row: Keep Mine.
    await grid.locator(`#grid-1-${COLUMN.title}`).click();
    const line = grid.locator('#grid-row');
    await line.getByText(/Someone else changed this record since it was read \(Quantity\)/).waitFor();
    await shot('conflict shown');
    mark = await requestMark();
    await grid.locator('#grid-keep-mine').click();
    await page().locator('.part.editor .tabs-container .tab.dirty').waitFor({ state: 'detached' });
    const kept = await eventually(
      () => recordState(APP, '2'),
      (state) => state.data.f11 === TYPED['2'].f11,
      'my title reaches the portal',
    );
    await shot('kept mine');
    const keepPuts = (await requestsSince(mark)).filter(isPut);
    assert.deepEqual(
      keepPuts.map((request) => `${recordOfPath(request.path)} ${request.status}`),
      ['2 200'],
      'one PUT, for the record resolved',
    );
    assert.deepEqual(
      withoutLookups(kept.data),
      withoutLookups({ ...before.get('2')?.data, ...THEIRS, ...TYPED['2'] }),
      "the other user's field is kept beside mine",
    );
    assert.equal(await grid.locator('.row-conflict, .grid-cell.pending').count(), 0, 'nothing left pending in the grid');
  });
});
