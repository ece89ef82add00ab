// A watched view against the emulator: someone else changes a record and the next watched read (the
// interval set short) finds it without any webhook: the row marked, the Portal view's badge counting it, the
// record bus told (an open grid and documents follow it as a webhook's), and the user's own record told in
// a notification with what changed. Stop Watching ends the reads and the marks.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { openRecord } from './support/documents';
import { emulator, emulatorControl, resetEmulator } from './support/emulator';
import { child, emulatorPortal, freshExplorer, item, path } from './support/explorer';
import { testApi } from './support/extension';
import { useScriptedPrompter } from './support/prompter';
import { waitFor } from './support/wait';

const TICKETS = '201';
const ALL_TICKETS = '6';
const INTERVAL_SECONDS = 2;
const ME = 'watcher@example.com';

describe('watched views', function () {
  this.timeout(90_000);
  const user = useScriptedPrompter();
  let portalId = '';

  beforeEach(async () => {
    await resetEmulator();
    await emulatorControl('POST', 'config', { bigViewRecords: 40 });
    const configuration = vscode.workspace.getConfiguration();
    await configuration.update('portal.watch.intervalSeconds', INTERVAL_SECONDS, vscode.ConfigurationTarget.Global);
    await configuration.update('portal.me.email', { [emulator().base_url.replace(/\/+$/, '')]: ME }, vscode.ConfigurationTarget.Global);
    portalId = await emulatorPortal();
    await freshExplorer(portalId);
  });

  afterEach(async () => {
    const api = await testApi();
    for (const view of api.watched.list()) await api.watched.unwatch(view);
    const configuration = vscode.workspace.getConfiguration();
    await configuration.update('portal.watch.intervalSeconds', undefined, vscode.ConfigurationTarget.Global);
    await configuration.update('portal.me.email', undefined, vscode.ConfigurationTarget.Global);
    await resetEmulator();
  });

  it('finds a record someone else changed at the next interval, without any webhook', async () => {
    const api = await testApi();
    const view = { portalId, appId: TICKETS, viewId: ALL_TICKETS, viewName: 'All tickets' };
    await api.views.add(portalId, TICKETS, { viewId: ALL_TICKETS, name: 'All tickets' });
    // Ticket 3 is the user's: its assignee is the user's address.
    await api.portals.client(portalId).updateRecord(TICKETS, '3', { f31: 'Printer on fire', f40: ME });
    await vscode.commands.executeCommand('portal.watchView', view);
    assert.ok(api.watched.isWatched(view));
    await waitFor(() => api.watched.hasBaseline(view), { message: 'the first read (the baseline)', timeoutMs: 30_000 });
    const viewNode = await path(portalId, 'Support', 'Tickets', 'Views', 'All tickets');
    assert.match(String((await item(viewNode)).description), /watching/);
    assert.equal(api.watched.marks.count, 0, 'the first read marks nothing');

    const heard: string[] = [];
    const listener = api.recordEvents.onDidChange((change) => {
      if (change.origin === 'watch') heard.push(`${change.kind} ${change.recordId}`);
    });
    try {
      // Someone else: straight to the portal, past this window's record bus.
      await api.portals.client(portalId).updateRecord(TICKETS, '3', { f31: 'Changed by someone else' });
      const record = { portalId, appId: TICKETS, recordId: '3' };
      await waitFor(() => api.watched.marks.markOf(record) === 'changed', {
        message: 'the watched read marks the changed row',
        timeoutMs: 10 * INTERVAL_SECONDS * 1000,
      });
      assert.equal(api.watched.marks.count, 1);
      assert.equal(api.explorerView.badge?.value, 1, 'the Portal view counts it on its badge');
      assert.deepEqual(heard, ['updated 3'], 'the record bus hears of it as of a webhook');
      const deliveries = await emulatorControl<unknown[]>('GET', 'deliveries');
      assert.deepEqual(deliveries, [], 'no webhook was involved');
      await waitFor(
        () =>
          user().messages.some((message) =>
            /^Changed by someone else changed: Subject Printer on fire → Changed by someone else$/.test(message.message),
          ),
        {
          message: `a notification of the user's own record (${JSON.stringify(user().messages.map((message) => message.message))})`,
        },
      );
      const told = user().messages.find((message) => /changed: Subject/.test(message.message));
      assert.deepEqual(told?.actions, ['Open']);
    } finally {
      listener.dispose();
    }

    const shown = await child(viewNode, 'Changed by someone else').catch(() => undefined);
    assert.ok(shown, 'the tree shows the row as the portal has it now');

    // Record History kept what the watched read found, when it found it, though the record was not open.
    const openedAt = Date.now();
    await openRecord(portalId, TICKETS, '3');
    const history = api.recordHistory;
    await waitFor(() => history.record?.recordId === '3', { message: 'Record History to follow ticket 3' });
    const found = await waitFor(
      async () => (await history.getChildren()).find((node) => node.version.cause === 'watch' && node.version.at < openedAt),
      { message: 'a version the watched read found, from before the record was opened' },
    );
    assert.match(found.version.text, /"f31": "Changed by someone else"/);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');

    await vscode.commands.executeCommand('portal.stopWatching', view);
    assert.equal(api.watched.isWatched(view), false);
    assert.equal(api.watched.marks.count, 0, 'its marks go with it');
    assert.equal(api.explorerView.badge, undefined);
  });
});
