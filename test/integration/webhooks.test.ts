// Webhooks end to end in a real VS Code: the receiver started by its command on a free port, the emulator's
// webhook pointed at the Payload URL it shows, the Secret Key set through its command; records created,
// updated and deleted through the portal's API arrive as events, refresh the Portal explorer, and are
// refused when unsigned, tampered or too large, without harm to the receiver.
import * as assert from 'node:assert/strict';
import { createServer } from 'node:net';
import * as vscode from 'vscode';
import type { Logger } from '../../src/log';
import type { EventsNode } from '../../src/webhooks/eventsTree';
import type { LiveRefresh } from '../../src/webhooks/liveRefresh';
import type { WebhookSecrets } from '../../src/webhooks/secrets';
import type { WebhookService } from '../../src/webhooks/service';
import { emulator, resetEmulator } from './support/emulator';
import { children, emulatorPortal, freshExplorer, item, labelOf, path } from './support/explorer';
import { testApi } from './support/extension';
import { removePortal } from './support/portals';
import { useScriptedPrompter } from './support/prompter';
import { waitFor } from './support/wait';
import {
  acceptUnsigned,
  deliver,
  finishedDeliveries,
  payload,
  registerEmulatorWebhook,
  setSecretThroughCommand,
  setWebhookSetting,
  sign,
  startReceiver,
  stopReceiver,
  unsignedKey,
  useFreePortReceiver,
  waitForWebhookEvent,
  webhookEvents,
  WEBHOOK_SECRET,
} from './support/webhooks';

/** A port free a moment ago (the emulator and code-server hold theirs). */
function freePort(): Promise<number> {
  return new Promise<number>((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Resolves when `port` can be listened on again (and lets it go), rejects when something still holds it. */
function portIsFree(port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
  });
}

const silent: Logger = {
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

async function eventLabels(nodes: readonly EventsNode[]): Promise<string[]> {
  const api = await testApi();
  return Promise.all(nodes.map(async (node) => labelOf(await api.webhookEvents.getTreeItem(node))));
}

describe('webhooks', function () {
  this.timeout(60_000);
  const user = useScriptedPrompter();
  let portalId = '';

  useFreePortReceiver('signatureHeader');

  beforeEach(async () => {
    await resetEmulator();
    portalId = await emulatorPortal();
    await freshExplorer(portalId);
    const api = await testApi();
    await api.context.secrets.delete(`portal.webhookSecret.${portalId}`);
    await acceptUnsigned(portalId, false);
    await vscode.commands.executeCommand('portal.clearWebhookEvents');
  });

  it('starts on loopback, shows the Payload URL with Copy, and counts in the status bar', async () => {
    const api = await testApi();
    user().answerMessage('Copy Payload URL', /Payload URL/);
    const url = await startReceiver(portalId);
    assert.match(url, new RegExp(`^http://127\\.0\\.0\\.1:\\d+/portal/${portalId}$`));
    const shown = await user().waitForMessage(/Payload URL for "Emulator"/, { level: 'info' });
    assert.ok(shown.message.includes(url), shown.message);
    assert.ok(shown.message.includes('Webhook Settings'), shown.message);
    assert.deepEqual(shown.actions, ['Copy Payload URL', 'Set Secret Key'], 'no Secret Key yet: offered');
    await waitFor(() => user().clipboard.includes(url), { message: 'the Payload URL on the clipboard' });
    assert.equal(api.webhookStatusBar.visible, true);
    assert.equal(api.webhookStatusBar.item.text, '$(radio-tower) Webhooks: 0');

    // Only the loopback interface: the same port on another address of the machine is not ours.
    const state = api.webhooks.state();
    assert.equal(state.kind === 'running' && state.host, '127.0.0.1');

    await stopReceiver();
    assert.equal(api.webhooks.state().kind, 'stopped');
    assert.equal(api.webhookStatusBar.visible, false);
    await assert.rejects(deliver(url, payload('record.updated', '1')), 'nothing listens after Stop');
  });

  it('says so when its port is taken, and shows the failure in the status bar', async () => {
    const api = await testApi();
    const taken = Number(new URL(emulator().base_url).port);
    try {
      await setWebhookSetting('port', taken);
      const linesBefore = api.logMark();
      await vscode.commands.executeCommand('portal.startWebhookReceiver');
      const shown = await user().waitForMessage(/port is in use/, { level: 'error' });
      assert.match(shown.message, new RegExp(`127\\.0\\.0\\.1:${taken}.*portal\\.webhooks\\.port`));
      assert.equal(api.logLinesSince(linesBefore).filter((line) => line.includes('port is in use')).length, 1, 'one log line');
      assert.equal(api.webhooks.state().kind, 'failed');
      assert.equal(api.webhookStatusBar.visible, true);
      assert.equal(api.webhookStatusBar.item.text, '$(warning) Webhooks');
      assert.equal(api.webhookStatusBar.item.command, 'portal.startWebhookReceiver');
    } finally {
      await setWebhookSetting('port', 0);
    }
    await startReceiver(portalId);
    assert.equal(api.webhookStatusBar.item.text, '$(radio-tower) Webhooks: 0');
  });

  it('keeps the Secret Key in SecretStorage only, and never logs it', async () => {
    const api = await testApi();
    // A key pasted with a space before it is refused by the input's check; the user types it again.
    user()
      .answerInputBox(` ${WEBHOOK_SECRET}`, /Secret Key/)
      .answerInputBox(WEBHOOK_SECRET, /Secret Key/);
    await vscode.commands.executeCommand('portal.setWebhookSecret', portalId);
    const prompt = user().prompts[user().prompts.length - 1];
    assert.match(prompt.validationMessages?.[0] ?? '', /spaces at its start or end/);
    assert.equal(await api.context.secrets.get(`portal.webhookSecret.${portalId}`), WEBHOOK_SECRET);
    await user().waitForMessage(/Secret Key for "Emulator" is saved/, { level: 'info' });
    assert.equal(
      api.logLines().some((line) => line.includes(WEBHOOK_SECRET)),
      false,
    );
    assert.equal(JSON.stringify(vscode.workspace.getConfiguration('portal')).includes(WEBHOOK_SECRET), false);

    // Empty removes it.
    await setSecretThroughCommand(user(), portalId, '');
    assert.equal(await api.context.secrets.get(`portal.webhookSecret.${portalId}`), undefined);
    await user().waitForMessage(/is removed/, { level: 'info' });

    // Removing the portal forgets its Secret Key with its other secrets.
    await setSecretThroughCommand(user(), portalId, WEBHOOK_SECRET);
    await removePortal(portalId);
    await waitFor(async () => (await api.context.secrets.get(`portal.webhookSecret.${portalId}`)) === undefined, {
      message: 'the Secret Key forgotten',
    });
  });

  it('moves to a new port when the port setting changes while it runs', async () => {
    const api = await testApi();
    await acceptUnsigned(portalId);
    const before = await startReceiver(portalId);
    const port = await freePort();
    try {
      await setWebhookSetting('port', port);
      await waitFor(() => api.webhooks.payloadUrl(portalId) === `http://127.0.0.1:${port}/portal/${portalId}`, {
        message: `the receiver on port ${port}`,
      });
      await user().waitForMessage(new RegExp(`now listens on 127\\.0\\.0\\.1:${port}\\. Update the Payload URL`), { level: 'info' });
      await assert.rejects(deliver(before, payload('record.updated', '1')), 'the old port is closed');
      assert.equal((await deliver(api.webhooks.payloadUrl(portalId) ?? '', payload('record.updated', '1'))).status, 204);
    } finally {
      await setWebhookSetting('port', 0);
    }
  });

  it('says so once when the port setting moves it to a port that is taken', async () => {
    const api = await testApi();
    await startReceiver(portalId);
    const taken = Number(new URL(emulator().base_url).port);
    const linesBefore = api.logMark();
    try {
      await setWebhookSetting('port', taken);
      const shown = await user().waitForMessage(/port is in use/, { level: 'error' });
      assert.match(shown.message, new RegExp(`127\\.0\\.0\\.1:${taken}`));
      assert.equal(api.webhooks.state().kind, 'failed');
      assert.equal(api.logLinesSince(linesBefore).filter((line) => line.includes('port is in use')).length, 1, 'one log line');
      assert.equal(user().messages.filter((message) => /port is in use/.test(message.message)).length, 1, 'one message');
    } finally {
      await setWebhookSetting('port', 0);
    }
  });

  it('lets its port go when disposed while it starts', async () => {
    const api = await testApi();
    const port = await freePort();
    // A second service of the extension's own class (the running one stays): tests import only types from src/.
    const Service = (api.webhooks as object).constructor as typeof WebhookService;
    const service = (): WebhookService =>
      new Service({
        portals: api.portals,
        secrets: {} as WebhookSecrets,
        liveRefresh: {} as LiveRefresh,
        log: silent,
        setSecretCommand: 'portal.setWebhookSecret',
      });
    try {
      await setWebhookSetting('port', port);
      // Disposed before the start has begun, then while the receiver is binding its port.
      for (const ticks of [0, 3]) {
        const disposed = service();
        const started = disposed.start();
        for (let tick = 0; tick < ticks; tick += 1) await Promise.resolve();
        disposed.dispose();
        assert.equal(await started, false, `a disposed service does not start (after ${ticks} ticks)`);
        assert.equal(disposed.state().kind, 'stopped');
        await portIsFree(port);
      }
    } finally {
      await setWebhookSetting('port', 0);
    }
  });

  it('shows created, updated and deleted records as events, newest first, and refreshes the explorer', async () => {
    const api = await testApi();
    await setSecretThroughCommand(user(), portalId, WEBHOOK_SECRET);
    const url = await startReceiver(portalId);
    await registerEmulatorWebhook(url, { secret: WEBHOOK_SECRET });
    await api.views.add(portalId, '101', { viewId: '1', name: 'All customers' });
    const view = await path(portalId, 'Operations', 'Customers', 'Views', 'All customers');
    assert.equal((await children(view)).length, 12);

    const client = api.portals.client(portalId);
    const created = await client.createRecord('101', { f2: 'Webhook Co', f3: 'hook@example.com' });
    const id = created.id ?? '';
    await waitForWebhookEvent((event) => event.event === 'record.created' && event.recordId === id, 'record.created');
    const recordLabels = async (): Promise<string[]> => Promise.all((await children(view)).map(async (node) => labelOf(await item(node))));
    await waitFor(async () => (await recordLabels()).includes('Webhook Co'), { message: 'the new record in the explorer' });

    await client.updateRecord('101', id, { f2: 'Webhook Company' });
    await waitForWebhookEvent((event) => event.event === 'record.updated', 'record.updated');
    await waitFor(async () => (await recordLabels()).includes('Webhook Company'), { message: 'the renamed record in the explorer' });

    await client.deleteRecord('101', id);
    await waitForWebhookEvent((event) => event.event === 'record.deleted', 'record.deleted');
    await waitFor(async () => !(await recordLabels()).some((label) => label.startsWith('Webhook Co')), {
      message: 'the deleted record gone from the explorer',
    });

    const events = await webhookEvents();
    assert.deepEqual(
      events.map((event) => [event.event, event.verdict, event.signed, event.recordId]),
      [
        ['record.deleted', 'accepted', true, id],
        ['record.updated', 'accepted', true, id],
        ['record.created', 'accepted', true, id],
      ],
    );
    assert.deepEqual(
      (await finishedDeliveries(3)).map((delivery) => delivery.status),
      [204, 204, 204],
    );

    // The view: newest first, each opening into its payload.
    const roots = api.webhookEvents.getChildren();
    assert.deepEqual(await eventLabels(roots), ['record.deleted', 'record.updated', 'record.created']);
    const updatedItem = await api.webhookEvents.getTreeItem(roots[1]);
    assert.match(String(updatedItem.description), new RegExp(`^Customers · record ${id} · `));
    assert.equal(updatedItem.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    const fields = api.webhookEvents.getChildren(roots[1]);
    assert.deepEqual(await eventLabels(fields), ['event', 'app_id', 'record_id', 'data', 'occurred_at', 'delivery_id']);
    const data = fields[3];
    const dataFields = api.webhookEvents.getChildren(data);
    const f2 = dataFields.find((node) => node.kind === 'field' && node.key === 'f2');
    assert.equal(f2 && (await api.webhookEvents.getTreeItem(f2)).description, '"Webhook Company"');

    // Open Payload: the JSON as received (that it cannot be typed into: webhooks.view.test.ts).
    const uri = await vscode.commands.executeCommand<vscode.Uri>('portal.openWebhookPayload', roots[1]);
    const document = await waitFor(
      () =>
        vscode.window.activeTextEditor?.document.uri.toString() === uri.toString() ? vscode.window.activeTextEditor.document : undefined,
      {
        message: 'the payload document',
      },
    );
    assert.equal(document.languageId, 'json');
    assert.deepEqual(JSON.parse(document.getText()), events[1].body);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');

    // One log line per event, without the values of the body or the signature.
    const lines = api.logLines().filter((line) => line.includes('[webhooks] Delivery'));
    // By app and record: the log keeps earlier tests' deliveries (another app's record of the same number among them).
    assert.equal(
      lines.filter((line) => line.includes(`app 101, record ${id})`) && /accepted 204, signed/.test(line)).length,
      3,
      lines.join('\n'),
    );
    assert.equal(
      api.logLines().some((line) => /Webhook Co|hook@example\.com|sha256=/.test(line)),
      false,
    );
    assert.equal(api.webhookStatusBar.item.text, '$(radio-tower) Webhooks: 3');
  });

  it('refuses unsigned, tampered and wrongly keyed deliveries with 401, and logs them', async () => {
    const api = await testApi();
    await setSecretThroughCommand(user(), portalId, WEBHOOK_SECRET);
    const url = await startReceiver(portalId);

    // The emulator's own webhook, sent unsigned and signed with another key: both refused.
    await registerEmulatorWebhook(url);
    await registerEmulatorWebhook(url, { secret: 'another-secret' });
    await api.portals.client(portalId).updateRecord('101', '1', { f4: '555 0101' });
    assert.deepEqual(
      (await finishedDeliveries(2)).map((delivery) => [delivery.state, delivery.status]),
      [
        ['failed', 401],
        ['failed', 401],
      ],
    );

    // By hand: no signature, and a body altered after signing.
    const body = payload('record.updated', '2', { f2: 'Tampered' });
    assert.equal((await deliver(url, body)).status, 401);
    assert.equal((await deliver(url, body.replace('Tampered', 'Tempered'), { 'x-portal-signature': sign(body) })).status, 401);
    assert.equal((await deliver(url, body, { 'x-portal-signature': sign(body) })).status, 204, 'the same body, signed, is taken');

    const events = await webhookEvents();
    assert.deepEqual(
      events.map((event) => [event.verdict, event.status]),
      [
        ['accepted', 204],
        ['refused', 401],
        ['refused', 401],
        ['refused', 401],
        ['refused', 401],
      ],
    );
    assert.ok(
      events.slice(1).every((event) => event.body === undefined),
      'refused bodies are not kept',
    );
    const refusedLines = api.logLines().filter((line) => line.startsWith('warn: [webhooks] Delivery') && line.includes('refused 401'));
    assert.equal(refusedLines.length, 4, refusedLines.join('\n'));
    assert.equal(
      api.logLines().some((line) => line.includes('Tampered') || line.includes('Tempered')),
      false,
    );
    assert.equal(api.webhookStatusBar.item.text, '$(radio-tower) Webhooks: 1 $(error) 4');
    const refusedItem = await api.webhookEvents.getTreeItem(api.webhookEvents.getChildren()[1]);
    assert.match(String(refusedItem.description), /^refused 401 · /);
    assert.equal(refusedItem.collapsibleState, vscode.TreeItemCollapsibleState.None);
  });

  it('refuses a 10 MB body with 413 and a body that is not JSON with 400, and goes on working', async () => {
    await acceptUnsigned(portalId);
    const url = await startReceiver(portalId);
    const big = Buffer.alloc(10 * 1024 * 1024, 0x20);
    const answer = await deliver(url, big);
    assert.equal(answer.status, 413);
    assert.match(answer.text, /larger than 1048576 bytes/);
    assert.equal((await deliver(url, 'this is not JSON')).status, 400);
    assert.equal((await deliver(url, payload('record.updated', '3'))).status, 204);
    const events = await webhookEvents();
    assert.deepEqual(
      events.map((event) => event.status),
      [204, 400, 413],
    );
    assert.equal((await testApi()).webhooks.state().kind, 'running');
  });

  it('refuses unsigned events of a portal without a Secret Key until the user accepts them, then warns in its status', async () => {
    const api = await testApi();
    const url = await startReceiver(portalId);
    await registerEmulatorWebhook(url);
    const client = api.portals.client(portalId);
    await client.updateRecord('101', '1', { f4: '555 0102' });
    await client.updateRecord('101', '2', { f4: '555 0103' });
    assert.deepEqual(
      (await finishedDeliveries(2)).map((delivery) => delivery.status),
      [401, 401],
      'refused: no Secret Key, unsigned not accepted',
    );
    const offer = await user().waitForMessage(/were refused: they are not signed, and no Secret Key is set/, { level: 'warn' });
    assert.deepEqual(offer.actions, ['Set Secret Key', 'Accept Unsigned']);
    assert.equal(
      user()
        .messagesOf('warn')
        .filter((message) => /were refused: they are not signed/.test(message)).length,
      1,
      'said once',
    );
    assert.equal(api.webhookStatusBar.item.backgroundColor, undefined, 'no unsigned portal yet');

    // The user accepts them (as answering "Accept Unsigned" does): taken, and the status warns.
    await api.webhooks.acceptUnsigned(portalId, true);
    assert.equal(await api.context.secrets.get(unsignedKey(portalId)), 'true');
    assert.equal((await deliver(url, payload('record.updated', '3'))).status, 204);
    assert.deepEqual(api.webhooks.unsignedPortals(), ['Emulator']);
    assert.match(
      String(api.webhookStatusBar.item.tooltip),
      /Unsigned deliveries are accepted for "Emulator": any program on this machine can send those events/,
    );
    assert.equal((api.webhookStatusBar.item.backgroundColor as { id?: string } | undefined)?.id, 'statusBarItem.warningBackground');

    // A Secret Key set ends it: unsigned refused again, no warning.
    await setSecretThroughCommand(user(), portalId, WEBHOOK_SECRET);
    assert.equal(await api.context.secrets.get(unsignedKey(portalId)), undefined);
    assert.equal((await deliver(url, payload('record.updated', '4'))).status, 401);
    assert.deepEqual(api.webhooks.unsignedPortals(), []);
    assert.equal(api.webhookStatusBar.item.backgroundColor, undefined);
  });

  it('ignores a repeated delivery: the same body again is answered 202 and not acted on', async () => {
    await acceptUnsigned(portalId);
    const url = await startReceiver(portalId);
    const body = payload('record.updated', '5');
    assert.equal((await deliver(url, body)).status, 204);
    assert.equal((await deliver(url, body)).status, 202);
    const events = await webhookEvents();
    assert.deepEqual(
      events.map((event) => [event.verdict, event.status]),
      [
        ['ignored', 202],
        ['accepted', 204],
      ],
    );
    assert.match(events[0].reason ?? '', /^A repeat of a delivery accepted \d+ s ago/);
  });

  it('follows the signature header setting without a restart', async () => {
    await setSecretThroughCommand(user(), portalId, WEBHOOK_SECRET);
    const url = await startReceiver(portalId);
    await setWebhookSetting('signatureHeader', 'X-Other-Signature');
    const body = payload('record.updated', '4');
    assert.equal((await deliver(url, body, { 'x-portal-signature': sign(body) })).status, 401);
    assert.equal((await deliver(url, body, { 'X-Other-Signature': sign(body) })).status, 204);
    await setWebhookSetting('signatureHeader', undefined);
    // Another body: the same one again would be a repeat (202, not acted on).
    const next = payload('record.updated', '5');
    assert.equal((await deliver(url, next, { 'x-portal-signature': sign(next) })).status, 204);
  });
});
