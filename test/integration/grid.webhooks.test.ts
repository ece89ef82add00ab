// An open grid when the portal's webhooks fire for many of its rows at once (someone else changing 40
// tickets, or the echoes of a big save): the rows follow, read through the grid's refresh queue, not with
// one GET per event all at once, which a real portal's rate limit refuses. The emulator's request log
// shows it: the record GETs overlap (each answered 300 ms late, so overlap is plain whatever the machine's
// speed), never more than 4 at once, and the records waiting are read with one read of the view.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { LoggedRequest } from '../emulator/requestLog';
import { requestMark } from './support/documents';
import { BROWSER_TAG, driver } from './support/driver';
import { emulatorControl, resetEmulator } from './support/emulator';
import { emulatorPortal } from './support/explorer';
import { testApi } from './support/extension';
import { liveGrid } from './support/grid';
import { useScriptedPrompter } from './support/prompter';
import { describeRequests, requestLogSince } from './support/roundTrips';
import { waitFor } from './support/wait';
import {
  finishedDeliveries,
  registerEmulatorWebhook,
  setSecretThroughCommand,
  startReceiver,
  useFreePortReceiver,
  WEBHOOK_SECRET,
} from './support/webhooks';

const TICKETS = '201';
const ALL_TICKETS = '6';
const PAGE = 'All tickets';
const ROWS = 100;
const CHANGED = 40;
/** Two requests that touch for less than this were not sent beside each other (timestamps are whole ms). */
const SLACK_MS = 20;

/** The most requests of `requests` the portal was answering at the same moment. */
function mostAtOnce(requests: readonly LoggedRequest[]): number {
  const spans = requests.map((request) => ({ end: Date.parse(request.time), start: Date.parse(request.time) - request.duration_ms }));
  return Math.max(
    0,
    ...spans.map((span) => spans.filter((other) => other.start <= span.start && span.start < other.end - SLACK_MS).length),
  );
}

describe(`an open grid when webhooks fire for many of its rows ${BROWSER_TAG}`, function () {
  this.timeout(90_000);
  const user = useScriptedPrompter();
  useFreePortReceiver();

  beforeEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await resetEmulator();
    await emulatorControl('POST', 'config', { bigViewRecords: ROWS });
  });
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await resetEmulator();
  });

  it(`follows ${CHANGED} rows someone else changed at once with never more than 4 GETs at a time, the rows waiting read with one read of the view`, async () => {
    const api = await testApi();
    const portalId = await emulatorPortal();
    await setSecretThroughCommand(user(), portalId, WEBHOOK_SECRET);
    const url = await startReceiver(portalId);
    await registerEmulatorWebhook(url, { appId: TICKETS, secret: WEBHOOK_SECRET, events: ['record.updated'] });
    await vscode.commands.executeCommand('portal.openViewAsGrid', { portalId, appId: TICKETS, viewId: ALL_TICKETS, viewName: PAGE });
    await driver.webview(PAGE).waitFor('#grid-0-1', { timeoutMs: 30_000 });
    const live = await liveGrid();
    assert.ok(live, 'the grid in front');
    await waitFor(() => live.loadState.state === 'done', { message: 'every row in', timeoutMs: 30_000 });
    assert.equal(live.model.rowCount, ROWS);
    const subject = live.model.columns.find((column) => column.name === 'Subject')?.key ?? '';
    assert.ok(subject, 'the Subject column');

    // Every record's GET is answered 300 ms late: reads sent together are seen together in the log.
    await emulatorControl('POST', 'faults', { path: `^/api/v1/app/${TICKETS}/record/`, method: 'GET', count: -1, latency_ms: 300 });
    const mark = await requestMark();
    // Someone else changes 40 tickets at once; the portal's webhooks say so, one delivery each.
    const changed = Array.from({ length: CHANGED }, (_, at) => String(at + 1));
    const client = api.portals.client(portalId);
    await Promise.all(
      changed.map((recordId) => client.updateRecord(TICKETS, recordId, { [subject]: `Changed by someone else ${recordId}` })),
    );
    await finishedDeliveries(CHANGED);
    await waitFor(
      () => changed.every((recordId) => live.model.changeSet.value(recordId, subject) === `Changed by someone else ${recordId}`),
      {
        message: 'every changed row shown as the portal has it',
        timeoutMs: 30_000,
      },
    );
    await driver.screenshot('grid-after-webhooks');

    const requests = (await requestLogSince(mark)).filter((request) => request.method === 'GET');
    const gets = requests.filter((request) => request.path.startsWith(`/api/v1/app/${TICKETS}/record/`));
    assert.ok(mostAtOnce(gets) <= 4, `at most 4 GETs at once: ${describeRequests(gets)}`);
    assert.ok(gets.length < CHANGED, `not one GET per event: ${describeRequests(gets)}`);
    assert.ok(
      requests.some((request) => request.path === `/api/v1/app/${TICKETS}/view/${ALL_TICKETS}`),
      `the rows waiting read with the view: ${describeRequests(requests)}`,
    );
    assert.ok(!api.logLines().some((line) => /refreshing row .* failed/.test(line)), 'no refresh failed');
  });
});
