// The prompter seam, both sides: the real VS Code prompter answered through the workbench by real keys
// and clicks, and the ScriptedPrompter that the feature tests use instead.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Prompter } from '../../src/ui/prompter';
import { BROWSER_TAG, driver } from './support/driver';
import { testApi } from './support/extension';
import { ScriptedPrompter, useScriptedPrompter } from './support/prompter';
import { waitFor } from './support/wait';

describe('the prompter seam', () => {
  it("swaps the extension's prompter and hands back the one it replaced", async () => {
    const api = await testApi();
    const scripted = new ScriptedPrompter();
    const previous = api.setPrompter(scripted);
    try {
      assert.notEqual(previous, scripted);
    } finally {
      assert.equal(api.setPrompter(previous), scripted, 'the scripted prompter was the one in use');
    }
  });

  describe(`the VS Code prompter, answered in the workbench ${BROWSER_TAG}`, () => {
    let real: Prompter;
    before(async () => {
      const api = await testApi();
      real = api.setPrompter(new ScriptedPrompter());
      api.setPrompter(real);
    });
    afterEach(async () => {
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      await vscode.commands.executeCommand('notifications.clearAll');
    });

    async function quickInputShows(text: string): Promise<void> {
      await waitFor(async () => (await driver.texts('.quick-input-widget')).some((shown) => shown.includes(text)), {
        message: `the quick input to show "${text}"`,
      });
    }

    it('shows an input box that takes typed text and Enter', async () => {
      const answer = real.inputBox({
        prompt: 'Name of the site',
        validateInput: (value) => (value.trim() ? undefined : 'A name is needed.'),
      });
      await quickInputShows('Name of the site');
      await waitFor(() => driver.focusedWithin('.quick-input-widget'), { message: 'the input box to have the focus' });
      await driver.type('Sales');
      await driver.press('Enter');
      assert.equal(await answer, 'Sales');
    });

    it('shows a quick pick whose item is chosen by typing and Enter', async () => {
      const items = [{ label: 'Alpha' }, { label: 'Beta' }, { label: 'Gamma' }];
      const answer = real.quickPick(items, { placeHolder: 'Pick a site' });
      await quickInputShows('Alpha');
      await waitFor(() => driver.focusedWithin('.quick-input-widget'), { message: 'the quick pick to have the focus' });
      await driver.type('Beta');
      await waitFor(async () => (await driver.texts('.quick-input-widget .monaco-list-row .label-name')).join() === 'Beta', {
        message: 'the list to narrow to Beta',
      });
      await driver.press('Enter');
      assert.equal(await answer, items[1], 'the very item object offered');
    });

    it('shows a notification whose action button is clicked', async () => {
      const answer = real.info('Portal Explorer asks a question', 'Open', 'Later');
      // With the smoke-test driver on, the workbench shows no toasts: notifications go to the center.
      await vscode.commands.executeCommand('notifications.showList');
      await waitFor(
        async () =>
          (await driver.texts('.notifications-center .notification-list-item-message')).includes('Portal Explorer asks a question'),
        {
          message: 'the notification to appear in the notification center',
        },
      );
      await driver.screenshot('notification-with-actions');
      await driver.click(
        '.notifications-center .notification-list-item:has-text("Portal Explorer asks a question") .monaco-button:has-text("Open")',
      );
      assert.equal(await answer, 'Open');
      await vscode.commands.executeCommand('notifications.hideList');
    });
  });

  // Sibling suites run in the order they are written: the second checks what the first left behind.
  describe('useScriptedPrompter(), during its suite', () => {
    const user = useScriptedPrompter();

    it("puts a fresh ScriptedPrompter in the extension's place for each test", async () => {
      const api = await testApi();
      const inUse = api.setPrompter(user());
      assert.equal(inUse, user());
      assert.equal(user().prompts.length, 0);
    });
  });

  describe('useScriptedPrompter(), after its suite', () => {
    it('has given the extension its own prompter back', async () => {
      const api = await testApi();
      const inUse = api.setPrompter(new ScriptedPrompter());
      api.setPrompter(inUse);
      assert.equal(inUse instanceof ScriptedPrompter, false, 'the VS Code prompter, not a leftover scripted one');
    });
  });

  describe('the ScriptedPrompter', () => {
    it('answers queued questions in order and records what was asked', async () => {
      const scripted = new ScriptedPrompter()
        .answerInputBox('Sales', /site/)
        .answerQuickPick('Beta')
        .answerQuickPickMany(['Alpha', 'Gamma']);
      const items = [{ label: 'Alpha' }, { label: 'Beta' }, { label: 'Gamma' }];
      assert.equal(await scripted.inputBox({ title: 'New site', prompt: 'Name of the site' }), 'Sales');
      assert.equal(await scripted.quickPick(items, { placeHolder: 'Pick one' }), items[1]);
      assert.deepEqual(await scripted.quickPickMany(items, {}), [items[0], items[2]]);
      assert.deepEqual(
        scripted.prompts.map((prompt) => [prompt.kind, prompt.text, prompt.answer]),
        [
          ['inputBox', 'New site | Name of the site', 'Sales'],
          ['quickPick', 'Pick one', 'Beta'],
          ['quickPickMany', '', ['Alpha', 'Gamma']],
        ],
      );
      scripted.verify();
    });

    it('fails at once, saying what was asked, when no answer is queued', async () => {
      const scripted = new ScriptedPrompter();
      await assert.rejects(scripted.inputBox({ prompt: 'Client secret' }), /inputBox "Client secret" was shown and no answer was queued/);
      assert.throws(() => scripted.verify(), /Client secret/);
    });

    it('fails when the question is not the one the answer was meant for', async () => {
      const scripted = new ScriptedPrompter().answerInputBox('42', /record id/i).answerQuickPick('Delta');
      await assert.rejects(scripted.inputBox({ prompt: 'Site URL' }), /expects \/record id\/i/);
      await assert.rejects(scripted.quickPick([{ label: 'Alpha' }], {}), /offers no item "Delta"; it offers: Alpha/);
    });

    it('re-asks after a value the input box rejects, as the real one stays open', async () => {
      const scripted = new ScriptedPrompter().answerInputBox('').answerInputBox('Sales');
      const answer = await scripted.inputBox({ prompt: 'Name', validateInput: (value) => (value ? undefined : 'A name is needed.') });
      assert.equal(answer, 'Sales');
      assert.deepEqual(scripted.prompts[0]?.validationMessages, ['A name is needed.']);
    });

    it('records messages, dismisses them unless answered, and insists on answers to modal questions', async () => {
      const scripted = new ScriptedPrompter().answerMessage('Retry', /could not reach/);
      assert.equal(await scripted.info('Saved.'), undefined);
      assert.equal(await scripted.warn('Unsaved changes', {}, 'Show'), undefined, 'a non-modal message with no answer is dismissed');
      assert.equal(await scripted.error('The portal could not reach the server.', 'Retry', 'Cancel'), 'Retry');
      await assert.rejects(scripted.warn('Delete record 7?', { modal: true }, 'Delete'), /modal warn "Delete record 7\?" asks Delete/);
      assert.deepEqual(scripted.messagesOf('error'), ['The portal could not reach the server.']);
      assert.equal((await scripted.waitForMessage(/Saved/, { level: 'info' })).message, 'Saved.');
    });

    it('reports answers that were never used', () => {
      const scripted = new ScriptedPrompter().answerInputBox('unused').answerMessage('OK');
      assert.throws(
        () => scripted.verify(),
        /an answer for a inputBox was never used: "unused"[\s\S]*an answer for a message was never used: "OK"/,
      );
    });

    it('records external links and clipboard texts', async () => {
      const scripted = new ScriptedPrompter().onOpenExternal((target) => target.scheme === 'http');
      assert.equal(await scripted.openExternal(vscode.Uri.parse('http://127.0.0.1/approve')), true);
      assert.equal(await scripted.openExternal(vscode.Uri.parse('mailto:someone')), false);
      await scripted.copyToClipboard('record 7');
      assert.deepEqual(scripted.opened.map(String), ['http://127.0.0.1/approve', 'mailto:someone']);
      assert.deepEqual(scripted.clipboard, ['record 7']);
    });
  });
});
