// The "Get started with Portal Explorer" walkthrough in the workbench: it opens from the Portal view's
// welcome and from its command, shows its six steps with a button each, and a step is checked off when
// the user has done what it asks.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { closeAllEditors, emulatorRecord, openRecord, setField } from '../support/documents';
import { BROWSER_TAG, driver } from '../support/driver';
import { resetEmulator } from '../support/emulator';
import { testApi } from '../support/extension';
import { connectEmulator, removeAllPortals } from '../support/portals';
import { useScriptedPrompter } from '../support/prompter';
import { waitFor } from '../support/wait';
import { setWebhookSetting, stopReceiver } from '../support/webhooks';

interface StepState {
  id: string;
  title: string;
  done: boolean;
}

const STEPS = ['register', 'addPortal', 'signIn', 'openRecord', 'queryView', 'webhooks'];

/** The walkthrough's steps as the page shows them: id (after the last "#"), title, checked or not. */
async function steps(): Promise<StepState[]> {
  return driver.evaluate<StepState[]>(`[...document.querySelectorAll('.gettingStartedContainer [data-step-id]')].map((el) => ({
    id: el.getAttribute('data-step-id').split('#').pop(),
    title: (el.querySelector('.step-title')?.textContent ?? '').trim(),
    done: !!el.querySelector('.codicon.complete, .codicon-getting-started-step-checked'),
  }))`);
}

async function step(id: string): Promise<StepState> {
  const found = (await steps()).find((candidate) => candidate.id === id);
  assert.ok(found, `the step ${id} is shown`);
  return found;
}

async function waitForWalkthrough(): Promise<StepState[]> {
  return waitFor(
    async () => {
      const shown = await steps();
      return shown.length === STEPS.length ? shown : undefined;
    },
    { message: 'the walkthrough "Get started with Portal Explorer" with its six steps' },
  );
}

/** "Developer: Reset Welcome Page Walkthrough Progress": every step unchecked, as on a first run. */
async function resetProgress(): Promise<void> {
  await vscode.commands.executeCommand('resetGettingStartedProgress');
}

/** Runs a command as a user does: F1, its title typed into the Command Palette, Enter. */
async function fromPalette(title: string): Promise<void> {
  await driver.press('F1');
  await waitFor(() => driver.focusedWithin('.quick-input-widget'), { message: 'the Command Palette to open' });
  await driver.type(title);
  await waitFor(
    async () => (await driver.texts('.quick-input-widget .quick-input-list .monaco-list-row.focused')).some((text) => text.includes(title)),
    {
      message: `"${title}" to be the first command offered`,
    },
  );
  await driver.press('Enter');
}

async function waitForStepDone(id: string): Promise<void> {
  await waitFor(async () => (await step(id)).done, { message: `the step ${id} to be checked off` });
}

describe(`the walkthrough ${BROWSER_TAG}`, function () {
  this.timeout(60_000);
  const user = useScriptedPrompter();
  beforeEach(resetEmulator);
  after(async () => {
    await closeAllEditors();
    await removeAllPortals();
  });

  it('opens from the welcome of the Portal view, with its six steps', async () => {
    await removeAllPortals();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.view.extension.portal');
    await driver.click('.pane-body .welcome-view-content .monaco-button:has-text("Try the Walkthrough")');
    const shown = await waitForWalkthrough();
    assert.deepEqual(
      shown.map((candidate) => candidate.id),
      STEPS,
    );
    const heading = (
      await driver.texts('.gettingStartedContainer .getting-started-category .category-title, .gettingStartedContainer h2')
    ).join(' ');
    assert.match(heading, /Get started with Portal Explorer/);
    await driver.screenshot('walkthrough');
  });

  it('shows a button for each step that runs its command', async () => {
    // Register is also done by a connected portal (earlier suites connect one): start from none.
    await removeAllPortals();
    await resetProgress();
    await vscode.commands.executeCommand('portal.openWalkthrough');
    await waitForWalkthrough();
    const buttons: string[] = [];
    for (const id of STEPS) {
      // A step shows its description and button when selected.
      await driver.click(`.gettingStartedContainer [data-step-id$="#${id}"]`);
      const label = await waitFor(
        async () =>
          (await driver.texts(`.gettingStartedContainer [data-step-id$="#${id}"] .monaco-button`))
            .map((text) => text.trim())
            .find((text) => text !== ''),
        { message: `the button of the step ${id}` },
      );
      buttons.push(label);
    }
    assert.deepEqual(buttons, ['Copy Call-back URL', 'Add Portal', 'Sign In', 'Open Record', 'Query View', 'Start Webhook Receiver']);

    // The first step's button copies the call-back URL and checks the step off.
    assert.equal((await step('register')).done, false, 'not done before its button is used');
    await driver.click('.gettingStartedContainer [data-step-id$="#register"]');
    await driver.click('.gettingStartedContainer [data-step-id$="#register"] .monaco-button');
    await waitFor(async () => (await step('register')).done, { message: 'the register step to be checked off' });
    await waitFor(() => user().clipboard.length > 0, { message: 'the call-back URL to be copied' });
    assert.equal(user().clipboard.length, 1);
    assert.match(user().clipboard[0], /^(vscode|http|https):\/\/.*\/(auth|callback)/, 'the call-back URL was copied');
    await driver.screenshot('walkthrough-step-done');
  });

  it('checks off adding a portal, signing in and saving a record when the user has done them', async () => {
    await removeAllPortals();
    const id = await connectEmulator();
    const document = await openRecord(id, '102', '3');
    await setField(document, 'f11', 'Saved from the walkthrough');
    await document.save();
    await waitFor(async () => (await emulatorRecord('102', '3')).data.f11 === 'Saved from the walkthrough', { message: 'the save' });
    await closeAllEditors();
    await vscode.commands.executeCommand('portal.openWalkthrough');
    await waitForWalkthrough();
    await waitFor(
      async () => {
        const shown = await steps();
        return ['addPortal', 'signIn', 'openRecord'].every((done) => shown.find((candidate) => candidate.id === done)?.done);
      },
      { message: 'the steps addPortal, signIn and openRecord to be checked off' },
    );
    await driver.screenshot('walkthrough-progress');
  });

  it('checks off Register when the call-back URL is copied from the Command Palette', async () => {
    await closeAllEditors();
    await resetProgress();
    await fromPalette('Portal: Copy Sign-in Call-back URL');
    await waitFor(() => user().clipboard.length > 0, { message: 'the call-back URL to be copied' });
    await vscode.commands.executeCommand('portal.openWalkthrough');
    await waitForWalkthrough();
    await waitForStepDone('register');
  });

  describe('the webhook step', () => {
    before(() => setWebhookSetting('port', 0));
    afterEach(stopReceiver);
    after(() => setWebhookSetting('port', undefined));

    it('checks off when the receiver starts from the step’s own button', async () => {
      await stopReceiver();
      await resetProgress();
      await vscode.commands.executeCommand('portal.openWalkthrough');
      await waitForWalkthrough();
      assert.equal((await step('webhooks')).done, false, 'not done before the receiver runs');
      await driver.click('.gettingStartedContainer [data-step-id$="#webhooks"]');
      await driver.click('.gettingStartedContainer [data-step-id$="#webhooks"] .monaco-button');
      await waitFor(async () => (await testApi()).webhooks.state().kind === 'running', { message: 'the receiver to run' });
      await waitForStepDone('webhooks');
      await driver.screenshot('walkthrough-webhook-done');
    });

    it('checks off when the receiver was started from the palette before the walkthrough was shown', async () => {
      await closeAllEditors();
      await stopReceiver();
      await resetProgress();
      await fromPalette('Portal: Start Webhook Receiver');
      await waitFor(async () => (await testApi()).webhooks.state().kind === 'running', { message: 'the receiver to run' });
      await vscode.commands.executeCommand('portal.openWalkthrough');
      await waitForWalkthrough();
      await waitForStepDone('webhooks');
    });
  });
});
