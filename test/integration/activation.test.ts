import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { BROWSER_TAG, driver } from './support/driver';
import { EXTENSION_ID, extension, testApi } from './support/extension';
import { waitForOutputChannel } from './support/output';
import { waitFor } from './support/wait';

describe('the extension in a real VS Code', () => {
  it('activates in the extension host and hands the tests its test API', async () => {
    const api = await testApi();
    assert.equal(extension().isActive, true);
    assert.equal(api.context.extensionMode, vscode.ExtensionMode.Test);
    assert.equal(api.context.extension.id, EXTENSION_ID);
    assert.ok(Array.isArray(api.logLines()), 'logLines() gives the lines of the log channel');
  });

  it(`lists the "Portal Explorer" log channel in the Output panel ${BROWSER_TAG}`, async () => {
    await testApi();
    // As a user would: Output: Show Output Channels..., type the name, Enter. The picker lists the channels
    // that exist when it opens, and a log channel is registered a moment after activation: reopen until then.
    await waitFor(
      async () => {
        await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
        // Not awaited: the command ends only when the picker closes; the test types into it meanwhile.
        void vscode.commands.executeCommand('workbench.action.showOutputChannels');
        await waitFor(async () => (await driver.texts('.quick-input-widget .monaco-list-row')).length > 0, {
          message: 'the channel picker to open',
        });
        await driver.type('Portal Explorer');
        return waitFor(async () => (await driver.texts('.quick-input-widget .monaco-list-row .label-name')).includes('Portal Explorer'), {
          timeoutMs: 1000,
        });
      },
      { message: 'the channel picker to offer "Portal Explorer"', timeoutMs: 15_000 },
    );
    await driver.press('Enter');
    const selected = await waitForOutputChannel('Portal Explorer');
    assert.equal(selected, 'Portal Explorer');
    await driver.screenshot('output-portal-explorer-channel');
    await vscode.commands.executeCommand('workbench.action.closePanel');
  });
});
