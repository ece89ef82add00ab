// The two panels in a real VS Code, driven through their DOM as a user would: a record created through the
// form (and a draft, on the Draft-mode app), a filtered query run and checked against the emulator, a
// saved query, and an export. One screenshot of each panel inside the workbench.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AppTarget, ViewTarget } from '../../src/commands/panelTargets';
import { BROWSER_TAG, driver } from './support/driver';
import { emulator, emulatorControl } from './support/emulator';
import { testApi } from './support/extension';
import { children, item, labelOf, path } from './support/explorer';
import { connectEmulator, removeAllPortals } from './support/portals';
import { useScriptedPrompter } from './support/prompter';
import { waitFor } from './support/wait';
import { workspaceRoot } from './support/workspace';

interface EmulatorRecord {
  draft: boolean;
  data: Record<string, string>;
}

/** A token of the demo client, to ask the emulator what the panel should show. */
async function apiGet<T>(path: string): Promise<T> {
  const { base_url: baseUrl, client_id: clientId, client_secret: clientSecret } = emulator();
  const token = (await (
    await fetch(`${baseUrl}/api/v1/oauth2/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
      },
      body: 'grant_type=client_credentials',
    })
  ).json()) as { access_token: string };
  const response = await fetch(`${baseUrl}/api/v1/${path}`, { headers: { authorization: `Bearer ${token.access_token}` } });
  assert.equal(response.status, 200, `GET ${path}`);
  return (await response.json()) as T;
}

describe(`the panels in VS Code ${BROWSER_TAG}`, function () {
  this.timeout(120_000);
  const user = useScriptedPrompter();
  let portalId: string;

  before(async () => {
    await emulatorControl('POST', 'reset');
    await removeAllPortals();
    portalId = await connectEmulator({ label: 'Demo portal' });
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('creates a record through the form, then a draft on the Draft-mode app', async () => {
    const orders: AppTarget = { portalId, appId: '102' };
    await vscode.commands.executeCommand('portal.createRecord', orders);
    const form = driver.webview('New record · Orders');
    await form.waitFor('[data-field="f11"]', { timeoutMs: 20_000 });
    await form.fill('[data-field="f11"] input', 'Desks from the integration test');
    await form.fill('[data-field="f15"] input', '2026-11-21');
    await form.fill('[data-field="f17"] input', '250.00');
    await form.fill('[data-field="f22"] input', 'ada@example.com, grace@example.com');
    await driver.screenshot('record-form');
    await form.click('#create');
    const created = await user().waitForMessage(/^Created record (\d+) in Orders\.$/, { level: 'info', timeoutMs: 20_000 });
    const id = /record (\d+)/.exec(created.message)?.[1] ?? '';
    assert.match(await form.text('#form-message'), new RegExp(`Created record ${id} in Orders`));
    const record = await emulatorControl<EmulatorRecord>('GET', `records/102/${id}`);
    assert.equal(record.draft, false);
    assert.equal(record.data.f11, 'Desks from the integration test');
    assert.equal(record.data.f15, '21-11-2026');
    assert.equal(record.data.f17, '250.00');
    assert.equal(record.data.f22, 'ada@example.com,grace@example.com');

    await form.click('#new-record');
    assert.equal(
      await form.evaluate<string>('document.querySelector(\'[data-field="f11"] vscode-text-field\').value'),
      '',
      '"New record" cleared the form',
    );
    await form.fill('[data-field="f11"] input', 'A draft from the integration test');
    await form.fill('[data-field="f15"] input', '2026-12-01');
    await form.fill('[data-field="f17"] input', '10');
    await form.click('#save-draft');
    const drafted = await user().waitForMessage(/^Created draft record (\d+) in Orders\.$/, { level: 'info', timeoutMs: 20_000 });
    const draftId = /record (\d+)/.exec(drafted.message)?.[1] ?? '';
    const draft = await emulatorControl<EmulatorRecord>('GET', `records/102/${draftId}`);
    assert.equal(draft.draft, true, 'saved as a Draft');
    assert.equal(draft.data.f11, 'A draft from the integration test');
  });

  it("shows the portal's refusal at the field it names", async () => {
    await emulatorControl('POST', 'reset');
    const customers: AppTarget = { portalId, appId: '101' };
    await vscode.commands.executeCommand('portal.createRecord', customers);
    const form = driver.webview('New record · Customers');
    await form.waitFor('[data-field="f2"]', { timeoutMs: 20_000 });
    // Names are unique in Customers: the portal refuses a taken one (400 duplicate_value, field f2).
    const [first] = await apiGet<{ data: Array<Record<string, string>> }>('app/101/view/1').then((view) => view.data);
    await form.fill('[data-field="f2"] input', first.f2);
    await form.click('#create');
    await waitFor(async () => (await form.text('[data-field="f2"] .field-error')) !== '', {
      message: 'the refusal next to Name',
      timeoutMs: 20_000,
    });
    assert.match(await form.text('[data-field="f2"] .field-error'), /f2|Name|taken|unique|already/i);
    const requests = await emulatorControl<Array<{ path: string; status: number }>>('GET', 'requests');
    assert.ok(
      requests.some((request) => request.path === '/api/v1/app/101/record/' && request.status === 400),
      'the portal answered 400',
    );
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('says a create whose answer was lost may have created the record, so that it is not simply created again', async () => {
    await emulatorControl('POST', 'reset');
    const customers: AppTarget = { portalId, appId: '101' };
    await vscode.commands.executeCommand('portal.createRecord', customers);
    const form = driver.webview('New record · Customers');
    await form.waitFor('[data-field="f2"]', { timeoutMs: 20_000 });
    await emulatorControl('POST', 'faults', { path: '/app/101/record/$', method: 'POST', lose_answer: true });
    await form.fill('[data-field="f2"] input', 'Lost Answer Ltd');
    await form.click('#create');
    await waitFor(async () => /failed/.test(await form.text('.message-bar .message-text')), {
      message: 'the failure said in the form (after "Creating the record…")',
      timeoutMs: 20_000,
    });
    assert.match(await form.text('.message-bar .message-text'), /may have created the record .*look in Customers before creating it again/);
    const [created] = await apiGet<{ data: Array<Record<string, string>> }>('app/101/view/1').then((view) =>
      view.data.filter((row) => row.f2 === 'Lost Answer Ltd'),
    );
    assert.ok(created, 'the portal did create it: that is what the message warns of');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('runs a filtered query and shows what the emulator answers; saves and exports it', async () => {
    const tickets: ViewTarget = { portalId, appId: '201', viewId: '6', viewName: 'All tickets' };
    await vscode.commands.executeCommand('portal.queryView', tickets);
    const query = driver.webview('All tickets');
    await query.waitFor('#add-filter:not([disabled])', { timeoutMs: 20_000 }); // on once the columns have come
    await query.click('#add-filter');
    await query.click('.filter-column');
    await query.click('.filter-column vscode-option[value="f34"]');
    await query.click('.filter-value vscode-dropdown');
    await query.click('.filter-value vscode-option[value="4"]');
    await query.click('#add-filter');
    await query.click('.filter-row:nth-child(2) .filter-column');
    await query.click('.filter-row:nth-child(2) .filter-column vscode-option[value="f35"]');
    await query.click('.filter-row:nth-child(2) .filter-value vscode-dropdown');
    await query.click('.filter-row:nth-child(2) .filter-value vscode-option[value="1"]');
    await query.click('#run');
    await waitFor(async () => /^[\d,]+ rows?$/.test(await query.text('#row-count')), { message: 'the result', timeoutMs: 60_000 });
    const expected = await apiGet<{ data: Array<Record<string, string>> }>(
      'app/201/view/6?filter_columns=34|35&filter_operators=2|2&filter_values=4|1',
    );
    assert.ok(expected.data.length > 10, `a filter that keeps some rows (${expected.data.length})`);
    assert.equal(await query.text('#row-count'), `${expected.data.length.toLocaleString('en-US')} rows`);
    const firstRow = await query.texts('.grid-body .grid-row[aria-rowindex="2"] .grid-cell');
    assert.equal(firstRow[0], expected.data[0].id);
    assert.equal(firstRow[1], expected.data[0].f30, 'Ticket no.');
    assert.equal(firstRow[2], expected.data[0].f31, 'Subject');
    const requests = await emulatorControl<Array<{ path: string; query: string }>>('GET', 'requests');
    const sent = requests
      .filter((request) => request.path === '/api/v1/app/201/view/6')
      .map((request) => new URLSearchParams(request.query));
    assert.ok(
      sent.some(
        (params) =>
          params.get('filter_columns') === '34|35' && params.get('filter_operators') === '2|2' && params.get('filter_values') === '4|1',
      ),
      'the panel sent the filters',
    );
    await driver.screenshot('view-query');

    // Save it by name; the store lists it for the view.
    user().answerInputBox('Critical open tickets', /Save query/);
    await query.click('#save-query');
    await user().waitForMessage(/Saved the query "Critical open tickets"/, { level: 'info' });
    const api = await testApi();
    assert.deepEqual(
      api.savedQueries.list(tickets).map((saved) => saved.name),
      ['Critical open tickets'],
    );

    // Export every row as CSV to a file of the workspace.
    const target = vscode.Uri.joinPath(workspaceRoot(), 'critical.csv');
    user().answerSaveDialog(target);
    await query.click('#export-csv');
    await user().waitForMessage(/^Exported [\d,]+ rows to critical\.csv\.$/, { level: 'info', timeoutMs: 30_000 });
    const csv = new TextDecoder().decode(await vscode.workspace.fs.readFile(target));
    const lines = csv.split('\r\n').filter((line) => line !== '');
    assert.equal(lines.length, expected.data.length + 1, 'a header and every row');
    assert.match(lines[0], /^Record id,Ticket no\.,Subject,/);
    assert.ok(lines[1].startsWith(`${expected.data[0].id},${expected.data[0].f30},`));
  });

  it('runs a saved query from the command', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const api = await testApi();
    const view = { portalId, appId: '201', viewId: '7' };
    await api.savedQueries.save(view, { name: 'High priority', filters: [{ column: '34', operator: 'equals', value: '3' }] });
    await vscode.commands.executeCommand('portal.runSavedQuery', { ...view, viewName: 'Open tickets', queryName: 'High priority' });
    const query = driver.webview('Open tickets');
    await waitFor(async () => /^[\d,]+ rows?$/.test(await query.text('#row-count', { timeoutMs: 20_000 })), {
      message: 'the saved query to run',
      timeoutMs: 60_000,
    });
    const expected = await apiGet<{ data: unknown[] }>('app/201/view/7?filter_columns=34&filter_operators=2&filter_values=3');
    assert.equal(await query.text('#row-count'), `${expected.data.length.toLocaleString('en-US')} rows`);
  });
  it("lets go of a query's rows when the user closes its tab", async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const api = await testApi();
    const view = { portalId, appId: '201', viewId: '7' };
    await api.savedQueries.save(view, { name: 'To close', filters: [] });
    await vscode.commands.executeCommand('portal.runSavedQuery', { ...view, viewName: 'Open tickets', queryName: 'To close' });
    const query = driver.webview('Open tickets');
    await waitFor(async () => /^[\d,]+ rows?$/.test(await query.text('#row-count', { timeoutMs: 20_000 })), {
      message: 'the saved query to run',
      timeoutMs: 60_000,
    });
    const before = api.logMark();
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await waitFor(
      () => api.logLinesSince(before).some((line) => line.includes('closed the query of view 7 of app 201: its rows are let go')),
      { message: 'the closed panel to let go of its rows' },
    );
    await api.savedQueries.delete(view, 'To close');
  });

  it('lists saved queries under their view in the explorer, runs one from there and deletes it', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const api = await testApi();
    const view = { portalId, appId: '201', viewId: '7' };
    await api.views.add(portalId, '201', { viewId: '7', name: 'Open tickets' });
    await api.savedQueries.save(view, { name: 'Urgent', filters: [{ column: '34', operator: 'equals', value: '3' }] });
    const viewNode = await path(portalId, 'Support', 'Tickets', 'Views', 'Open tickets');
    const shown = await children(viewNode);
    const first = shown.find((node) => node.kind === 'savedQuery' && node.queryName === 'Urgent');
    assert.ok(first, 'the saved query is listed under its view');
    const saved = shown.filter((node) => node.kind === 'savedQuery').length;
    assert.ok(
      shown.slice(0, saved).every((node) => node.kind === 'savedQuery'),
      "saved queries come first, before the view's own items",
    );
    const queryItem = await item(first);
    assert.deepEqual(
      [labelOf(queryItem), queryItem.contextValue, queryItem.description],
      ['Urgent', 'portal.savedQuery', 'saved query · 1 filter'],
    );

    // A click runs the item's command: the query panel opens on the view and runs the saved filters.
    assert.ok(queryItem.command, 'the saved query item runs something when clicked');
    await vscode.commands.executeCommand(queryItem.command.command, ...(queryItem.command.arguments ?? []));
    const query = driver.webview('Open tickets');
    await waitFor(async () => /^[\d,]+ rows?$/.test(await query.text('#row-count', { timeoutMs: 20_000 })), {
      message: 'the saved query to run',
      timeoutMs: 60_000,
    });
    const expected = await apiGet<{ data: unknown[] }>('app/201/view/7?filter_columns=34&filter_operators=2&filter_values=3');
    assert.equal(await query.text('#row-count'), `${expected.data.length.toLocaleString('en-US')} rows`);

    // Delete Saved Query (its context menu) asks first, then the item goes.
    user().answerMessage('Delete', /Delete the saved query "Urgent"/);
    await vscode.commands.executeCommand('portal.deleteSavedQuery', first);
    assert.equal(api.savedQueries.get(view, 'Urgent'), undefined);
    await waitFor(async () => (await children(viewNode)).every((node) => node.kind !== 'savedQuery' || node.queryName !== 'Urgent'), {
      message: 'the saved query to leave the tree',
    });
  });
});
