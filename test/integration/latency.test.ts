// Against a portal 200 ms away (the emulator's latencyMs), no action waits for two round trips in
// sequence where one would do: opening a record is one round trip (its app's columns fetched beside it),
// expanding a view one, saving two (the conflict check, then the update). Counted from the emulator's
// request log (support/roundTrips.ts), not timed.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { afterFreshCopy, openRecord, requestMark, setField } from './support/documents';
import { emulatorControl } from './support/emulator';
import { children, path } from './support/explorer';
import { testApi } from './support/extension';
import { useScriptedPrompter } from './support/prompter';
import { describeRequests, requestLogSince, sequentialRoundTrips } from './support/roundTrips';
import { waitFor } from './support/wait';
import { useConnectedPortal } from './documents/support';

describe('round trips against a portal 200 ms away', function () {
  this.timeout(60_000);
  useScriptedPrompter();
  const portal = useConnectedPortal();
  beforeEach(async () => emulatorControl('POST', 'config', { latencyMs: 200 }));
  afterEach(async () => emulatorControl('POST', 'config', { latencyMs: 0 }));

  /** The data requests of the action since `mark` (sign-in's token requests are not the action's). */
  async function actionRequests(mark: number, settleMs = 1_500): Promise<Awaited<ReturnType<typeof requestLogSince>>> {
    await new Promise((resolve) => setTimeout(resolve, settleMs)); // what the editor asks after showing it counts too
    return (await requestLogSince(mark)).filter((request) => !request.path.includes('/oauth2/'));
  }

  it('opens a record with one round trip, its columns fetched beside it', async () => {
    // The app's columns are not known yet. The refresh also has the Portal view redraw (VS Code does it
    // ~200 ms later): the portal's sites are read now, so that what it draws then asks the portal nothing
    // and every request after the mark is the opening's.
    const api = await testApi();
    api.catalog.refresh(portal(), '102');
    await api.catalog.sites(portal());
    const mark = await requestMark();
    await openRecord(portal(), '102', '4');
    // Every data request the opening caused, whatever part of the extension made it (the document, its
    // schema, the tree, the status bar...), counts: not only the record's and its columns'.
    const requests = await actionRequests(mark);
    assert.ok(
      requests.some((request) => request.path === '/api/v1/app/102/columns'),
      describeRequests(requests),
    );
    assert.ok(
      requests.some((request) => request.path === '/api/v1/app/102/record/4'),
      describeRequests(requests),
    );
    assert.equal(sequentialRoundTrips(requests), 1, describeRequests(requests));
  });

  it('expands a view with one round trip', async () => {
    const api = await testApi();
    await api.views.add(portal(), '102', { viewId: '3', name: 'All orders' });
    const view = await path(portal(), 'Operations', 'Orders', 'Views', 'All orders');
    api.rows.drop(portal());
    const mark = await requestMark();
    const records = await children(view);
    assert.ok(records.length >= 8);
    const requests = await actionRequests(mark, 300);
    assert.equal(sequentialRoundTrips(requests), 1, describeRequests(requests));
  });

  it('saves with two round trips: the conflict check, then the update', async () => {
    const document = await openRecord(portal(), '102', '1');
    await setField(document, 'f11', 'Standing desks');
    await afterFreshCopy();
    const mark = await requestMark();
    await document.save();
    await waitFor(() => !document.isDirty, { message: 'the document to be saved' });
    const requests = await actionRequests(mark, 300);
    assert.deepEqual(
      requests.map((request) => request.method),
      ['GET', 'PUT'],
      describeRequests(requests),
    );
    assert.equal(sequentialRoundTrips(requests), 2, describeRequests(requests));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
