// My Records against the emulator: with the user's e-mail set, the node under the portal lists exactly the
// records whose USER columns hold it, across the added views, grouped by app with counts, and reads them
// with a USER filter only (the request log shows no view read whole). Without an e-mail, expanding it asks
// for one, and a dismissed question leaves a hint that sets it. It can be watched like a view.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { LoggedRequest } from '../emulator/requestLog';
import { emulator, emulatorControl, resetEmulator } from './support/emulator';
import { children, emulatorPortal, freshExplorer, item, labelOf, labels, lastRequestSeq, portalNode } from './support/explorer';
import { testApi } from './support/extension';
import { useScriptedPrompter } from './support/prompter';
import { waitFor } from './support/wait';

const CUSTOMERS = '101';
const ORDERS = '102';
const TICKETS = '201';
const ME = 'myrecords@example.com';
const OTHER = 'someone.else@example.com';
const VIEW_READ = /^\/api\/v1\/app\/[^/]+\/view\/[^/]+$/;

const meSetting = (email: string | undefined): Thenable<void> =>
  vscode.workspace
    .getConfiguration()
    .update('portal.me.email', email ? { [emulator().base_url.replace(/\/+$/, '')]: email } : undefined, vscode.ConfigurationTarget.Global);

async function myRecordsNode(portalId: string) {
  const mine = (await children(await portalNode(portalId))).find((node) => node.kind === 'myRecords');
  assert.ok(mine, 'the portal shows My Records');
  return mine;
}

/** The view reads the emulator received after `seq`. */
async function viewReadsSince(seq: number): Promise<LoggedRequest[]> {
  const since = await emulatorControl<LoggedRequest[]>('GET', `requests?since=${seq}`);
  return since.filter((request) => VIEW_READ.test(request.path));
}

describe('My Records', function () {
  this.timeout(90_000);
  const user = useScriptedPrompter();
  let portalId = '';

  beforeEach(async () => {
    await resetEmulator();
    portalId = await emulatorPortal();
    await freshExplorer(portalId);
    const api = await testApi();
    await api.views.add(portalId, CUSTOMERS, { viewId: '1', name: 'All customers' });
    await api.views.add(portalId, ORDERS, { viewId: '3', name: 'All orders' });
    await api.views.add(portalId, TICKETS, { viewId: '6', name: 'All tickets' });
    const client = api.portals.client(portalId);
    // The user's: two tickets (Assignee) and one order (Owner); a customer is someone else's.
    await client.updateRecord(TICKETS, '2', { f40: ME });
    await client.updateRecord(TICKETS, '4', { f40: `${OTHER},${ME}` });
    await client.updateRecord(TICKETS, '5', { f40: OTHER });
    await client.updateRecord(ORDERS, '1', { f22: ME });
    await client.updateRecord(CUSTOMERS, '1', { f7: OTHER });
  });

  afterEach(async () => {
    const api = await testApi();
    for (const view of api.watched.list()) await api.watched.unwatch(view);
    await meSetting(undefined);
    await vscode.workspace.getConfiguration().update('portal.watch.intervalSeconds', undefined, vscode.ConfigurationTarget.Global);
    await freshExplorer(portalId);
    await resetEmulator();
  });

  it('lists exactly the records whose USER columns hold the e-mail, by app with counts, from filtered reads', async () => {
    await meSetting(ME);
    const api = await testApi();
    const mine = await myRecordsNode(portalId);
    const seq = await lastRequestSeq();
    const groups = await children(mine);
    assert.deepEqual(await labels(groups), ['Orders', 'Tickets'], 'grouped by app; Customers holds none of them');
    assert.deepEqual(
      await Promise.all(groups.map(async (group) => (await item(group)).description)),
      ['1 record', '2 records'],
      'each app with its count',
    );
    const ids = await Promise.all(
      groups.map(async (group) => (await children(group)).map((node) => (node.kind === 'myRecord' ? node.recordId : node.id))),
    );
    assert.deepEqual(ids, [['1'], ['2', '4']]);
    assert.equal((await item(mine)).description, '3 records');

    const reads = await viewReadsSince(seq);
    assert.ok(reads.length >= 3, `one read per USER column of each added view: ${JSON.stringify(reads)}`);
    for (const read of reads) {
      const query = new URLSearchParams(read.query);
      assert.equal(query.get('filter_values'), ME, `a filtered read: ${read.path}?${read.query}`);
    }

    // What the portal holds, read whole by the test itself: exactly those records have ME in a USER column.
    const client = api.portals.client(portalId);
    for (const [appId, viewId, column, expected] of [
      [TICKETS, '6', 'f40', ['2', '4']],
      [ORDERS, '3', 'f22', ['1']],
      [CUSTOMERS, '1', 'f7', []],
    ] as const) {
      const whole = await client.streamView(appId, viewId, []);
      const holding = [...whole.rows.rows(0, whole.rows.length)]
        .filter((row) => (row.values[column] ?? '').split(',').includes(ME))
        .map((row) => row.id);
      whole.rows.release();
      assert.deepEqual(holding, expected, `app ${appId}'s records holding the e-mail`);
    }

    const record = (await children(groups[1]))[0];
    const shown = await item(record);
    assert.equal(shown.command?.command, 'portal.openRecord');
    assert.deepEqual(
      (shown.command?.arguments?.[0] as { recordId?: string } | undefined)?.recordId,
      '2',
      'a record opens as its document, as the tree records do',
    );
  });

  it('asks for the e-mail only when expanded, and a dismissed question leaves a hint that sets it', async () => {
    const seq = await lastRequestSeq();
    const mine = await myRecordsNode(portalId);
    const asked = (): number => user().prompts.filter((prompt) => prompt.kind === 'inputBox').length;
    assert.equal(asked(), 0, 'showing the node asks nothing');
    user().answerInputBox(undefined, /My Records/);
    const [hint] = await children(mine);
    assert.equal(asked(), 1, 'expanding it asks for the e-mail');
    const hintItem = await item(hint);
    assert.equal(labelOf(hintItem), 'Set your e-mail to see your records');
    assert.equal(hintItem.command?.command, 'portal.setMyEmail');
    assert.deepEqual(await viewReadsSince(seq), [], 'no e-mail, no reads');
    // Expanded again, the hint stays without asking again.
    await children(mine);
    assert.equal(asked(), 1);

    await meSetting(ME);
    assert.deepEqual(await labels(await children(mine)), ['Orders', 'Tickets']);
  });

  it('can be watched: Watch View on the node reads it with the USER filter and marks a new record of the user', async () => {
    await meSetting(ME);
    await vscode.workspace.getConfiguration().update('portal.watch.intervalSeconds', 2, vscode.ConfigurationTarget.Global);
    const api = await testApi();
    const mine = await myRecordsNode(portalId);
    const seq = await lastRequestSeq();
    await vscode.commands.executeCommand('portal.watchView', mine);
    const watched = { portalId, appId: '*', viewId: 'my-records' };
    assert.ok(api.watched.isWatched(watched));
    await waitFor(() => api.watched.hasBaseline(watched), { message: 'the first read of My Records', timeoutMs: 30_000 });
    assert.match(String((await item(mine)).description), /watching/);
    await api.portals.client(portalId).updateRecord(TICKETS, '7', { f40: ME });
    await waitFor(() => api.watched.marks.markOf({ portalId, appId: TICKETS, recordId: '7' }) === 'new', {
      message: "the watched read marks the user's new record",
      timeoutMs: 30_000,
    });
    for (const read of await viewReadsSince(seq))
      assert.equal(new URLSearchParams(read.query).get('filter_values'), ME, `a filtered read: ${read.path}?${read.query}`);
  });
});
