// The view query panel, built, in headless Chromium with the real host session over the emulator: filter
// rows and the parameters they become, the virtualized grid and its keyboard, sorting, values as text,
// the theme and the CSP.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { QueryRunMessage } from '../../src/shared/protocol';
import { configure, emulatorControl, injectFault, resetEmulator } from '../support/emulator';
import { choose } from './support/actions';
import { THEMES, type PageDocument, type PageGlobals } from './support/panelPage';
import { QueryHost } from './support/queryHost';
import { usePanelEnvironment } from './support/suite';

/** In functions run in the page. */
declare const document: PageDocument;
declare const requestAnimationFrame: (callback: () => void) => number;

const TICKETS = 2000;

async function rowCount(page: Page): Promise<string> {
  return (await page.locator('#row-count').textContent()) ?? '';
}

async function waitForRows(page: Page, text: RegExp): Promise<void> {
  await page.waitForFunction((pattern) => new RegExp(pattern).test(document.querySelector('#row-count')?.textContent ?? ''), text.source, {
    timeout: 20_000,
  });
}

interface RequestLogEntry {
  method: string;
  path: string;
  query: string;
}

describe('the view query panel (webview)', function () {
  const environment = usePanelEnvironment({ bigViewRecords: TICKETS });
  let host: QueryHost | undefined;

  afterEach(async () => {
    if (host) assert.deepEqual(host.panel.pageErrors, [], 'no script errors on the page');
    await host?.close();
    host = undefined;
  });

  async function open(viewId: string, appId = '201', options: Partial<Parameters<typeof QueryHost.open>[3]> = {}): Promise<QueryHost> {
    host = await QueryHost.open(environment().browser, environment().server, environment().client, { appId, viewId, ...options });
    return host;
  }

  async function requestsSince(seq: number): Promise<RequestLogEntry[]> {
    return emulatorControl<RequestLogEntry[]>(environment().emulator, 'GET', `requests?since=${seq}`);
  }

  async function lastSeq(): Promise<number> {
    const all = await emulatorControl<Array<{ seq: number }>>(environment().emulator, 'GET', 'requests');
    return all.length > 0 ? all[all.length - 1].seq : 0;
  }

  it('screenshots in light, dark and high contrast', async () => {
    for (const theme of THEMES) {
      const { panel } = await open('6', '201', { theme, viewport: { width: 1100, height: 560 }, viewName: 'All tickets' });
      await panel.page.click('#add-filter');
      await choose(panel.page.locator('.filter-column').first(), 'State');
      await choose(panel.page.locator('.filter-value vscode-dropdown').first(), 'Open');
      await panel.page.click('#run');
      await waitForRows(panel.page, /^[\d,]+ rows$/);
      await panel.page.locator('.data-grid').focus();
      await panel.page.keyboard.press('ArrowDown');
      await panel.page.keyboard.press('ArrowDown');
      await panel.page.keyboard.press('ArrowRight');
      await panel.screenshot(`viewQuery-${theme}`);
      assert.deepEqual(await panel.cspViolations(), [], `no CSP violation in ${theme}`);
      await host?.close();
      host = undefined;
    }
  });

  it('offers only the operators that fit the column, and no value for "is empty"', async () => {
    const { panel } = await open('6');
    const page = panel.page;
    await page.click('#add-filter');
    const operators = async (): Promise<string[]> =>
      (await page.locator('.filter-operator vscode-option').allTextContents()).map((text) => text.trim());
    await choose(page.locator('.filter-column').first(), 'Subject');
    assert.deepEqual(await operators(), ['contains', 'does not contain', 'equals', 'does not equal', 'is empty', 'is not empty']);
    await choose(page.locator('.filter-column').first(), 'Due');
    assert.deepEqual(await operators(), [
      'equals',
      'does not equal',
      'less than',
      'less than or equal to',
      'greater than',
      'greater than or equal to',
      'is empty',
      'is not empty',
    ]);
    assert.equal(await page.locator('.filter-value vscode-text-field').count(), 1, 'a value input for "equals"');
    await choose(page.locator('.filter-operator').first(), 'is empty');
    assert.equal(
      await page.locator('.filter-value vscode-text-field, .filter-value vscode-dropdown').count(),
      0,
      'no value input for "is empty"',
    );
    await choose(page.locator('.filter-column').first(), 'Priority');
    assert.deepEqual(await operators(), ['equals', 'does not equal', 'contains', 'does not contain', 'is empty', 'is not empty']);
  });

  it('encodes filter rows into the four parameters the portal reads', async () => {
    const { panel } = await open('8', '201', { viewName: 'Tickets with customer tier' });
    const page = panel.page;
    // A first run shows the Lookup app's columns (Tier of Customers, app 101) in the builder.
    await page.click('#run');
    await waitForRows(page, /^[\d,]+ rows$/);
    await page.click('#add-filter');
    await choose(page.locator('.filter-column').nth(0), 'Due');
    await choose(page.locator('.filter-operator').nth(0), 'greater than');
    await page.locator('.filter-value input').nth(0).fill('01-06-2025');
    await page.click('#add-filter');
    await choose(page.locator('.filter-column').nth(1), 'Tier (app 101)');
    assert.equal(
      await page.locator('.filter-row').nth(1).locator('.filter-lookup input').inputValue(),
      '101',
      'the lookup app is filled in',
    );
    await choose(page.locator('.filter-value vscode-dropdown').nth(0), 'Gold');
    await page.click('#add-filter');
    await choose(page.locator('.filter-column').nth(2), 'Assignee');
    await choose(page.locator('.filter-operator').nth(2), 'is not empty');
    const since = await lastSeq();
    const posted = (await panel.postedCount()) - 1;
    await page.click('#run');
    const run = (await panel.waitForPost('query/run', posted)) as unknown as QueryRunMessage;
    assert.deepEqual(run.filters, [
      { column: '37', operator: 'greaterThan', value: '01-06-2025' },
      { column: '6', operator: 'equals', value: '3', lookupApp: '101' },
      { column: '40', operator: 'notEmpty' },
    ]);
    await waitForRows(page, /^[\d,]+ rows?$/);
    const view = (await requestsSince(since)).find((entry) => entry.path === '/api/v1/app/201/view/8');
    assert.ok(view, 'the view was read');
    const query = new URLSearchParams(view.query);
    assert.equal(query.get('filter_columns'), '37|6|40');
    assert.equal(query.get('filter_operators'), '8|2|5');
    assert.equal(query.get('filter_values'), '01-06-2025|3|');
    assert.equal(query.get('filter_apps'), '|101|');
    // Every row shown matches: Tier is Gold.
    const tiers = await page.locator('.grid-body .grid-row .grid-cell:nth-child(5)').allTextContents();
    assert.ok(tiers.length > 0, 'some rows');
    assert.ok(
      tiers.every((tier) => tier === 'Gold' || tier === '3'),
      `only Gold customers: ${[...new Set(tiers)].join(', ')}`,
    );
  });

  it('shows a saved Lookup-app filter run in a new panel as the filter it sends, and sends it again unchanged', async () => {
    // A saved query run from the tree: the page has only the app's own columns until a run has read the view.
    const saved = [{ column: '6', operator: 'equals' as const, value: '3', lookupApp: '101' }];
    const { panel } = await open('8', '201', {
      viewName: 'Tickets with customer tier',
      init: { run: { name: 'Gold customers', filters: saved } },
    });
    const page = panel.page;
    await waitForRows(page, /^[\d,]+ rows?$/);
    await page.locator('.filter-row').first().waitFor();
    assert.equal(await page.locator('.filter-row').count(), 1, 'one filter row');
    const label = async (): Promise<string> =>
      ((await page.locator('.filter-row').first().locator('.filter-column .selected-value').textContent()) ?? '').trim();
    // Every message of the run delivered (the Lookup apps' columns come last), then painted by the toolkit.
    await host?.settled();
    await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
    assert.match(await label(), /app 101/, "the row names the Lookup app's column it filters on, not the first column");
    const posted = (await panel.postedCount()) - 1;
    await page.click('#run');
    const run = (await panel.waitForPost('query/run', posted)) as unknown as QueryRunMessage;
    assert.deepEqual(run.filters, saved, 'the second Run sends the filter the saved query sent');
  });

  it('sends the operator it shows after the column changes from a numeric one to a text one', async () => {
    const { panel } = await open('6');
    const page = panel.page;
    await page.click('#add-filter');
    await choose(page.locator('.filter-column').first(), 'Subject');
    await choose(page.locator('.filter-operator').first(), 'contains');
    await page.locator('.filter-value input').first().fill('printer');
    const since = await lastSeq();
    await page.click('#run');
    await waitForRows(page, /^[\d,]+ rows?$/);
    assert.equal(
      (await page.locator('.filter-operator').first().locator('.selected-value').textContent())?.trim(),
      'contains',
      'the panel shows "contains"',
    );
    const view = (await requestsSince(since)).find((entry) => entry.path === '/api/v1/app/201/view/6');
    assert.ok(view, 'the view was read');
    assert.equal(new URLSearchParams(view.query).get('filter_operators'), '0', 'sent as contains (0)');
    assert.notEqual(await rowCount(page), '0 rows');
  });

  it('refuses a value the column cannot compare, next to the filter, before sending', async () => {
    const { panel } = await open('6');
    const page = panel.page;
    await page.click('#add-filter');
    await choose(page.locator('.filter-column').first(), 'Cost');
    await choose(page.locator('.filter-operator').first(), 'less than');
    await page.locator('.filter-value input').first().fill('$12');
    const before = await panel.postedCount();
    await page.click('#run');
    assert.match((await page.locator('.filter-error').first().textContent()) ?? '', /expected an amount/);
    assert.equal((await panel.posted()).slice(before).filter((message) => message.type === 'query/run').length, 0, 'nothing sent');
  });

  it('shows "Loading… N rows" with Cancel while rows arrive; Cancel keeps them, marked partial', async () => {
    await configure(environment().emulator, { bytesPerSecond: 60_000 }); // 2,000 rows (~520 KB) in about 9 s
    try {
      const { panel } = await open('6', '201', { viewport: { width: 1100, height: 560 }, viewName: 'All tickets' });
      const page = panel.page;
      await page.click('#run');
      await waitForRows(page, /^Loading… [\d,]+ rows so far$/);
      await page.locator('.grid-body [role="row"]').nth(5).waitFor();
      assert.equal(await page.locator('#cancel-run').isVisible(), true, 'Cancel is offered while loading');
      await panel.screenshot('viewQuery-loading');
      await page.click('#cancel-run');
      await waitForRows(page, /^[\d,]+ rows \(partial\)$/);
      const count = Number((await rowCount(page)).replace(/[^\d]/g, ''));
      assert.ok(count > 0 && count < TICKETS, `${count} rows kept`);
      assert.equal(await page.locator('#cancel-run').isVisible(), false);
      assert.match((await page.locator('#query-message').textContent()) ?? '', /Partial result: Cancelled after [\d,]+ rows/);
      assert.ok((await page.locator('.grid-body [role="row"]').count()) > 5, 'the rows read stay visible');
      assert.equal(
        await page.locator('#export-csv').evaluate((element) => (element as unknown as { disabled: boolean }).disabled),
        false,
        'what arrived can be exported',
      );
      await panel.screenshot('viewQuery-cancelled');
    } finally {
      await resetEmulator(environment().emulator);
    }
  });

  it('keeps sorting and export off while rows arrive, and turns them on once all are in', async () => {
    await configure(environment().emulator, { bytesPerSecond: 80_000 }); // 2,000 rows (~520 KB) in about 6 s
    try {
      const { panel } = await open('6', '201', { viewport: { width: 1100, height: 560 }, viewName: 'All tickets' });
      const page = panel.page;
      await page.click('#run');
      await waitForRows(page, /^Loading… [\d,]+ rows so far$/);
      const buttons = ['#export-csv', '#export-json', '#bulk-set-field', '#bulk-delete'];
      // The toolkit's buttons are custom elements: their own `disabled` says whether they are off.
      const off = (selector: string): Promise<boolean> =>
        page.locator(selector).evaluate((element) => (element as unknown as { disabled: boolean }).disabled);
      for (const button of buttons) assert.equal(await off(button), true, `${button} is off while loading`);
      const header = page.locator('.grid-columnheader', { hasText: 'Cost' });
      assert.equal(await header.getAttribute('aria-sort'), null, 'a header offers no sort while loading');
      const before = (await panel.posted()).length;
      await header.click();
      await page.keyboard.press('Enter'); // the header is the active cell: Enter sorts, when sorting is on
      assert.match(await rowCount(page), /^Loading…/, 'still loading: the clicks were while rows arrived');
      assert.deepEqual(
        (await panel.posted()).slice(before).filter((message) => message.type === 'query/sort' || message.type === 'query/export'),
        [],
        'no sort asked for while loading',
      );
      await panel.screenshot('viewQuery-loading-no-sort');

      await waitForRows(page, new RegExp(`^${TICKETS.toLocaleString('en-US')} rows$`));
      for (const button of buttons) assert.equal(await off(button), false, `${button} is on once all rows are in`);
      assert.equal(await header.getAttribute('aria-sort'), 'none');
      await header.click();
      await page.waitForFunction(() => document.querySelector('.grid-columnheader[aria-sort="ascending"]') !== null);
      assert.equal((await panel.posted()).filter((message) => message.type === 'query/sort').length, 1);
    } finally {
      await resetEmulator(environment().emulator);
    }
  });

  it('keeps the rows read when the connection drops midway, and says how many', async () => {
    await injectFault(environment().emulator, { path: '/view/', drop_after_bytes: 200_000 });
    const { panel } = await open('6', '201', { viewport: { width: 1100, height: 560 }, viewName: 'All tickets' });
    const page = panel.page;
    await page.click('#run');
    await waitForRows(page, /^[\d,]+ rows \(partial\)$/);
    const message = (await page.locator('#query-message').textContent()) ?? '';
    assert.match(message, /Partial result: .*connection.* ([\d,]+) rows were read before it broke off/);
    assert.ok((await page.locator('.grid-body [role="row"]').count()) > 5, 'the rows read stay visible');
    await panel.screenshot('viewQuery-partial');
  });

  it('keeps at most a screenful of rows in the DOM while scrolling through all of them', async () => {
    const { panel } = await open('6', '201', { viewport: { width: 1200, height: 800 } });
    const page = panel.page;
    await page.click('#run');
    await waitForRows(page, new RegExp(`^${TICKETS.toLocaleString('en-US')} rows$`));
    assert.equal(await page.locator('.data-grid').getAttribute('aria-rowcount'), String(TICKETS + 1));
    let most = 0;
    for (const fraction of [0, 0.1, 0.33, 0.5, 0.9, 1]) {
      await page.evaluate((at) => {
        const scroller = document.querySelector('.data-grid');
        if (scroller) scroller.scrollTop = at * scroller.scrollHeight;
      }, fraction);
      await page.waitForTimeout(120);
      const rows = await page.locator('.grid-body [role="row"]').count();
      most = Math.max(most, rows);
      assert.ok(rows > 10, `rows are rendered at ${fraction} (${rows})`);
    }
    assert.ok(most <= 200, `at most 200 rows in the DOM (saw ${most})`);
    const last = await page.locator('.grid-body [role="row"]').last().getAttribute('aria-rowindex');
    assert.equal(last, String(TICKETS + 1), 'the last row is reachable');
    await page.waitForFunction(
      (id) => document.querySelector('.grid-body [aria-rowindex="' + id + '"] .grid-cell')?.textContent === String(id - 1),
      TICKETS + 1,
    );
  });

  it('moves with the keyboard and opens the row with Enter', async () => {
    const { panel } = await open('6', '201', { viewport: { width: 1200, height: 700 } });
    const page = panel.page;
    await page.click('#run');
    await waitForRows(page, /^[\d,]+ rows$/);
    const grid = page.locator('.data-grid');
    await grid.focus();
    const active = async (): Promise<{ id: string | null; text: string | null; row: string | null }> =>
      page.evaluate(() => {
        const id = document.querySelector('.data-grid')?.getAttribute('aria-activedescendant') ?? null;
        const cell = id ? document.getElementById(id) : null;
        return { id, text: cell?.textContent ?? null, row: cell?.parentElement?.getAttribute('aria-rowindex') ?? null };
      });
    assert.equal((await active()).row, '1', 'starts on the header row');
    await page.keyboard.press('ArrowDown');
    assert.deepEqual(await active(), { id: 'grid-0-0', text: '1', row: '2' });
    await page.keyboard.press('ArrowRight');
    assert.equal((await active()).text, '100001', 'the Ticket no. of record 1');
    await page.keyboard.press('PageDown');
    const afterPage = Number((await active()).row);
    assert.ok(afterPage > 10, `Page Down moves a screenful (row ${afterPage})`);
    await page.keyboard.press('Control+End');
    assert.equal((await active()).row, String(TICKETS + 1), 'Ctrl+End reaches the last row');
    await page.keyboard.press('Home');
    // The last rows come from the host when they come into sight.
    await page.waitForFunction((id) => {
      const activeId = document.querySelector('.data-grid')?.getAttribute('aria-activedescendant');
      return (activeId ? document.getElementById(activeId)?.textContent : '') === id;
    }, String(TICKETS));
    await page.keyboard.press('PageUp');
    assert.ok(Number((await active()).row) < TICKETS + 1);
    const before = await panel.postedCount();
    await page.keyboard.press('Control+Home');
    assert.equal((await active()).row, '2', 'Ctrl+Home goes back to the first row');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const opened = await panel.waitForPost('openRecord', before);
    assert.equal(opened.recordId, '2');
  });

  it('sorts the whole result by kind, on the header, and exports in that order', async () => {
    const { panel } = await open('6');
    const page = panel.page;
    await page.click('#run');
    await waitForRows(page, /^[\d,]+ rows$/);
    const header = page.locator('.grid-columnheader', { hasText: 'Cost' });
    const costs = async (): Promise<number[]> => {
      const index = await page
        .locator('.grid-columnheader')
        .evaluateAll((cells) => cells.findIndex((cell) => cell.textContent?.startsWith('Cost')));
      const texts = await page.locator(`.grid-body .grid-row .grid-cell:nth-child(${index + 1})`).allTextContents();
      return texts.filter((text) => text !== '').map(Number);
    };
    /** Waits for the rows in sight to arrive in the new order (they come from the host). */
    const sortedRows = async (direction: string): Promise<number[]> => {
      await page.waitForFunction((wanted) => document.querySelector('.grid-columnheader[aria-sort="' + wanted + '"]') !== null, direction);
      await page.waitForFunction(
        () => (document.querySelector('.grid-body .grid-row[aria-rowindex="2"] .grid-cell')?.textContent ?? '') !== '',
      );
      return costs();
    };
    await header.click();
    const ascending = await sortedRows('ascending');
    assert.ok(ascending.length > 5);
    assert.deepEqual(
      ascending,
      [...ascending].sort((a, b) => a - b),
      'numeric order, not text order',
    );
    await header.click();
    const descending = await sortedRows('descending');
    assert.deepEqual(
      descending,
      [...descending].sort((a, b) => b - a),
    );
    // The top rows are the highest costs of the whole result, not only of the rows that were in sight.
    const all = (await environment().client.readView('201', '6')).rows
      .map((row) => Number(row.values.f39))
      .filter((value) => !Number.isNaN(value) && value > 0);
    assert.equal(descending[0], Math.max(...all));
    assert.equal(await header.getAttribute('aria-sort'), 'descending');
    const before = await panel.postedCount();
    await page.click('#export-csv');
    assert.deepEqual(await panel.waitForPost('query/export', before), { type: 'query/export', format: 'csv' });
    assert.deepEqual([...(host?.session.order ?? [])].slice(0, 1).length, 1, 'the host keeps the order for the export');
  });

  it('says that date & time columns are shown in UTC, in their headers (a date column has no time to zone)', async () => {
    const { panel } = await open('6');
    const page = panel.page;
    await page.click('#run');
    await waitForRows(page, /^[\d,]+ rows$/);
    const headers = (await page.locator('.grid-columnheader').allTextContents()).map((text) => text.trim());
    assert.ok(headers.includes('Opened (UTC)'), `a date & time column says UTC: ${headers.join(', ')}`);
    assert.ok(headers.includes('Due'), 'a date column does not');
  });

  it('shows record values as text, never as markup', async () => {
    const hostile = ['<script>window.__xss = 1</script>', '<img src=x onerror="window.__xss = 2">'];
    const created = await environment().client.createRecord('101', { f2: hostile[0], f8: 'plain', f4: '555 0100' });
    await environment().client.createRecord('101', { f2: hostile[1] });
    assert.ok(created.id);
    const { panel } = await open('1', '101');
    const page = panel.page;
    await page.click('#run');
    await waitForRows(page, /^[\d,]+ rows$/);
    await page.locator('.data-grid').focus();
    await page.keyboard.press('Control+End');
    const names = await page.locator('.grid-body .grid-row .grid-cell:nth-child(3)').allTextContents();
    for (const value of hostile) assert.ok(names.includes(value), `"${value}" is shown as it is`);
    assert.equal(await page.locator('.data-grid img, .data-grid script').count(), 0, 'no element made from a value');
    assert.equal(await page.evaluate(() => (globalThis as unknown as PageGlobals & { __xss?: number }).__xss), undefined, 'nothing ran');
    assert.deepEqual(await panel.cspViolations(), []);
    assert.match(await rowCount(page), /rows$/);
  });
});
