// The view grid's page, built, in headless Chromium with the real grid model over the emulator: editing
// cells with the keyboard (type, F2, Enter, Esc, Tab, Delete), locked and invalid cells, a block pasted
// from the clipboard with Ctrl+V, cells copied with Ctrl+C, fill down, and the screenshot to look at.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { appRecords } from '../../src/records/store';
import { ORDERS } from '../emulator/seed';
import { injectFault, resetEmulator } from '../support/emulator';
import { choose } from './support/actions';
import { GridHost } from './support/gridHost';
import { usePanelEnvironment } from './support/suite';

/** Columns of view 3 (All orders) in the page: 0 is the record column. */
const COLUMN = { orderNo: 1, title: 2, customerId: 3, customer: 4, orderDate: 6, amount: 8, quantity: 9 } as const;

function cell(page: Page, row: number, column: number): ReturnType<Page['locator']> {
  return page.locator(`#grid-${row}-${column}`);
}

describe('the view grid (webview)', function () {
  const environment = usePanelEnvironment();
  let host: GridHost | undefined;

  afterEach(async () => {
    if (host) assert.deepEqual(host.panel.pageErrors, [], 'no script errors on the page');
    await host?.close();
    host = undefined;
  });

  async function open(theme?: 'light' | 'dark' | 'high-contrast', layout?: GridHost['layout']): Promise<GridHost> {
    host = await GridHost.open(environment().browser, environment().server, environment().client, {
      appId: ORDERS,
      viewId: '3',
      ...(theme ? { theme } : {}),
      ...(layout ? { layout } : {}),
    });
    await host.panel.page.waitForSelector('#grid-0-1');
    await host.panel.page.locator('.data-grid').focus();
    return host;
  }

  /** Moves the active cell from the header's first column to (row, column) with the arrow keys. */
  async function goTo(page: Page, row: number, column: number): Promise<void> {
    await page.keyboard.press('Control+Home');
    for (let at = 0; at < row; at += 1) await page.keyboard.press('ArrowDown');
    for (let at = 0; at < column; at += 1) await page.keyboard.press('ArrowRight');
  }

  /** F2 on (row, column), the editor's text replaced by `text`, Enter. */
  async function replaceIn(page: Page, row: number, column: number, text: string): Promise<void> {
    await goTo(page, row, column);
    await page.keyboard.press('F2');
    await page.keyboard.press('Control+A');
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
  }

  it('edits a cell by typing, marks it and its row, and moves down on Enter', async () => {
    const { panel, model } = await open();
    const page = panel.page;
    const recordId = model.layout([]).rowIds[0];
    await goTo(page, 0, COLUMN.title);
    await page.keyboard.type('Renamed order');
    await page.keyboard.press('Enter');
    await host?.settled();
    assert.equal(model.changeSet.value(recordId, 'f11'), 'Renamed order');
    await page.waitForSelector('#grid-0-2.pending');
    assert.equal(await cell(page, 0, COLUMN.title).textContent(), 'Renamed order');
    assert.match((await cell(page, 0, 0).textContent()) ?? '', /^● /);
    assert.equal(await page.locator('.data-grid').getAttribute('aria-activedescendant'), 'grid-1-2', 'Enter moved down');
    assert.match((await page.locator('#grid-counts').textContent()) ?? '', /1 changed/);
  });

  it('F2 opens the editor with the value; Escape leaves the cell as it was; Tab sets it and moves right', async () => {
    const { panel, model } = await open();
    const page = panel.page;
    const recordId = model.layout([]).rowIds[1];
    const before = model.changeSet.value(recordId, 'f18');
    await goTo(page, 1, COLUMN.quantity);
    await page.keyboard.press('F2');
    await page.waitForSelector('.cell-editor');
    await page.keyboard.type('77');
    await page.keyboard.press('Escape');
    await host?.settled();
    assert.equal(await page.locator('.cell-editor').count(), 0);
    assert.equal(model.changeSet.isPending(recordId, 'f18'), false, 'nothing changed on Escape');
    assert.equal(model.changeSet.value(recordId, 'f18'), before);
    await page.keyboard.press('F2');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('12');
    await page.keyboard.press('Tab');
    await host?.settled();
    assert.equal(model.changeSet.value(recordId, 'f18'), '12');
    assert.equal(await page.locator('.data-grid').getAttribute('aria-activedescendant'), `grid-1-${COLUMN.quantity + 1}`);
  });

  it('shows a locked column as locked and says why it cannot be edited', async () => {
    const { panel } = await open();
    const page = panel.page;
    assert.match((await page.locator('#grid-h-1').getAttribute('class')) ?? '', /\blocked\b/);
    assert.match((await page.locator('#grid-h-1').getAttribute('title')) ?? '', /read-only/);
    assert.equal(await cell(page, 0, COLUMN.orderNo).getAttribute('aria-readonly'), 'true');
    await goTo(page, 0, COLUMN.orderNo);
    await page.keyboard.press('F2');
    await page.waitForSelector('#grid-notice:not([hidden])');
    assert.match((await page.locator('#grid-notice').textContent()) ?? '', /read-only \(Auto Number\)/);
  });

  it('Enter on a LookUp cell opens the record it links to; an empty one says it links to no record', async () => {
    const { panel, model } = await open();
    const page = panel.page;
    const ids = model.layout([]).rowIds;
    assert.match((await cell(page, 3, COLUMN.customer).getAttribute('title')) ?? '', /Enter opens the record it links to/);
    await goTo(page, 3, COLUMN.customer);
    await page.keyboard.press('Enter');
    const posted = await panel.waitForPost('grid/openLinked');
    assert.deepEqual(posted, { type: 'grid/openLinked', recordId: ids[3], field: 'f13' });
    await host?.settled();
    // Record 4 (Gift baskets) belongs to customer 5, Hooli: that record of Customers (101) opens.
    assert.equal(await cell(page, 3, COLUMN.customer).textContent(), 'Hooli');
    assert.deepEqual(host?.opened, [{ appId: '101', recordId: '5' }]);
    assert.equal(await page.locator('.cell-editor').count(), 0, 'no editor on a LookUp cell');
    // An empty LookUp cell (record 8 links to no customer) says so.
    await goTo(page, 7, COLUMN.customer);
    await page.keyboard.press('F2');
    await page.waitForSelector('#grid-notice:not([hidden])');
    assert.match((await page.locator('#grid-notice').textContent()) ?? '', /empty: it links to no record/);
    assert.equal(host?.opened.length, 1);
  });

  it('marks an invalid cell with its message and blocks only its row', async () => {
    const { panel, model } = await open();
    const page = panel.page;
    const [first, second] = model.layout([]).rowIds;
    await replaceIn(page, 0, COLUMN.amount, 'lots');
    await replaceIn(page, 1, COLUMN.title, 'Fine');
    await host?.settled();
    await page.waitForSelector('#grid-0-8.invalid');
    assert.ok(model.changeSet.problem(first, 'f17'));
    assert.equal(await cell(page, 0, COLUMN.amount).getAttribute('title'), model.changeSet.problem(first, 'f17'));
    assert.deepEqual(
      model.changeSet.savableRows().map((row) => row.recordId),
      [second],
      'only the invalid row is blocked',
    );
    await goTo(page, 0, COLUMN.amount);
    assert.match((await page.locator('#grid-row').textContent()) ?? '', /cannot be saved until this is fixed/);
  });

  it('pastes a 3 × 2 block from the clipboard with Ctrl+V, copies cells with Ctrl+C, clears with Delete', async () => {
    const { panel, model } = await open();
    const page = panel.page;
    await panel.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const ids = model.layout([]).rowIds;
    await page.evaluate(
      (text) =>
        (globalThis as unknown as { navigator: { clipboard: { writeText(text: string): Promise<void> } } }).navigator.clipboard.writeText(
          text,
        ),
      'Alpha\t7\nBeta\t8\nGamma\t9\n',
    );
    await goTo(page, 2, COLUMN.title);
    await page.keyboard.press('Control+V');
    await host?.settled();
    assert.deepEqual(
      ids.slice(2, 5).map((id) => [model.changeSet.value(id, 'f11'), model.changeSet.value(id, 'f12')]),
      [
        ['Alpha', '7'],
        ['Beta', '8'],
        ['Gamma', '9'],
      ],
    );
    assert.equal(host?.stack.at(-1)?.label, 'Paste 3 × 2 cells');
    await page.waitForSelector('#grid-4-3.pending');

    // Select the pasted block with Shift+arrows and copy it: TSV that pastes back the same.
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowRight');
    assert.equal(await page.locator('.grid-cell.selected').count(), 6);
    await page.keyboard.press('Control+C');
    await host?.settled();
    assert.equal(host?.clipboard, 'Alpha\t7\r\nBeta\t8\r\nGamma\t9');

    // Fill down the first row's values, then undo it as VS Code's Ctrl+Z would.
    await page.keyboard.press('Control+D');
    await host?.settled();
    assert.equal(model.changeSet.value(ids[4], 'f11'), 'Alpha');
    await host?.undo();
    assert.equal(model.changeSet.value(ids[4], 'f11'), 'Gamma');

    await page.keyboard.press('Delete');
    await host?.settled();
    assert.equal(model.changeSet.value(ids[3], 'f12'), '');
    await panel.screenshot('grid-keyboard');
  });

  it('adds a row: marked new, its required cells invalid until filled; created as a record at save; undo takes it out', async () => {
    const { panel, model } = await open();
    const page = panel.page;
    await panel.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.locator('#grid-add-row').click();
    await page.waitForSelector('#grid-8-0.row-new');
    assert.equal(await cell(page, 8, 0).textContent(), '+ new');
    assert.match((await page.locator('#grid-counts').textContent()) ?? '', /^9 rows · 1 new/);
    assert.equal(
      await page.locator('.data-grid').getAttribute('aria-activedescendant'),
      `grid-8-${COLUMN.title}`,
      'the first editable cell of the new row is active',
    );
    for (const column of [COLUMN.title, COLUMN.orderDate, COLUMN.amount])
      assert.match((await cell(page, 8, column).getAttribute('class')) ?? '', /\binvalid\b/, `required column ${column} is marked`);
    assert.match((await cell(page, 8, COLUMN.title).getAttribute('title')) ?? '', /required/);
    assert.match((await page.locator('#grid-row').textContent()) ?? '', /This new row cannot be created until this is fixed/);

    // Undo takes it out (VS Code's Ctrl+Z), and Add Row brings another.
    await host?.undo();
    await page.waitForSelector('#grid-8-0', { state: 'detached' });
    assert.match((await page.locator('#grid-counts').textContent()) ?? '', /^8 rows$/);
    await page.locator('#grid-add-row').click();
    await page.waitForSelector('#grid-8-0.row-new');

    await page.keyboard.type('Plants for the lobby');
    await page.keyboard.press('Enter');
    await page.evaluate(
      (text) =>
        (globalThis as unknown as { navigator: { clipboard: { writeText(text: string): Promise<void> } } }).navigator.clipboard.writeText(
          text,
        ),
      '03-03-2026',
    );
    await cell(page, 8, COLUMN.orderDate).click();
    await page.keyboard.press('Control+V');
    await replaceIn(page, 8, COLUMN.amount, '120.50');
    await host?.settled();
    await page.waitForSelector(`#grid-8-${COLUMN.amount}.pending`);
    assert.equal(await page.locator('#grid-8-0.row-invalid').count(), 0, 'every required cell filled');
    assert.equal(await cell(page, 8, COLUMN.amount).textContent(), '€120.50', 'the currency symbol is shown');
    await panel.screenshot('grid-new-row');

    const summary = await host?.save(appRecords(environment().client, ORDERS, { draft: true }));
    assert.equal(summary?.created, 1);
    const created = model.layout([]).rowIds[8];
    assert.match(created, /^\d+$/, 'the row is its record now');
    await page.locator('#grid-8-0', { hasText: new RegExp(`^${created}$`) }).waitFor();
    assert.equal(await page.locator('#grid-8-0.row-new').count(), 0);
    assert.match((await page.locator('#grid-counts').textContent()) ?? '', /^9 rows$/);
    const record = await environment().client.readRecord(ORDERS, created);
    assert.deepEqual(
      [record.draft, record.data.f11, record.data.f15, record.data.f17],
      [true, 'Plants for the lobby', '03-03-2026', '120.50'],
    );
    await resetEmulator(environment().emulator);
  });

  it('a row taken out (undo of Add Row) leaves the marks of the other rows as they were', async () => {
    const { panel } = await open();
    const page = panel.page;
    await replaceIn(page, 0, COLUMN.title, 'Renamed order');
    await page.waitForSelector(`#grid-0-${COLUMN.title}.pending`);
    await replaceIn(page, 1, COLUMN.amount, 'lots');
    await page.waitForSelector(`#grid-1-${COLUMN.amount}.invalid`);
    await page.locator('#grid-add-row').click();
    await page.waitForSelector('#grid-8-0.row-new');
    await host?.undo();
    await page.waitForSelector('#grid-8-0', { state: 'detached' });
    assert.equal(await page.locator(`#grid-0-${COLUMN.title}.pending`).count(), 1, 'row 1 keeps its pending mark');
    assert.equal(await page.locator(`#grid-1-${COLUMN.amount}.invalid`).count(), 1, 'row 2 keeps its invalid mark');
    assert.match((await page.locator('#grid-counts').textContent()) ?? '', /^8 rows · 2 changed · 1 with an invalid cell$/);
  });

  /** The header's texts, in the order shown (the locked mark ⊘ is CSS, not text). */
  const headers = (page: Page): Promise<string[]> => page.locator('.grid-header .grid-columnheader').allTextContents();
  /** Left edges of a header cell and of the first row's cell below it, on screen. */
  async function lefts(page: Page, column: number): Promise<[number, number]> {
    const head = await page.locator(`#grid-h-${column}`).boundingBox();
    const body = await cell(page, 0, column).boundingBox();
    return [Math.round(head?.x ?? -1), Math.round(body?.x ?? -2)];
  }

  it('frozen columns keep their headers above them while the grid scrolls across', async () => {
    const { panel } = await open(undefined, { order: [], hidden: [], frozen: 2 });
    const page = panel.page;
    for (const column of [0, 1, 2])
      assert.match((await page.locator(`#grid-h-${column}`).getAttribute('class')) ?? '', /\bfrozen\b/, `header ${column} is frozen`);
    assert.doesNotMatch((await page.locator('#grid-h-3').getAttribute('class')) ?? '', /\bfrozen\b/);
    await page.locator('.data-grid').evaluate((scroller) => {
      (scroller as unknown as { scrollLeft: number }).scrollLeft = 600;
    });
    await page.waitForFunction(
      () =>
        (globalThis as unknown as { document: { querySelector(selector: string): { scrollLeft: number } | null } }).document.querySelector(
          '.data-grid',
        )?.scrollLeft === 600,
    );
    for (const column of [0, 1, 2]) {
      const [head, body] = await lefts(page, column);
      assert.equal(head, body, `the header of frozen column ${column} stays above its cells`);
    }
    await panel.screenshot('grid-frozen-scrolled');
  });

  it('hides, reorders and freezes columns with the Columns panel; the layout is kept for the view and comes back', async () => {
    const { panel } = await open();
    const page = panel.page;
    await page.locator('#grid-columns').click();
    await page.getByRole('checkbox', { name: 'Show Customer email' }).uncheck();
    await page.locator('li[data-key="f17"]').getByTitle('Move Amount left').click();
    await page.locator('#grid-frozen').fill('3');
    await page.locator('#grid-frozen').press('Tab');
    await host?.settled();
    const shown = await headers(page);
    assert.equal(shown.includes('Customer email'), false, 'the hidden column is gone');
    assert.deepEqual(shown.slice(5, 8), ['Order date', 'Amount', 'Delivery'], 'Amount moved left of Delivery');
    assert.equal(await page.locator('.grid-columnheader.frozen').count(), 4, 'the record column and three view columns frozen');
    const kept = host?.layout;
    assert.ok(kept, 'the page asked the host to keep the layout');
    assert.deepEqual(kept.hidden, ['f14']);
    assert.equal(kept.frozen, 3);
    assert.deepEqual(kept.order.slice(5, 8), ['f15', 'f17', 'f16']);
    await host?.close();

    // The same view opened again: the host hands the layout back and the page shows it.
    const again = await open(undefined, kept);
    assert.deepEqual(await headers(again.panel.page), shown);
    assert.equal(await again.panel.page.locator('.grid-columnheader.frozen').count(), 4);
  });

  it('the filters above the grid read the view again; pending edits stay, and a pending row the filters leave out stays in sight, first', async () => {
    const { panel, model } = await open();
    const page = panel.page;
    assert.match((await page.locator('.filters-empty').textContent()) ?? '', /No filters/);
    await replaceIn(page, 1, COLUMN.title, 'Kept in sight');
    await host?.settled();
    await page.locator('#grid-add-filter').click();
    await choose(page.locator('.filter-column').first(), 'Quantity');
    await choose(page.locator('.filter-operator').first(), 'greater than');
    await page.locator('.filter-value input').first().fill('9');
    await page.locator('#grid-run').click();
    await page.locator('#grid-counts', { hasText: /^5 rows \(1 filter\) · 1 changed$/ }).waitFor();
    await host?.settled();
    assert.deepEqual(
      host?.filters,
      [{ column: '18', operator: 'greaterThan', value: '9' }],
      "the filter sent is the one shown, in the Query View's encoding",
    );
    // Quantities over 9: records 1, 3, 4 and 7; record 2 (6) has a pending edit and stays, first (pinned
    // from the read's first rows on).
    assert.deepEqual(model.layout([]).rowIds, ['2', '1', '3', '4', '7']);
    assert.deepEqual(await page.locator('.grid-body .grid-row .grid-cell:first-child').allTextContents(), ['● 2', '1', '3', '4', '7']);
    assert.equal(await cell(page, 0, COLUMN.title).textContent(), 'Kept in sight');
    assert.equal(await page.locator('.filter-row').count(), 1, 'the filter stays in the builder');
    await panel.screenshot('grid-filtered');
    // The undo history went on: Ctrl+Z takes the edit back.
    await host?.undo();
    assert.equal(model.changeSet.isDirty, false);
  });

  it('a filter run that fails says so beside the filters, and the counts line shows the rows it had again', async () => {
    const { panel } = await open();
    const page = panel.page;
    await replaceIn(page, 1, COLUMN.title, 'Kept');
    await page.waitForSelector(`#grid-1-${COLUMN.title}.pending`);
    await injectFault(environment().emulator, { method: 'GET', path: `^/api/v1/app/${ORDERS}/view/3`, status: 500, count: 1 });
    await page.locator('#grid-add-filter').click();
    await choose(page.locator('.filter-column').first(), 'Quantity');
    await choose(page.locator('.filter-operator').first(), 'greater than');
    await page.locator('.filter-value input').first().fill('9');
    await page.locator('#grid-run').click();
    await page.locator('#grid-notice', { hasText: /The filters could not be run/ }).waitFor();
    assert.equal(await page.locator('#grid-counts').textContent(), '8 rows · 1 changed');
  });

  it('a new row taken out by undo while it is being created comes back as the record created', async () => {
    const { panel, model } = await open();
    const page = panel.page;
    await page.locator('#grid-add-row').click();
    await page.waitForSelector('#grid-8-0.row-new');
    const recordId = model.layout([]).rowIds[8];
    const required = { f11: 'Plants for the lobby', f15: '03-03-2026', f17: '120.50' };
    const filled = model.history.edit(
      'edit',
      'Edit',
      Object.entries(required).map(([field, value]) => ({ recordId, field, value })),
    ).transaction;
    assert.ok(filled);
    host?.stack.push(filled);
    await host?.sendRows([recordId]);
    const real = appRecords(environment().client, ORDERS);
    await host?.save({
      ...real,
      create: async (fields) => {
        const created = await real.create(fields);
        // Ctrl+Z twice before the answer is back: the cells, then Add Row.
        await host?.undo();
        await host?.undo();
        await page.waitForSelector('#grid-8-0', { state: 'detached' });
        return created;
      },
    });
    const created = model.changeSet.resolve(recordId);
    assert.match(created, /^\d+$/);
    await page.locator('#grid-8-0', { hasText: new RegExp(`^${created}$`) }).waitFor();
    assert.equal(await cell(page, 8, COLUMN.title).textContent(), required.f11);
    assert.match((await page.locator('#grid-counts').textContent()) ?? '', /^9 rows$/);
    await resetEmulator(environment().emulator);
  });

  it('screenshots in light, dark and high contrast', async () => {
    for (const theme of ['light', 'dark', 'high-contrast'] as const) {
      const { panel } = await open(theme);
      const page = panel.page;
      await goTo(page, 1, COLUMN.title);
      await page.keyboard.type('Pending title');
      await page.keyboard.press('Enter');
      await replaceIn(page, 2, COLUMN.amount, '12,5x');
      await goTo(page, 3, COLUMN.orderDate);
      await page.keyboard.press('F2');
      await page.waitForSelector('.cell-editor');
      await panel.screenshot(`grid-${theme}`);
      assert.deepEqual(await panel.cspViolations(), [], `no CSP violation in ${theme}`);
      await host?.close();
      host = undefined;
    }
  });
});
