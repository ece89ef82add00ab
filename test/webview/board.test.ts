// The board's page, built, in headless Chromium with the real grid model and board session over the
// emulator: a column per choice with counts, a card dragged with the mouse and moved with the keyboard
// (each a pending edit of its field in the grid's change set, undone as the grid's are), lanes by a USER
// column, only the cards in sight drawn, no axe violation, and the screenshots in a light and a dark theme.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { BIG_VIEW, ORDERS, TICKETS } from '../emulator/seed';
import { choose } from './support/actions';
import { axeViolations } from './support/audit';
import { BoardHost } from './support/boardHost';
import { usePanelEnvironment } from './support/suite';

const STATUS = 'f19';
const OWNER = 'f22';

function card(page: Page, title: string): ReturnType<Page['locator']> {
  return page.locator('.card', { hasText: title });
}

function cell(page: Page, column: string, lane?: string): ReturnType<Page['locator']> {
  return page.locator(`.board-cell[data-column="${column}"]${lane === undefined ? '' : `[data-lane="${lane}"]`}`);
}

describe('the board (webview)', function () {
  const environment = usePanelEnvironment();
  let host: BoardHost | undefined;

  afterEach(async () => {
    if (host) assert.deepEqual(host.panel.pageErrors, [], 'no script errors on the page');
    await host?.close();
    host = undefined;
  });

  async function open(options: { theme?: 'light' | 'dark'; lanes?: string; fields?: string[] } = {}): Promise<BoardHost> {
    host = await BoardHost.open(environment().browser, environment().server, environment().client, {
      appId: ORDERS,
      viewId: '3',
      titleField: 'f11',
      definition: { column: STATUS, ...(options.lanes ? { lanes: options.lanes } : {}), fields: options.fields ?? ['f17', OWNER] },
      ...(options.theme ? { theme: options.theme } : {}),
    });
    await host.panel.page.waitForSelector('.card');
    return host;
  }

  function recordOf(board: BoardHost, title: string): string {
    const id = board.model.layout([]).rowIds.find((recordId) => board.model.changeSet.value(recordId, 'f11') === title);
    assert.ok(id, `a row titled ${title}`);
    return id;
  }

  it("draws a column per choice in the choices' order with counts, and a card dragged to another is a pending edit", async () => {
    const board = await open();
    const page = board.panel.page;
    const heads = await page.locator('.board-column-head .board-head-name').allTextContents();
    assert.deepEqual(heads, ['New', 'Confirmed', 'Shipped', 'Delivered', 'Cancelled', 'none']);
    const values = board.model.layout([]).rowIds.map((recordId) => board.model.changeSet.value(recordId, STATUS));
    const counts = await page.locator('.board-column-head .board-count').allTextContents();
    assert.deepEqual(
      counts,
      ['1', '2', '3', '4', '5', ''].map((key) => String(values.filter((value) => value === key).length)),
    );
    const toner = recordOf(board, 'Printer toner');
    await card(page, 'Printer toner').dragTo(cell(page, '3'));
    await board.settled();
    assert.equal(board.model.changeSet.value(toner, STATUS), '3', 'the card now stands for Status: Shipped');
    assert.deepEqual([...(board.model.changeSet.row(toner)?.edits.keys() ?? [])], [STATUS], 'one field edited, no other');
    await page.waitForSelector(`.board-cell[data-column="3"] .card.pending[data-record-id="${toner}"]`);
    assert.match((await page.locator('#board-counts').textContent()) ?? '', /1 changed/);
    assert.match((await card(page, 'Printer toner').textContent()) ?? '', /Owner: alan@example\.com/);
    assert.equal(board.stack.length, 1);
    assert.match(board.stack[0].label, /^Move Printer toner to Shipped$/);
    await board.panel.screenshot('board-light');
  });

  it('moves the focused card with Alt+arrows, keeps the focus on it, and Undo puts it back', async () => {
    const board = await open({ theme: 'dark' });
    const page = board.panel.page;
    const gifts = recordOf(board, 'Gift baskets');
    await card(page, 'Gift baskets').focus();
    await page.keyboard.press('Alt+ArrowRight');
    await board.settled();
    assert.equal(board.model.changeSet.value(gifts, STATUS), '2');
    await page.waitForSelector(`.board-cell[data-column="2"] .card[data-record-id="${gifts}"]:focus`);
    assert.equal(await page.locator('#board-announce').textContent(), 'Moved to Confirmed.');
    await page.keyboard.press('Alt+ArrowRight');
    await board.settled();
    assert.equal(board.model.changeSet.value(gifts, STATUS), '3', 'a second move goes on from where the card went');
    await page.waitForSelector(`.board-cell[data-column="3"] .card[data-record-id="${gifts}"]:focus`);
    await board.panel.screenshot('board-dark');
    await board.undo();
    await board.settled();
    assert.equal(board.model.changeSet.value(gifts, STATUS), '2', 'Undo takes back one move');
    await board.undo();
    await board.settled();
    assert.equal(board.model.changeSet.row(gifts), undefined, 'and the other: nothing pending');
    await page.waitForSelector(`.board-cell[data-column="1"] .card[data-record-id="${gifts}"]`);
    assert.doesNotMatch((await page.locator('#board-counts').textContent()) ?? '', /changed/);
  });

  it('goes from card to card with the arrows, and Enter opens the record', async () => {
    const board = await open();
    const page = board.panel.page;
    const first = page.locator('.board-cell[data-column="1"] .card').first();
    await first.focus();
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.locator('.board-cell[data-column="2"] .card:focus').count(), 1, 'ArrowRight goes to the next column');
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.locator('.card:focus').getAttribute('data-index'), '1', 'ArrowDown goes to the next card');
    const recordId = await page.locator('.card:focus').getAttribute('data-record-id');
    await page.keyboard.press('Enter');
    await board.settled();
    assert.deepEqual(board.passed.at(-1), { type: 'openRecord', recordId });
    assert.equal(board.model.changeSet.rows().length, 0, 'going about is no edit');
  });

  it('puts cards in lanes by a USER column; Alt+Down moves a card to the next lane', async () => {
    const board = await open({ lanes: OWNER, fields: [] });
    const page = board.panel.page;
    const lanes = await page.locator('.board-lane-head .board-head-name').allTextContents();
    assert.deepEqual(lanes, [...lanes.slice(0, -1)].sort().concat('none'), 'e-mails in order, "none" last');
    assert.ok(lanes.includes('ada@example.com'));
    const coffee = recordOf(board, 'Coffee beans');
    await card(page, 'Coffee beans').focus();
    assert.equal(await page.locator('.board-cell[data-lane="ada@example.com"] .card:focus').count(), 1);
    await page.keyboard.press('Alt+ArrowDown');
    await board.settled();
    const next = lanes[lanes.indexOf('ada@example.com') + 1];
    assert.equal(board.model.changeSet.value(coffee, OWNER), next);
    assert.equal(board.model.changeSet.value(coffee, STATUS), '2', 'its column stays');
    await page.waitForSelector(`.board-cell[data-column="2"][data-lane="${next}"] .card[data-record-id="${coffee}"]:focus`);
    assert.deepEqual(await axeViolations(page), []);
  });

  it('takes the lanes and card fields chosen above the board as its definition, and passes the filters Run on', async () => {
    const board = await open({ fields: [] });
    const page = board.panel.page;
    assert.equal(await page.locator('.board-lane-head').count(), 0);
    await choose(page.locator('vscode-dropdown[aria-labelledby]').nth(1), 'Owner');
    await page.waitForSelector('.board-lane-head');
    assert.deepEqual(board.definition, { column: STATUS, lanes: OWNER, fields: [] });
    await page.locator('.board-fields summary').click();
    await page.locator('vscode-checkbox', { hasText: 'Amount' }).click();
    await board.settled();
    assert.deepEqual(board.definition, { column: STATUS, lanes: OWNER, fields: ['f17'] });
    await page.waitForSelector('.card-field');
    await page.locator('#board-run').click();
    await board.settled();
    assert.deepEqual(board.passed.at(-1), { type: 'board/filter', filters: [] });
  });

  it('has no axe violation, and names each column and card for a screen reader', async () => {
    const board = await open();
    const page = board.panel.page;
    assert.deepEqual(await axeViolations(page), []);
    assert.equal(await cell(page, '2').getAttribute('role'), 'list');
    assert.equal(await cell(page, '2').getAttribute('aria-label'), 'Confirmed');
    const label = (await card(page, 'Printer toner').getAttribute('aria-label')) ?? '';
    assert.match(label, /^Printer toner; Amount: .+; Owner: alan@example\.com$/);
    assert.equal(await page.locator('.card[tabindex="0"]').count(), 1, 'one tab stop for all the cards');
  });
});

describe('the board of a large view (webview)', function () {
  const environment = usePanelEnvironment({ bigViewRecords: 3000 });
  let host: BoardHost | undefined;

  afterEach(async () => {
    await host?.close();
    host = undefined;
  });

  it('shows every count at once and draws only the cards in sight, column by column', async () => {
    host = await BoardHost.open(environment().browser, environment().server, environment().client, {
      appId: TICKETS,
      viewId: BIG_VIEW,
      titleField: 'f31',
      definition: { column: 'f35', fields: [] },
    });
    const page = host.panel.page;
    await page.waitForSelector('.card');
    const counts = (await page.locator('.board-column-head .board-count').allTextContents()).map((text) => Number(text.replace(/,/g, '')));
    assert.equal(
      counts.reduce((sum, count) => sum + count, 0),
      3000,
    );
    const drawn = await page.locator('.card').count();
    assert.ok(drawn < 200, `${drawn} cards drawn for 3,000`);
    const open = cell(page, '1');
    await open.evaluate((element) => (element.scrollTop = element.scrollHeight));
    await host.settled();
    const last = host.session.cards({ column: '1' }, counts[0] - 1, counts[0])[0];
    await page.waitForSelector(`.board-cell[data-column="1"] .card[data-record-id="${last.recordId}"]`);
  });

  it('draws the cards that come with the layout without asking, and a scrolled cell keeps its cards after a move', async () => {
    host = await BoardHost.open(environment().browser, environment().server, environment().client, {
      appId: TICKETS,
      viewId: BIG_VIEW,
      titleField: 'f31',
      definition: { column: 'f35', fields: [] },
    });
    const page = host.panel.page;
    await page.waitForSelector('.board-cell[data-column="2"] .card');
    await host.settled();
    assert.equal(host.asked.length, 0, 'no window asked for: the first cards came with the layout');
    const open = cell(page, '1');
    await open.evaluate((element) => (element.scrollTop = element.scrollHeight / 2));
    await host.settled();
    assert.equal(host.asked.length, 1, 'the cards scrolled into sight asked for once');
    const [scrolled] = host.asked;
    const inSight = host.session.cards({ column: '1' }, scrolled.start + 10, scrolled.start + 11)[0];
    await page.waitForSelector(`.board-cell[data-column="1"] .card[data-record-id="${inSight.recordId}"]`);
    // A card of another column moved: the layout after it carries the scrolled window again.
    await page.locator('.board-cell[data-column="2"] .card').first().focus();
    await page.keyboard.press('Alt+ArrowRight');
    await host.settled();
    assert.equal(host.stack.length, 1, 'the card moved');
    assert.equal(host.asked.length, 1, 'nothing asked for again');
    await page.waitForSelector(`.board-cell[data-column="1"] .card[data-record-id="${inSight.recordId}"]`);
  });
});
