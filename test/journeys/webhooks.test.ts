// Journey (g): live changes by webhook. Start the receiver from the palette, copy the Payload URL from its
// message, set a Secret Key, register the URL with the same key in the portal (the emulator's test
// interface stands for the portal's Webhook Settings page), then another user changes a record: the open
// document and the tree follow, and the walkthrough's "Set up a webhook" step is checked.
import * as assert from 'node:assert/strict';
import { changeRecordAsAnotherUser, emulatorCall } from './support/emulator';
import { collapseTree, openRecordRow, rowAt, showView } from './support/tree';
import { openWalkthrough, waitForStepChecked } from './support/walkthrough';
import {
  answerInput,
  clickNotificationButton,
  closeAllEditors,
  freshStart,
  notification,
  pick,
  runCommand,
  showPortalView,
} from './support/workbench';
import { page, screenshots } from './support/world';

const ORDERS = ['Demo portal', 'Operations', 'Orders'];

const SECRET = 'whsec-journey-g-7d1e';

describe('Journey (g): a change in the portal arrives by webhook', function () {
  this.timeout(240_000);

  before(async () => {
    await freshStart();
  });

  after(async () => {
    await emulatorCall('POST', 'reset');
    await runCommand('Portal: Stop Webhook Receiver').catch(() => page().keyboard.press('Escape'));
    await closeAllEditors();
  });

  it('start the receiver, register its URL, change a record in the portal: document and tree refresh', async () => {
    const shot = screenshots('g-webhook');
    // As a person does: the demo's portal is in the view (it connects on first use) before anything else.
    await showPortalView();
    await rowAt(['Demo portal']);
    await runCommand('Portal: Start Webhook Receiver');
    await clickNotificationButton(/webhook receiver is (already )?listening/, /^Copy Payload URL/);
    const copied = page()
      .locator('.notification-list-item-message', { hasText: /Copied the Payload URL/ })
      .first();
    const chooser = page().locator('.quick-input-widget:visible');
    await copied.or(chooser).first().waitFor();
    if (await chooser.isVisible()) await pick(/portal/i, 'Demo portal');
    await notification(/Copied the Payload URL for "Demo portal"/);
    const payloadUrl = await page().evaluate<string>('navigator.clipboard.readText()');
    assert.match(payloadUrl, /^http:\/\/127\.0\.0\.1:\d+\/portal\/demo-portal$/);
    await shot('receiver started, URL copied');
    // Unsigned deliveries are refused by default: the same Secret Key here and in the portal's webhook.
    await runCommand('Portal: Set Webhook Secret Key…');
    // With several portals signed in it first asks which one, under a title that says "Secret Key" too (as
    // does the palette, closing): the key's own input is the one titled for the portal.
    const keyInput = page().locator('.quick-input-widget:visible', { hasText: /Webhook Secret Key for "Demo portal"/ });
    const portalRow = page().locator('.quick-input-widget:visible .monaco-list-row', { hasText: 'Demo portal' });
    await keyInput.or(portalRow).first().waitFor();
    if (!(await keyInput.isVisible())) await pick(/portal/i, 'Demo portal');
    await answerInput(/Webhook Secret Key for "Demo portal"/, SECRET);
    await notification(/Secret Key for "Demo portal" is saved/);
    await emulatorCall('POST', 'webhooks', { app_id: '102', payload_url: payloadUrl, secret: SECRET });

    await collapseTree();
    const view = await showView(ORDERS, '3');
    await openRecordRow(view, 'Office chairs');
    await shot('record open');

    await changeRecordAsAnotherUser('102', '1', { f11: 'Office chairs, ergonomic' });
    await page().locator('.part.editor .view-lines', { hasText: 'Office chairs, ergonomic' }).first().waitFor();
    await rowAt([...view, 'Office chairs, ergonomic']);
    await shot('document and tree refreshed');
    const deliveries = await emulatorCall<{ state: string; status: number | null }[]>('GET', 'deliveries');
    assert.ok(
      deliveries.some((delivery) => delivery.state === 'delivered'),
      `a delivery reached the receiver: ${JSON.stringify(deliveries)}`,
    );

    await closeAllEditors();
    await openWalkthrough();
    await shot('walkthrough');
    await waitForStepChecked('webhooks');
  });
});
