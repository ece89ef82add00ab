// The view grid's cell editors, one per column kind, driven with the keyboard in headless Chromium over the
// emulator (the real grid model behind the page): Enter opens the editor, choices show their colours, a
// date & time is entered in local time and sent in UTC, durations and users are converted as the form
// does, a multi-line text with broken HTML is marked, the currency symbol is shown and never sent,
// Shift+Tab sets and moves left, Copy as… writes each format; and the grid stays virtualized at 100,000 rows.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { checkValue } from '../../src/api/formats';
import { KNOWLEDGE_BASE, ORDERS, TICKETS, BIG_VIEW } from '../emulator/seed';
import { choose } from './support/actions';
import { GridHost } from './support/gridHost';
import type { OpenOptions } from './support/panelPage';
import { usePanelEnvironment, type PanelEnvironment } from './support/suite';

/** Columns of view 3 (All orders) in the page: 0 is the record column. */
const COLUMN = { title: 2, delivery: 7, amount: 8, quantity: 9, status: 10, tags: 11, handling: 12, owner: 13 } as const;

const cell = (page: Page, row: number, column: number): ReturnType<Page['locator']> => page.locator(`#grid-${row}-${column}`);

/** Moves the active cell to (row, column) with the keyboard, from the first cell. */
async function goTo(page: Page, row: number, column: number): Promise<void> {
  await page.keyboard.press('Control+Home');
  for (let at = 0; at < row; at += 1) await page.keyboard.press('ArrowDown');
  for (let at = 0; at < column; at += 1) await page.keyboard.press('ArrowRight');
}

/** The little of the page's window the colour checks use (the node side's type library has no DOM). */
interface PageWindow {
  getComputedStyle(element: unknown): { backgroundColor: string };
}

function rgb(hex: string): string {
  const h = hex.replace('#', '');
  return `rgb(${parseInt(h.slice(0, 2), 16)}, ${parseInt(h.slice(2, 4), 16)}, ${parseInt(h.slice(4, 6), 16)})`;
}

function useGrid(environment: () => PanelEnvironment): (view: { appId: string; viewId: string } & OpenOptions) => Promise<GridHost> {
  let host: GridHost | undefined;
  afterEach(async () => {
    if (host) assert.deepEqual(host.panel.pageErrors, [], 'no script errors on the page');
    await host?.close();
    host = undefined;
  });
  return async (view) => {
    host = await GridHost.open(environment().browser, environment().server, environment().client, view);
    await host.panel.page.waitForSelector('#grid-0-1', { timeout: 60_000 });
    await host.panel.page.locator('.data-grid').focus();
    return host;
  };
}

describe('the view grid: cell editors by kind (webview)', function () {
  const environment = usePanelEnvironment();
  const open = useGrid(environment);
  const orders = (options: OpenOptions = {}): Promise<GridHost> => open({ appId: ORDERS, viewId: '3', ...options });

  it('Enter opens the editor with the value; a choice shows its choices with their colours', async () => {
    const host = await orders();
    const page = host.panel.page;
    const recordId = host.model.layout([]).rowIds[0];
    await goTo(page, 0, COLUMN.title);
    await page.keyboard.press('Enter');
    await page.waitForSelector('.cell-editor');
    assert.equal(
      await page.locator('.cell-editor vscode-text-field').evaluate((element) => (element as unknown as { value: string }).value),
      'Office chairs',
    );
    await page.keyboard.press('Escape');

    const status = host.model.changeSet.column('f19');
    await goTo(page, 0, COLUMN.status);
    await page.keyboard.press('Enter');
    const dropdown = page.locator('.cell-editor vscode-dropdown');
    await dropdown.waitFor();
    const colours = await page
      .locator('.cell-editor .swatch')
      .evaluateAll((elements) =>
        elements.map((element) => (globalThis as unknown as PageWindow).getComputedStyle(element).backgroundColor),
      );
    assert.deepEqual(
      colours,
      (status?.choices ?? []).map((choice) => rgb(choice.color)),
      'each choice with its colour',
    );
    await choose(dropdown, 'Shipped');
    await page.keyboard.press('Enter');
    await host.settled();
    assert.equal(host.model.changeSet.value(recordId, 'f19'), '3', 'the choice is sent by its id');
    assert.equal(await cell(page, 0, COLUMN.status).textContent(), 'Shipped', 'and shown by its name');

    // Tags: several choices, as checkboxes with their colours.
    await goTo(page, 1, COLUMN.tags);
    await page.keyboard.press('F2');
    await page.waitForSelector('.cell-editor fieldset.checkboxes');
    const tags = host.model.changeSet.column('f20');
    assert.equal(await page.locator('.cell-editor vscode-checkbox').count(), tags?.choices?.length);
    assert.deepEqual(
      await page
        .locator('.cell-editor .swatch')
        .evaluateAll((elements) =>
          elements.map((element) => (globalThis as unknown as PageWindow).getComputedStyle(element).backgroundColor),
        ),
      (tags?.choices ?? []).map((choice) => rgb(choice.color)),
    );
    await page.locator('.cell-editor vscode-checkbox', { hasText: 'Urgent' }).click();
    await page.keyboard.press('Enter');
    await host.settled();
    assert.equal(host.model.changeSet.value(host.model.layout([]).rowIds[1], 'f20'), '1,3', 'Wholesale (3) and Urgent (1) checked');
  });

  it('a date & time is shown and entered in local time, and sent in UTC', async () => {
    const host = await orders({ timezoneId: 'Europe/Berlin' });
    const page = host.panel.page;
    const recordId = host.model.layout([]).rowIds[0];
    // Stored 05-01-2026 09:30 UTC; Berlin is UTC+1 in January.
    assert.equal(await cell(page, 0, COLUMN.delivery).textContent(), '05-01-2026 10:30');
    await goTo(page, 0, COLUMN.delivery);
    await page.keyboard.press('F2');
    const input = page.locator('.cell-editor input[type="datetime-local"]');
    await input.waitFor();
    assert.equal(await input.inputValue(), '2026-01-05T10:30', 'the editor holds the local time');
    await input.fill('2026-07-06T08:15');
    assert.match((await page.locator('.cell-editor .preview').textContent()) ?? '', /Sent as 06-07-2026 06:15 UTC/, 'summer: UTC+2');
    await input.press('Enter');
    await host.settled();
    assert.equal(host.model.changeSet.value(recordId, 'f16'), '06-07-2026 06:15');
    assert.equal(await cell(page, 0, COLUMN.delivery).textContent(), '06-07-2026 08:15');
  });

  it("a date & time is pasted and copied in the page's time zone, not the extension host's", async () => {
    const host = await orders({ timezoneId: 'Asia/Tokyo' });
    const page = host.panel.page;
    await host.panel.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const recordId = host.model.layout([]).rowIds[0];
    assert.equal(await cell(page, 0, COLUMN.delivery).textContent(), '05-01-2026 18:30', 'Tokyo is UTC+9');
    await page.evaluate(
      (text) =>
        (globalThis as unknown as { navigator: { clipboard: { writeText(text: string): Promise<void> } } }).navigator.clipboard.writeText(
          text,
        ),
      '06-01-2026 10:00',
    );
    await goTo(page, 0, COLUMN.delivery);
    await page.keyboard.press('Control+V');
    await host.settled();
    assert.equal(host.model.changeSet.value(recordId, 'f16'), '06-01-2026 01:00', 'read as Tokyo time, sent in UTC');
    assert.equal(await cell(page, 0, COLUMN.delivery).textContent(), '06-01-2026 10:00');
    await goTo(page, 1, COLUMN.delivery);
    await page.keyboard.press('Control+C');
    await host.settled();
    assert.equal(host.clipboard, '20-01-2026 23:00', 'copied as the page shows it');
  });

  it('a duration and users are converted as the form does; a bad user list is marked with its message', async () => {
    const host = await orders();
    const page = host.panel.page;
    const [first, second] = host.model.layout([]).rowIds;
    await goTo(page, 0, COLUMN.handling);
    await page.keyboard.type('2:45');
    await page.keyboard.press('Enter');
    await host.settled();
    assert.equal(host.model.changeSet.value(first, 'f21'), '02:45', 'h:mm becomes hh:mm');

    await goTo(page, 0, COLUMN.owner);
    await page.keyboard.press('F2');
    await page.keyboard.press('Control+A');
    await page.keyboard.type(' grace@example.com ,  alan@example.com ');
    await page.keyboard.press('Enter');
    await host.settled();
    assert.equal(host.model.changeSet.value(first, 'f22'), 'grace@example.com,alan@example.com');

    await goTo(page, 1, COLUMN.owner);
    await page.keyboard.press('F2');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('grace');
    await page.keyboard.press('Enter');
    await host.settled();
    const problem = host.model.changeSet.problem(second, 'f22');
    assert.ok(problem, 'the bad user is marked');
    assert.equal(problem, checkValue(host.model.changeSet.column('f22') ?? assert.fail('f22'), 'grace'), "the rule's own message");
    await page.waitForSelector(`#grid-1-${COLUMN.owner}.invalid`);
    assert.equal(await cell(page, 1, COLUMN.owner).getAttribute('title'), problem);
  });

  it('the currency symbol is shown beside the amount and never sent; Shift+Tab sets the value and moves left', async () => {
    const host = await orders();
    const page = host.panel.page;
    const recordId = host.model.layout([]).rowIds[0];
    assert.equal(await cell(page, 0, COLUMN.amount).textContent(), '€1250.00');
    await goTo(page, 0, COLUMN.amount);
    await page.keyboard.press('F2');
    await page.waitForSelector('.cell-editor');
    assert.equal((await page.locator('.cell-editor .prefix').textContent())?.trim(), '€', 'the symbol beside the input');
    assert.equal(
      await page.locator('.cell-editor vscode-text-field').evaluate((element) => (element as unknown as { value: string }).value),
      '1250.00',
    );
    await page.keyboard.press('Control+A');
    await page.keyboard.type('99.5');
    await page.keyboard.press('Shift+Tab');
    await host.settled();
    assert.equal(host.model.changeSet.value(recordId, 'f17'), '99.5', 'the amount alone, without the symbol');
    assert.equal(
      await page.locator('.data-grid').getAttribute('aria-activedescendant'),
      `grid-0-${COLUMN.amount - 1}`,
      'Shift+Tab moved left',
    );
    // Shift+Tab on the grid itself (no editor) moves left too.
    await page.keyboard.press('Shift+Tab');
    assert.equal(await page.locator('.data-grid').getAttribute('aria-activedescendant'), `grid-0-${COLUMN.amount - 2}`);
  });

  it('Copy as… writes the selected block as CSV, JSON and Markdown', async () => {
    const host = await orders();
    const page = host.panel.page;
    const [first, second] = host.model.layout([]).rowIds;
    await goTo(page, 0, COLUMN.title);
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowRight');
    const copyAs = page.locator('vscode-dropdown[aria-label="Copy the selected cells as"]');
    const copied = async (label: string): Promise<string> => {
      host.clipboard = '';
      await choose(copyAs, label);
      await host.settled();
      return host.clipboard;
    };
    assert.equal(await copied('CSV'), 'Title,Customer id\r\nOffice chairs,1\r\nStanding desks,1\r\n');
    assert.deepEqual(JSON.parse(await copied('JSON')), [
      { id: first, f11: 'Office chairs', f12: '1' },
      { id: second, f11: 'Standing desks', f12: '1' },
    ]);
    assert.equal(await copied('Markdown'), '| Title | Customer id |\n| --- | --- |\n| Office chairs | 1 |\n| Standing desks | 1 |\n');
    assert.equal(await copied('TSV'), 'Office chairs\t1\r\nStanding desks\t1');
  });

  it('a multi-line text opens an expanded editor, Ctrl+Enter sets it, and HTML that is not well formed is marked', async () => {
    const host = await open({ appId: KNOWLEDGE_BASE, viewId: '9' });
    const page = host.panel.page;
    const recordId = host.model.layout([]).rowIds[0];
    // View 9's columns: Article no., Title, Body (multi-line), ...
    await goTo(page, 0, 3);
    await page.keyboard.press('F2');
    const area = page.locator('.cell-editor vscode-text-area textarea');
    await area.waitFor();
    assert.match((await page.locator('.cell-editor-hint').textContent()) ?? '', /Ctrl\+Enter to set/);
    await area.fill('<p>First line\nsecond <b>bold</p>');
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('.cell-editor').count(), 1, 'Enter is a new line in a multi-line text');
    await page.keyboard.press('Control+Enter');
    await host.settled();
    const problem = host.model.changeSet.problem(recordId, 'f52');
    assert.match(problem ?? '', /HTML/, `marked: ${problem}`);
    await page.waitForSelector('#grid-0-3.invalid');
  });
});

describe('the view grid at 100,000 rows (webview)', function () {
  this.timeout(120_000);
  const environment = usePanelEnvironment({ bigViewRecords: 100_000 });
  const open = useGrid(environment);

  it('keeps only the rows in sight in the page, at the top and at the end, and edits the last row', async () => {
    const host = await open({ appId: TICKETS, viewId: BIG_VIEW });
    const page = host.panel.page;
    assert.equal(host.model.rowCount, 100_000);
    assert.match((await page.locator('#grid-counts').textContent()) ?? '', /^100,000 rows/);
    const inDom = (): Promise<number> => page.locator('.grid-body .grid-row').count();
    assert.ok((await inDom()) < 80, `virtualized at the top: ${await inDom()} rows in the page`);
    await page.keyboard.press('Control+End');
    await page.waitForSelector('#grid-99999-1');
    assert.ok((await inDom()) < 80, `virtualized at the end: ${await inDom()} rows in the page`);
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.type('The last ticket');
    await page.keyboard.press('Enter');
    await host.settled();
    await page.waitForSelector('#grid-99999-2.pending');
    assert.equal(host.model.changeSet.value(host.model.layout([]).rowIds[99_999], 'f31'), 'The last ticket');
  });
});
