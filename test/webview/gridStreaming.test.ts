// The view grid's page while the rows arrive (issue 19), in headless Chromium: the host's messages are fed
// to it batch by batch, as the custom editor sends them while it reads the view. The first rows show (and
// can be edited) before the rest; "Loading… N rows" with Cancel; Add Row waits; an answer that broke off
// keeps the rows read, says how many, marks the grid partial and offers Retry.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { HostToGridMessage } from '../../src/grid/protocol';
import { ORDERS } from '../emulator/seed';
import { GridHost } from './support/gridHost';
import { usePanelEnvironment } from './support/suite';

/** The toolkit's buttons are custom elements: their own `disabled` says whether they are off. */
async function isOff(page: Page, selector: string): Promise<boolean> {
  return page.locator(selector).evaluate((element) => (element as unknown as { disabled: boolean }).disabled);
}

describe('the view grid while its rows arrive (webview)', function () {
  const environment = usePanelEnvironment();
  let host: GridHost | undefined;

  afterEach(async () => {
    if (host) assert.deepEqual(host.panel.pageErrors, [], 'no script errors on the page');
    await host?.close();
    host = undefined;
  });

  /** The grid of All orders, then started over by the host with its first `first` rows only, loading. */
  async function openLoading(first: number): Promise<{ grid: GridHost; rows: string[][] }> {
    const grid = await GridHost.open(environment().browser, environment().server, environment().client, { appId: ORDERS, viewId: '3' });
    host = grid;
    await grid.panel.page.waitForSelector('#grid-0-1');
    const rows = grid.model.initialRows();
    const init: HostToGridMessage = {
      type: 'grid/init',
      viewName: 'All orders',
      appName: 'Orders',
      portalLabel: 'Demo portal',
      columns: [...grid.model.columns],
      rows: rows.slice(0, first),
      newRows: 'record',
      filterColumns: [],
      filters: [],
      load: { state: 'loading', count: first },
    };
    await grid.send(init);
    return { grid, rows };
  }

  it('shows the first batch with "Loading… N rows" and Cancel, grows with each batch, and edits what has arrived', async () => {
    const { grid, rows } = await openLoading(3);
    const page = grid.panel.page;
    await page.waitForSelector('#grid-2-1');
    assert.equal(await page.locator('#grid-3-1').count(), 0, 'only the rows that arrived');
    assert.match((await page.locator('#grid-counts').textContent()) ?? '', /^Loading… 3 rows/);
    assert.equal(await page.locator('#grid-cancel-load').isVisible(), true);
    assert.equal(await isOff(page, '#grid-add-row'), true, 'a new row goes last: it waits for the rest');

    await grid.send({ type: 'grid/append', rows: rows.slice(3, 6) });
    await grid.send({ type: 'grid/load', load: { state: 'loading', count: 6 } });
    await page.waitForSelector('#grid-5-1');
    assert.match((await page.locator('#grid-counts').textContent()) ?? '', /^Loading… 6 rows/);
    assert.equal(
      await page.locator('#grid-1-2').textContent(),
      grid.model.changeSet.value(rows[1][0], 'f11'),
      'the rows in the order they came',
    );

    // A row that arrived is edited while the rest is still coming.
    await page.locator('.data-grid').focus();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.type('Early edit');
    await page.keyboard.press('Enter');
    await grid.settled();
    assert.equal(grid.model.changeSet.value(rows[0][0], 'f11'), 'Early edit');
    await page.waitForSelector('#grid-0-2.pending');
    assert.match((await page.locator('#grid-counts').textContent()) ?? '', /^Loading… 6 rows · 1 changed/);
    await grid.panel.screenshot('grid-streaming-loading');

    await page.click('#grid-cancel-load');
    await grid.panel.waitForPost('grid/cancelLoad');

    await grid.send({ type: 'grid/append', rows: rows.slice(6) });
    await grid.send({ type: 'grid/load', load: { state: 'done', count: rows.length } });
    await page.waitForSelector(`#grid-${rows.length - 1}-1`);
    assert.equal(await page.locator('#grid-cancel-load').isVisible(), false);
    assert.equal(await isOff(page, '#grid-add-row'), false);
    assert.match((await page.locator('#grid-counts').textContent()) ?? '', new RegExp(`^${rows.length} rows · 1 changed`));
  });

  it("shows the row a reference's Open as Grid names: at once when it is there, else when it arrives", async () => {
    const { grid, rows } = await openLoading(3);
    const page = grid.panel.page;
    await page.waitForSelector('#grid-2-1');
    const active = (): Promise<string | null> => page.locator('.data-grid').getAttribute('aria-activedescendant');

    await grid.send({ type: 'grid/reveal', recordId: rows[2][0] });
    await page.locator('.data-grid[aria-activedescendant^="grid-2-"]').waitFor();
    assert.match((await active()) ?? '', /^grid-2-/, 'the row there is the active one');

    const later = rows.length - 1;
    await grid.send({ type: 'grid/reveal', recordId: rows[later][0] });
    assert.match((await active()) ?? '', /^grid-2-/, 'a row not read yet moves nothing');
    await grid.send({ type: 'grid/append', rows: rows.slice(3) });
    await page.locator(`.data-grid[aria-activedescendant^="grid-${later}-"]`).waitFor();
    assert.ok(await page.locator(`#grid-${later}-1`).isVisible(), 'the row arrived and is scrolled into view');
  });

  it('keeps the rows read when the answer breaks off: says how many, marks the grid partial, and offers Retry', async () => {
    const { grid } = await openLoading(4);
    const page = grid.panel.page;
    await page.waitForSelector('#grid-3-1');
    await grid.send({
      type: 'grid/load',
      load: { state: 'partial', count: 4, message: 'The connection to the portal broke off. Only 4 rows were read before it broke off.' },
    });
    await page.waitForSelector('#grid-notice:not([hidden])');
    assert.match(
      (await page.locator('#grid-notice').textContent()) ?? '',
      /^Partial: The connection to the portal broke off\. Only 4 rows were read/,
    );
    assert.match((await page.locator('#grid-counts').textContent()) ?? '', /^4 rows \(partial\)/);
    assert.equal(await page.locator('#grid-counts').getAttribute('data-partial'), '');
    assert.equal(await page.locator('#grid-3-1').count(), 1, 'the rows read stay');
    assert.equal(await page.locator('#grid-cancel-load').isVisible(), false);
    await grid.panel.screenshot('grid-streaming-partial');

    // Another notice takes the bar: Retry stays, and the count still says partial.
    await grid.send({ type: 'grid/notice', level: 'error', message: 'The filters could not be run.' });
    assert.match((await page.locator('#grid-notice').textContent()) ?? '', /^The filters could not be run\./);
    assert.equal(await page.locator('#grid-retry').count(), 1);
    assert.match((await page.locator('#grid-counts').textContent()) ?? '', /^4 rows \(partial\)/);

    await page.click('#grid-retry');
    await grid.panel.waitForPost('grid/retry');
  });
});
