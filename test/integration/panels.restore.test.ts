// Panels survive a reload of the window: VS Code hands each panel's saved page state to the serializer,
// which opens the panel again. The harness cannot reload the window (its tests run in the extension host
// a reload ends), and a page's saved state cannot be read from outside it, so these tests call the
// serializer as VS Code does after a reload: with a new panel of the view type and a state in the form the
// pages save (filters or values entered, and the target the host sent them). What comes back is read in
// the real page.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { requestMark } from './support/documents';
import { BROWSER_TAG, driver } from './support/driver';
import { emulatorControl } from './support/emulator';
import { testApi } from './support/extension';
import { connectEmulator, removeAllPortals } from './support/portals';
import { useScriptedPrompter } from './support/prompter';
import { waitFor } from './support/wait';

interface LoggedRequest {
  seq: number;
  path: string;
  query: string;
}

describe(`panels after a reload ${BROWSER_TAG}`, function () {
  this.timeout(90_000);
  const user = useScriptedPrompter();
  let portalId = '';
  /** A Query View's kept state: one filter (f34 equals 4) and a run id the reloaded host does not know. */
  const keptQuery = (): object => ({
    filters: [{ key: 'f34', operator: 'equals', value: '4', lookupApp: '' }],
    runId: 2,
    restore: { portalId, appId: '201', viewId: '6', viewName: 'All tickets' },
  });

  before(async () => {
    await removeAllPortals();
    portalId = await connectEmulator();
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await removeAllPortals();
  });

  async function restore(viewType: string, title: string, state: unknown): Promise<vscode.WebviewPanel> {
    const panel = vscode.window.createWebviewPanel(viewType, title, vscode.ViewColumn.Active, { enableScripts: true });
    await (await testApi()).panelSerializer.deserializeWebviewPanel(panel, state);
    return panel;
  }

  it('brings a query panel back with its filters, and runs it when asked', async () => {
    const mark = await requestMark();
    await restore('portal.viewQuery', 'All tickets', keptQuery());
    const query = driver.webview('All tickets');
    await query.waitFor('.filter-row', { timeoutMs: 20_000 });
    assert.equal((await query.texts('.filter-row')).length, 1, 'the kept filter row');
    assert.match(await query.text('.subtitle'), /Tickets · /);
    const column = await query.evaluate<string>(`document.querySelector('.filter-row .filter-column')?.value ?? ''`);
    assert.equal(column, 'f34', 'the kept column');
    const viewRequests = async (): Promise<LoggedRequest[]> =>
      (await emulatorControl<LoggedRequest[]>('GET', `requests?since=${mark}`)).filter(
        (request) => request.path === '/api/v1/app/201/view/6',
      );
    assert.deepEqual(await viewRequests(), [], 'nothing runs until the user asks');
    await driver.screenshot('query-restored');

    await query.click('#run');
    await waitFor(async () => /^[\d,]+ rows?$/.test(await query.text('#row-count')), { message: 'the result', timeoutMs: 60_000 });
    const sent = (await viewRequests()).map((request) => new URLSearchParams(request.query));
    assert.ok(
      sent.some(
        (params) => params.get('filter_columns') === '34' && params.get('filter_operators') === '2' && params.get('filter_values') === '4',
      ),
      'Run sends the kept filter',
    );
  });

  it("says a restored query panel's failed load, with Retry, keeps Run off meanwhile, and shows the kept filters once the portal answers", async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // The app's columns read anew (an earlier test read them), and the portal refusing them for now.
    await vscode.commands.executeCommand('portal.refreshNode', { portalId, appId: '201' });
    await emulatorControl('POST', 'faults', { method: 'GET', path: '^/api/v1/app/201/', status: 503, count: -1 });
    try {
      const mark = await requestMark();
      await restore('portal.viewQuery', 'All tickets', keptQuery());
      const query = driver.webview('All tickets');
      await query.waitFor('#retry-load', { timeoutMs: 20_000 });
      assert.match(await query.text('#query-message'), /could not be loaded/);
      assert.equal(await query.text('h1'), 'All tickets', 'the heading names the view before its columns have come');
      assert.equal(
        await query.evaluate<boolean>(`document.querySelector('#run')?.disabled === true`),
        true,
        'Run is off until the columns are in',
      );
      await driver.screenshot('query-restored-load-failed');

      await emulatorControl('DELETE', 'faults');
      await query.click('#retry-load');
      await query.waitFor('.filter-row', { timeoutMs: 20_000 });
      assert.equal(
        await query.evaluate<string>(`document.querySelector('.filter-row .filter-column')?.value ?? ''`),
        'f34',
        'the kept filter',
      );
      assert.equal(await query.evaluate<boolean>(`document.querySelector('#run')?.disabled === true`), false, 'Run is on');
      assert.equal(await query.evaluate<boolean>(`document.querySelector('#query-message')?.hidden === true`), true, 'the failure is gone');
      const views = (await emulatorControl<LoggedRequest[]>('GET', `requests?since=${mark}`)).filter(
        (request) => request.path === '/api/v1/app/201/view/6',
      );
      assert.deepEqual(views, [], 'nothing ran');
      assert.deepEqual(user().messages, [], 'the failure was shown in the panel, not as a notification');
      await driver.screenshot('query-restored-after-retry');
    } finally {
      await emulatorControl('DELETE', 'faults');
    }
  });

  it('brings the create-record form back with what was entered', async () => {
    await restore('portal.recordForm', 'New record · Customers', {
      entered: { f2: 'Kept across the reload' },
      restore: { portalId, appId: '101' },
    });
    const form = driver.webview('New record · Customers');
    await form.waitFor('[data-field="f2"]', { timeoutMs: 20_000 });
    assert.equal(
      await form.evaluate<string>(
        `document.querySelector('[data-field="f2"]')?.querySelector('vscode-text-field, vscode-text-area, input, textarea')?.value ?? ''`,
      ),
      'Kept across the reload',
    );
    await driver.screenshot('form-restored');
  });

  it('closes a panel whose saved state says nothing usable, with one log line and no message', async () => {
    const api = await testApi();
    const lines = api.logMark();
    const panel = vscode.window.createWebviewPanel('portal.viewQuery', 'Old panel', vscode.ViewColumn.Active, { enableScripts: true });
    let closed = false;
    panel.onDidDispose(() => (closed = true));
    await api.panelSerializer.deserializeWebviewPanel(panel, { filters: [], runId: 0 });
    await waitFor(() => closed, { message: 'the panel closed' });
    const logged = api.logLinesSince(lines).filter((line) => line.includes('kept no state'));
    assert.equal(logged.length, 1, JSON.stringify(api.logLinesSince(lines)));
    assert.deepEqual(user().messages, []);
  });
});
