// The Query View before its columns have come: a panel brought back with its kept filters (after a reload of
// the window) whose load fails says so, with a Retry a keyboard reaches, and nothing that needs the columns
// (Run above all, which would replace the kept filters with none) works until they are in.
import * as assert from 'node:assert/strict';
import type { PageDocument, PageElement, PageGlobals } from './support/panelPage';
import { QueryHost } from './support/queryHost';
import { usePanelEnvironment } from './support/suite';

/** In functions run in the page. */
declare const document: PageDocument & { activeElement: (PageElement & { id: string }) | null };

const KEPT = {
  filters: [{ key: 'f34', column: '34', operator: 'equals', value: '4', lookupApp: '' }],
  runId: 3,
  restore: { portalId: 'demo', appId: '201', viewId: '6', viewName: 'All tickets' },
};

describe('the view query panel while it loads (webview)', function () {
  const environment = usePanelEnvironment();
  let host: QueryHost | undefined;

  afterEach(async () => {
    if (host) assert.deepEqual(host.panel.pageErrors, [], 'no script errors on the page');
    await host?.close();
    host = undefined;
  });

  it('brought back with kept filters, says a failed load with Retry, keeps Run off, and shows the kept filters once loaded', async () => {
    host = await QueryHost.open(environment().browser, environment().server, environment().client, {
      appId: '201',
      viewId: '6',
      viewName: 'All tickets',
      viewport: { width: 1100, height: 480 },
    });
    const { panel } = host;
    const page = panel.page;
    // The window reloaded: the page starts again with the state VS Code kept (filters, the last run's id),
    // and the portal cannot be read at that moment.
    await page.evaluate(
      (state) => (globalThis as unknown as PageGlobals).sessionStorage.setItem('vscode-state', JSON.stringify(state)),
      KEPT,
    );
    host.failLoads('The portal did not answer (connection refused).');
    await page.reload();
    await panel.waitForPost('ready');
    const kept = async (): Promise<unknown> =>
      page.evaluate(() => JSON.parse((globalThis as unknown as PageGlobals).sessionStorage.getItem('vscode-state') ?? 'null') as unknown);

    const banner = page.locator('#query-message');
    await banner.getByText(/connection refused/).waitFor({ timeout: 10_000 });
    assert.match((await banner.textContent()) ?? '', /could not be loaded/i, 'says what failed');
    const retry = page.locator('#retry-load');
    assert.equal(await retry.isVisible(), true, 'a Retry button');
    await panel.screenshot('viewQuery-load-failed');

    const off = (selector: string): Promise<boolean> =>
      page.locator(selector).evaluate((element) => (element as unknown as { disabled: boolean }).disabled);
    for (const selector of ['#run', '#add-filter', '#save-query', '#saved-queries'])
      assert.equal(await off(selector), true, `${selector} is off until the columns are in`);
    const before = await panel.postedCount();
    // Forced: the click reaches the button as a person's would, whatever Playwright thinks of a disabled custom element.
    await page.locator('#run').click({ force: true });
    assert.deepEqual(
      (await panel.posted()).slice(before).map((message) => message.type),
      [],
      'Run sends nothing',
    );
    assert.deepEqual(await kept(), KEPT, 'the kept filters are untouched');

    // Keyboard only: Tab reaches Retry (the controls before it are off), Enter loads again.
    let reached = false;
    for (let step = 0; step < 10 && !reached; step += 1) {
      await page.keyboard.press('Tab');
      reached = await page.evaluate(() => document.activeElement?.id === 'retry-load');
    }
    assert.equal(reached, true, 'Tab reaches Retry');
    await page.keyboard.press('Enter');
    await page.locator('.filter-row').first().waitFor({ timeout: 10_000 });
    assert.equal(host.retries, 1, 'one Retry asked the host to load again');
    assert.equal(await banner.isVisible(), false, 'the failure is gone');
    assert.equal(await page.locator('.filter-row').count(), 1, 'the kept filter row');
    assert.equal(
      await page.locator('.filter-row .filter-column').evaluate((element) => (element as unknown as { value: string }).value),
      'f34',
      'its kept column',
    );
    assert.equal(await off('#run'), false, 'Run is on once loaded');
    const state = (await kept()) as typeof KEPT;
    assert.deepEqual(state.filters, KEPT.filters, 'the kept filters, as they were');
    assert.equal(state.runId, 3);
  });
});
