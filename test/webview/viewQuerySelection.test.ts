// The Query View's row selection for Set Field… and Delete Rows…, in headless Chromium with the real host
// session over the emulator: click, Ctrl+click, Shift+click, Shift+arrows, Space, Ctrl+A and Escape; rows
// marked aria-selected; the positions the page sends map, through the host's order, to the very records
// shown selected; a new sort starts a new selection.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { QueryBulkMessage } from '../../src/shared/protocol';
import { selectedRecordIds } from '../../src/webviews/viewQuery/selection';
import type { PageDocument } from './support/panelPage';
import { QueryHost } from './support/queryHost';
import { usePanelEnvironment } from './support/suite';

/** In functions run in the page. */
declare const document: PageDocument;

const TICKETS = 2000;

/** The record ids of the rendered rows marked selected, and whether every other rendered row says it is not. */
async function selectedShown(page: Page): Promise<{ ids: string[]; othersFalse: boolean }> {
  return page.locator('.grid-body .grid-row').evaluateAll((rows) => {
    const sorted = [...rows].sort((a, b) => Number(a.getAttribute('aria-rowindex')) - Number(b.getAttribute('aria-rowindex')));
    return {
      ids: sorted
        .filter((row) => row.getAttribute('aria-selected') === 'true')
        .map((row) => row.querySelector('.grid-cell')?.textContent ?? ''),
      othersFalse: sorted
        .filter((row) => row.getAttribute('aria-selected') !== 'true')
        .every((row) => row.getAttribute('aria-selected') === 'false'),
    };
  });
}

const row = (page: Page, position: number) => page.locator(`.grid-body .grid-row[aria-rowindex="${position + 2}"] .grid-cell`).first();

describe('the view query panel: rows selected for a bulk change (webview)', function () {
  const environment = usePanelEnvironment({ bigViewRecords: TICKETS });
  let host: QueryHost | undefined;

  afterEach(async () => {
    if (host) assert.deepEqual(host.panel.pageErrors, [], 'no script errors on the page');
    await host?.close();
    host = undefined;
  });

  /** The bulk message the page posts on `button`, and the record ids the host reads from it. */
  async function bulk(button: string): Promise<{ message: QueryBulkMessage; ids: string[] }> {
    if (!host) throw new Error('no panel');
    const before = await host.panel.postedCount();
    await host.panel.page.click(button);
    const message = (await host.panel.waitForPost('query/bulk', before)) as unknown as QueryBulkMessage;
    const result = host.session.result;
    if (!result) throw new Error('no result');
    const ids = message.rows ? selectedRecordIds(result.rows, host.session.order, message.rows) : [];
    return { message, ids };
  }

  it('selects with clicks and keys, marks the rows aria-selected, and sends the rows the host maps to those records', async () => {
    host = await QueryHost.open(environment().browser, environment().server, environment().client, {
      appId: '201',
      viewId: '6',
      viewport: { width: 1200, height: 700 },
    });
    const page = host.panel.page;
    await page.click('#run');
    await page.waitForFunction(() => /^[\d,]+ rows$/.test(document.querySelector('#row-count')?.textContent ?? ''), undefined, {
      timeout: 20_000,
    });
    assert.equal(await page.locator('.data-grid').getAttribute('aria-multiselectable'), 'true');
    assert.equal(await page.locator('#selected-rows').isVisible(), false, 'nothing selected at first');
    assert.match((await page.locator('#bulk-delete').getAttribute('title')) ?? '', /every row of the result/);

    await row(page, 0).click();
    assert.deepEqual((await selectedShown(page)).ids, ['1'], 'a click selects the row');
    await row(page, 2).click({ modifiers: ['Control'] });
    assert.deepEqual((await selectedShown(page)).ids, ['1', '3'], 'Ctrl+click adds a row');
    await row(page, 5).click({ modifiers: ['Shift'] });
    assert.deepEqual((await selectedShown(page)).ids, ['3', '4', '5', '6'], 'Shift+click selects from the last row clicked');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowDown');
    assert.deepEqual((await selectedShown(page)).ids, ['3', '4', '5', '6', '7', '8'], 'Shift+arrows extend it');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Space');
    for (let step = 0; step < 5; step += 1) await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Space');
    const shown = await selectedShown(page);
    assert.deepEqual(shown.ids, ['3', '5', '6', '7', '8', '9'], 'Space toggles the active row');
    assert.ok(shown.othersFalse, 'every other row says aria-selected="false"');
    assert.equal((await page.locator('#selected-rows').textContent())?.trim(), '6 selected');
    assert.match((await page.locator('#bulk-delete').getAttribute('title')) ?? '', /the 6 selected rows/);
    await host.panel.screenshot('viewQuery-selection');

    const deleted = await bulk('#bulk-delete');
    assert.deepEqual(deleted.ids, ['3', '5', '6', '7', '8', '9'], 'the host reads the records shown selected');
    assert.equal(deleted.message.change, 'delete');

    await page.locator('.data-grid').focus();
    await page.keyboard.press('Escape');
    assert.deepEqual((await selectedShown(page)).ids, [], 'Escape selects nothing');
    assert.equal((await bulk('#bulk-set-field')).message.rows, undefined, 'no selection: every row of the result');
    await page.locator('.data-grid').focus();
    await page.keyboard.press('Control+a');
    assert.equal((await page.locator('#selected-rows').textContent())?.trim(), `${TICKETS.toLocaleString('en-US')} selected`);
    assert.equal((await bulk('#bulk-set-field')).ids.length, TICKETS, 'Ctrl+A: every row, rows out of sight included');
  });

  it('a sort starts a new selection, and positions are read in the order shown', async () => {
    host = await QueryHost.open(environment().browser, environment().server, environment().client, {
      appId: '201',
      viewId: '6',
      viewport: { width: 1200, height: 700 },
    });
    const page = host.panel.page;
    await page.click('#run');
    await page.waitForFunction(() => /^[\d,]+ rows$/.test(document.querySelector('#row-count')?.textContent ?? ''), undefined, {
      timeout: 20_000,
    });
    await row(page, 1).click();
    await page.locator('.grid-columnheader', { hasText: 'Cost' }).click();
    await page.waitForFunction(() => document.querySelector('.grid-columnheader[aria-sort="ascending"]') !== null);
    await page.waitForFunction(
      () => (document.querySelector('.grid-body .grid-row[aria-rowindex="2"] .grid-cell')?.textContent ?? '') !== '',
    );
    assert.deepEqual((await selectedShown(page)).ids, [], 'the sort cleared the selection');
    await row(page, 0).click();
    await row(page, 3).click({ modifiers: ['Shift'] });
    const shown = (await selectedShown(page)).ids;
    assert.equal(shown.length, 4);
    assert.notDeepEqual(shown, ['1', '2', '3', '4'], "the sorted order differs from the portal's");
    assert.deepEqual((await bulk('#bulk-delete')).ids, shown, 'the host maps positions through its sorted order');
  });

  it('allows no selection while a sort is under way, and a bulk change names the order its rows were chosen in', async () => {
    host = await QueryHost.open(environment().browser, environment().server, environment().client, {
      appId: '201',
      viewId: '6',
      viewport: { width: 1200, height: 700 },
    });
    const page = host.panel.page;
    await page.click('#run');
    await page.waitForFunction(() => /^[\d,]+ rows$/.test(document.querySelector('#row-count')?.textContent ?? ''), undefined, {
      timeout: 20_000,
    });
    // The host sorts when the test lets it: until then the page shows the old order with the sort asked for.
    const session = host.session;
    const sort = session.sort.bind(session);
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let asked: () => void = () => undefined;
    const sortAsked = new Promise<void>((resolve) => (asked = resolve));
    session.sort = async (...args) => {
      asked();
      await released;
      return sort(...args);
    };
    await page.locator('.grid-columnheader', { hasText: 'Cost' }).click();
    await sortAsked;
    await row(page, 0).click();
    await row(page, 3).click({ modifiers: ['Shift'] });
    await page.keyboard.press('Control+a');
    assert.deepEqual((await selectedShown(page)).ids, [], 'no row can be selected in an order about to change');
    release();
    await page.waitForFunction(() => document.querySelector('.grid-columnheader[aria-sort="ascending"]') !== null);
    await page.waitForFunction(
      () => (document.querySelector('.grid-body .grid-row[aria-rowindex="2"] .grid-cell')?.textContent ?? '') !== '',
    );
    await row(page, 0).click();
    const { message } = await bulk('#bulk-delete');
    assert.equal(message.runId, 1, 'the run its rows were chosen in');
    assert.equal(message.sortVersion, 1, 'the order its rows were chosen in');
    assert.ok(message.rows);
    assert.throws(
      () => session.selectedRecordIds(message.runId, message.sortVersion - 1, message.rows ?? []),
      /The order changed: select the rows again/,
      'the host refuses positions read in another order',
    );
    assert.deepEqual(session.selectedRecordIds(message.runId, message.sortVersion, message.rows), (await selectedShown(page)).ids);
  });
});
