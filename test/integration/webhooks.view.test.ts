// The Webhook Events view as the user sees it in the workbench (kept as a screenshot), and the payload
// document that cannot be typed into.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { BROWSER_TAG, driver, type TreeItemRow } from './support/driver';
import { resetEmulator } from './support/emulator';
import { emulatorPortal } from './support/explorer';
import { testApi } from './support/extension';
import { useScriptedPrompter } from './support/prompter';
import { waitFor } from './support/wait';
import {
  deliver,
  finishedDeliveries,
  payload,
  registerEmulatorWebhook,
  setSecretThroughCommand,
  startReceiver,
  useFreePortReceiver,
  WEBHOOK_SECRET,
} from './support/webhooks';

async function rows(): Promise<TreeItemRow[]> {
  return driver.treeItems('Webhook Events');
}

describe(`the Webhook Events view ${BROWSER_TAG}`, function () {
  this.timeout(60_000);
  const user = useScriptedPrompter();

  useFreePortReceiver();
  after(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));
  beforeEach(resetEmulator);

  it('lists the events newest first, opens one into its payload, and shows the payload read-only', async () => {
    const api = await testApi();
    const portalId = await emulatorPortal();
    await vscode.commands.executeCommand('portal.clearWebhookEvents');
    await setSecretThroughCommand(user(), portalId, WEBHOOK_SECRET);
    const url = await startReceiver(portalId);
    await registerEmulatorWebhook(url, { secret: WEBHOOK_SECRET });
    const client = api.portals.client(portalId);
    const created = await client.createRecord('101', { f2: 'Screenshot Ltd', f3: 'shot@example.com' });
    await finishedDeliveries(1);
    await client.updateRecord('101', created.id ?? '', { f6: '3' });
    await client.addComment('101', created.id ?? '', 'Looks good');
    await finishedDeliveries(3);
    assert.equal(
      (await deliver(url, payload('record.updated', '1'), { 'x-portal-event': 'record.updated' })).status,
      401,
      'an unsigned delivery, refused',
    );

    const [, comment] = api.webhookEvents.getChildren();
    // The explorer, expanded by earlier suites, would leave this view a few rows: hide it meanwhile.
    await vscode.commands.executeCommand('portal.explorer.toggleVisibility');
    try {
      await vscode.commands.executeCommand('portal.webhookEvents.focus');
      await waitFor(async () => (await rows()).length === 4, { message: 'four events in the view' });
      const shown = await rows();
      assert.deepEqual(
        shown.map((row) => row.label),
        ['record.updated', 'comment.created', 'record.updated', 'record.created'],
      );
      assert.match(shown[0].description, /^refused 401 · /);
      assert.match(shown[3].description, new RegExp(`^Customers · record ${created.id} · `));

      await api.webhookEventsView.reveal(comment, { expand: true, select: true, focus: true });
      await waitFor(async () => (await rows()).some((row) => row.level === 2 && row.label === 'comment'), {
        message: 'the payload fields of the comment event',
      });
      const fieldRows = (await rows()).filter((row) => row.level === 2).map((row) => row.label);
      assert.deepEqual(fieldRows, ['event', 'app_id', 'record_id', 'data', 'comment', 'occurred_at', 'delivery_id']);
      await driver.screenshot('webhook-events');
    } finally {
      await vscode.commands.executeCommand('portal.explorer.toggleVisibility');
    }

    // Open Payload: typing changes nothing (a read-only document).
    const uri = await vscode.commands.executeCommand<vscode.Uri>('portal.openWebhookPayload', comment);
    const document = await waitFor(
      () =>
        vscode.window.activeTextEditor?.document.uri.toString() === uri.toString() ? vscode.window.activeTextEditor.document : undefined,
      {
        message: 'the payload document',
      },
    );
    const text = document.getText();
    assert.equal(JSON.parse(text).comment.comment, 'Looks good');
    await waitFor(() => driver.focusedWithin('.monaco-editor'), { message: 'the focus in the payload editor' });
    await driver.type('typed');
    await driver.press('Enter');
    await driver.screenshot('webhook-payload');
    assert.equal(document.getText(), text, 'the payload document is read-only');
    assert.equal(document.isDirty, false);
  });
});
