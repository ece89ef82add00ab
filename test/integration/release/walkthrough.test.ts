// The "Get started with Portal Explorer" walkthrough in the workbench: it opens from the Portal view's
// welcome and from its command, shows its six steps with a button each, and a step is checked off when
// the user has done what it asks.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { closeAllEditors, emulatorRecord, openRecord, setField } from '../support/documents';
import { BROWSER_TAG, driver } from '../support/driver';
import { resetEmulator } from '../support/emulator';
import { connectEmulator, removeAllPortals } from '../support/portals';
import { useScriptedPrompter } from '../support/prompter';
import { waitFor } from '../support/wait';

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
    const heading = (await driver.texts('.gettingStartedContainer .getting-started-category .category-title, .gettingStartedContainer h2')).join(' ');
    assert.match(heading, /Get started with Portal Explorer/);
    await driver.screenshot('walkthrough');
  });

  it('shows a button for each step that runs its command', async () => {
    await vscode.commands.executeCommand('portal.openWalkthrough');
    await waitForWalkthrough();
    const buttons: string[] = [];
    for (const id of STEPS) {
      // A step shows its description and button when selected.
      await driver.click(`.gettingStartedContainer [data-step-id$="#${id}"]`);
      const label = await waitFor(
        async () => (await driver.texts(`.gettingStartedContainer [data-step-id$="#${id}"] .monaco-button`)).map((text) => text.trim()).find((text) => text !== ''),
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
});
