// Journey (e): the Query View panel, driven by clicks and keys inside its frame. Two filters, one of them
// a text column chosen after the default numeric one with "contains" and a typed value; Run; what the
// panel shows must be what was sent, and its row count the portal's own; sort; Enter opens the row;
// Export CSV writes a file found on disk, and still there once VS Code stopped (world.test.ts).
// After Developer: Reload Window the panel comes back with its filter; if the portal cannot be read then, it
// says so with Retry and keeps Run off, so the filter is not replaced by an empty Run.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Locator } from 'playwright-core';
import { FILTER_OPERATOR_LABELS } from '../../src/api/filters';
import { FILTER_OPERATORS, type FilterOperatorName } from '../../src/api/types';
import { emulatorCall, requestMark, requestsSince, viewRowsAsAnotherUser } from './support/emulator';
import { panelFrame } from './support/panels';
import { collapseTree, contextMenu, showView } from './support/tree';
import { answerFileDialog, closeAllEditors, freshStart, notification, reloadWindow, tabLabels } from './support/workbench';
import { expectKeptAfterStop, page, screenshots, world } from './support/world';

const TICKETS = ['Demo portal', 'Support', 'Tickets'];
/** Field ids of the columns used, and the choice id of "Open" (the emulator's seed, test/emulator/README.md). */
const FIELD_IDS: Record<string, string> = { Subject: '31', State: '35' };
const CHOICE_IDS: Record<string, string> = { Open: '1' };

async function choose(dropdown: Locator, label: string): Promise<void> {
  await dropdown.click();
  await dropdown.getByRole('option', { name: label, exact: true }).click();
}

/** What the filter rows show: the chosen column, operator and value, as a person reads them. */
async function shownFilters(frame: Frame): Promise<{ column: string; operator: string; value: string }[]> {
  const rows = frame.locator('.filter-row');
  const shown = [];
  for (let i = 0; i < (await rows.count()); i += 1) {
    const row = rows.nth(i);
    const text = async (selector: string): Promise<string> =>
      row
        .locator(selector)
        .first()
        .evaluate((element) => {
          const dropdown = element as unknown as { selectedOptions?: { textContent: string | null }[]; value?: string };
          return (dropdown.selectedOptions?.[0]?.textContent ?? dropdown.value ?? '').trim();
        });
    const hasValue = (await row.locator('.filter-value vscode-text-field, .filter-value vscode-dropdown').count()) > 0;
    shown.push({
      column: await text('.filter-column'),
      operator: await text('.filter-operator'),
      value: hasValue ? await text('.filter-value vscode-text-field, .filter-value vscode-dropdown') : '',
    });
  }
  return shown;
}

function operatorCode(label: string): string {
  const name = (Object.keys(FILTER_OPERATOR_LABELS) as FilterOperatorName[]).find((key) => FILTER_OPERATOR_LABELS[key] === label);
  if (!name) throw new Error(`The panel shows an operator "${label}" that the portal does not have.`);
  return FILTER_OPERATORS[name];
}

describe('Journey (e): Query View, as a person uses it', function () {
  this.timeout(240_000);

  before(async () => {
    await freshStart();
  });

  after(() => closeAllEditors());

  it("two filters, a column changed after the default, Run: sent = shown, count = the portal's; sort, Enter, Export CSV", async () => {
    const shot = screenshots('e-query-view');
    await collapseTree();
    const view = await showView(TICKETS, '6', { expand: false });
    await contextMenu(view, 'Query View…');
    const frame = await panelFrame('View 6');
    // The panel's controls are on once its columns have come.
    await frame.locator('#run:not([disabled])').waitFor();
    await shot('query view open');

    await frame.locator('#add-filter').click();
    await choose(frame.locator('.filter-column').nth(0), 'Subject');
    await choose(frame.locator('.filter-operator').nth(0), 'contains');
    await frame.locator('.filter-value input').nth(0).click();
    await page().keyboard.type('printer');
    await frame.locator('#add-filter').click();
    await choose(frame.locator('.filter-column').nth(1), 'State');
    await choose(frame.locator('.filter-value vscode-dropdown').nth(0), 'Open');
    await shot('two filters');

    const mark = await requestMark();
    await frame.locator('#run').click();
    await frame.locator('#row-count', { hasText: /rows?$/ }).waitFor();
    await shot('ran');
    const shown = await shownFilters(frame);
    assert.deepEqual(
      shown.map((filter) => `${filter.column} ${filter.operator}`),
      ['Subject contains', 'State equals'],
      'the panel shows the filters chosen',
    );
    const sent = (await requestsSince(mark)).filter((request) => request.path === '/api/v1/app/201/view/6');
    assert.equal(sent.length, 1, 'one view request');
    const query = new URLSearchParams(sent[0].query);
    const expected = {
      filter_columns: shown.map((filter) => FIELD_IDS[filter.column]).join('|'),
      filter_operators: shown.map((filter) => operatorCode(filter.operator)).join('|'),
      filter_values: shown.map((filter) => CHOICE_IDS[filter.value] ?? filter.value).join('|'),
    };
    assert.deepEqual(
      {
        filter_columns: query.get('filter_columns'),
        filter_operators: query.get('filter_operators'),
        filter_values: query.get('filter_values'),
      },
      expected,
      'the request carries exactly what the panel shows',
    );
    const portalRows = await viewRowsAsAnotherUser('201', '6', expected);
    const count = Number(((await frame.locator('#row-count').textContent()) ?? '').replace(/[^0-9]/g, ''));
    assert.ok(portalRows > 0, 'the portal finds open tickets about printers');
    assert.equal(count, portalRows, "the panel's row count is the portal's own");

    await frame.locator('.grid-body [role="row"]').first().waitFor();
    const header = frame.locator('.grid-columnheader', { hasText: /^Subject/ });
    await header.click();
    await frame.locator('.grid-columnheader[aria-sort="ascending"]', { hasText: /^Subject/ }).waitFor();
    const subjects = await frame.locator('.grid-body [role="row"] .grid-cell:nth-child(3)').allTextContents();
    assert.deepEqual(
      subjects,
      [...subjects].sort((a, b) => a.localeCompare(b)),
      'sorted by Subject',
    );
    await shot('sorted by subject');

    const tabsBefore = (await tabLabels()).length;
    await frame.locator('.data-grid').focus();
    await page().keyboard.press('ArrowDown');
    await page().keyboard.press('Enter');
    await page().locator('.part.editor .tabs-container .tab').nth(tabsBefore).waitFor();
    await page()
      .locator('.part.editor .view-lines', { hasText: /printer/i })
      .first()
      .waitFor();
    await shot('row opened with Enter');

    await page().locator('.part.editor .tabs-container .tab', { hasText: 'View 6' }).click();
    const target = join(world().profile.workspace, 'open-printer-tickets.csv');
    await (await panelFrame('View 6')).locator('#export-csv').click();
    // VS Code's own save dialog proposes <workspace>/View 6.csv with the name selected: type the new name.
    await answerFileDialog(/Export .* rows of View 6/, (value) => value.endsWith('/workspace/View 6.csv'), 'open-printer-tickets', target);
    // What a person waits for: the message that the export is done (a large result takes its time).
    await notification(/^Exported [\d,]+ rows to /, 90_000);
    const written = await waitForDisk(
      () => existsSync(target) && readFileSync(target, 'utf8').split('\n').filter(Boolean).length === count + 1,
    );
    assert.ok(written, `the CSV with a header and ${count} rows is on disk at ${target}`);
    expectKeptAfterStop(target);
    await shot('exported');
  });

  /** The Tickets view's Query View from the Portal view's context menu, with the filter Subject contains "toner" typed. */
  async function queryWithTonerFilter(): Promise<Frame> {
    await closeAllEditors();
    await collapseTree();
    const view = await showView(TICKETS, '6', { expand: false });
    await contextMenu(view, 'Query View…');
    const frame = await panelFrame('View 6');
    await frame.locator('#add-filter:not([disabled])').waitFor();
    await frame.locator('#add-filter').click();
    await choose(frame.locator('.filter-column').nth(0), 'Subject');
    await choose(frame.locator('.filter-operator').nth(0), 'contains');
    await frame.locator('.filter-value input').nth(0).click();
    await page().keyboard.type('toner');
    await page().keyboard.press('Tab');
    return frame;
  }

  it('survives Developer: Reload Window: the panel comes back with its filter, and runs only when asked', async () => {
    const shot = screenshots('j-query-reload');
    let frame = await queryWithTonerFilter();
    await shot('filter typed');

    const mark = await requestMark();
    await reloadWindow();
    frame = await panelFrame('View 6', 90_000);
    await frame.locator('.filter-row').first().waitFor();
    await shot('after reload');
    assert.deepEqual(
      await shownFilters(frame),
      [{ column: 'Subject', operator: 'contains', value: 'toner' }],
      'the filter is back as it was',
    );
    const ranAlone = (await requestsSince(mark)).filter((request) => request.path === '/api/v1/app/201/view/6');
    assert.deepEqual(ranAlone, [], 'nothing ran on its own after the reload');

    await frame.locator('#run').click();
    await frame.locator('#row-count', { hasText: /rows?$/ }).waitFor();
    const sent = (await requestsSince(mark)).filter((request) => request.path === '/api/v1/app/201/view/6');
    assert.equal(sent.length, 1, 'one view request, when Run was clicked');
    const query = new URLSearchParams(sent[0].query);
    assert.deepEqual(
      [query.get('filter_columns'), query.get('filter_operators'), query.get('filter_values')],
      [FIELD_IDS.Subject, operatorCode('contains'), 'toner'],
    );
    await shot('ran after reload');
  });

  it('after Developer: Reload Window while the portal cannot be read: says so with Retry, keeps Run off, and the filter survives', async () => {
    const shot = screenshots('j-query-reload-failed');
    let frame = await queryWithTonerFilter();
    // Run once: the page keeps that run's id, which the host no longer knows after the reload.
    await frame.locator('#run').click();
    await frame.locator('#row-count', { hasText: /rows?$/ }).waitFor();

    // The portal refuses the app's columns from now on (the reloaded extension has none kept).
    await emulatorCall('POST', 'faults', { method: 'GET', path: '^/api/v1/app/201/columns$', status: 503, count: -1 });
    try {
      const mark = await requestMark();
      await reloadWindow();
      frame = await panelFrame('View 6', 90_000);
      const banner = frame.locator('#query-message');
      await banner.getByText(/could not be loaded/).waitFor({ timeout: 30_000 });
      await shot('load failed');
      await frame.locator('#run').click({ force: true }); // a person clicks Run anyway (forced: it is off)
      const ran = (await requestsSince(mark)).filter((request) => request.path === '/api/v1/app/201/view/6');
      assert.deepEqual(ran, [], 'Run does nothing before the columns have come');

      await emulatorCall('DELETE', 'faults');
      await frame.locator('#retry-load').click();
      await frame.locator('.filter-row').first().waitFor();
      await shot('after retry');
      assert.deepEqual(
        await shownFilters(frame),
        [{ column: 'Subject', operator: 'contains', value: 'toner' }],
        'the filter kept across the reload, not replaced',
      );
      await frame.locator('#run').click();
      await frame.locator('#row-count', { hasText: /rows?$/ }).waitFor();
      const sent = (await requestsSince(mark)).filter((request) => request.path === '/api/v1/app/201/view/6');
      assert.equal(sent.length, 1, 'one view request, when Run was clicked');
      assert.equal(new URLSearchParams(sent[0].query).get('filter_values'), 'toner');
      await shot('ran after retry');
    } finally {
      await emulatorCall('DELETE', 'faults');
    }
  });
});

/** Waits (a condition on disk, not a fixed time) until `done` holds, up to 30 s. */
async function waitForDisk(done: () => boolean): Promise<boolean> {
  const deadline = Date.now() + 30_000;
  while (!done()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return true;
}
