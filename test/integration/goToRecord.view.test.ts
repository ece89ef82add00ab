// "Go to Record…" as a user runs it: from the view's inline action in the Portal explorer (a real click),
// typing in the real quick pick (real keys), Enter opens the record's document.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { BROWSER_TAG, driver } from './support/driver';
import { resetEmulator } from './support/emulator';
import { emulatorPortal, freshExplorer, path } from './support/explorer';
import { testApi } from './support/extension';
import { waitFor } from './support/wait';

describe(`Go to Record ${BROWSER_TAG}`, function () {
  this.timeout(90_000);
  beforeEach(resetEmulator);

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it("finds a record among the view's 100,000 by words of its text, and opens it on Enter", async () => {
    const portalId = await emulatorPortal();
    await freshExplorer(portalId);
    const api = await testApi();
    await api.views.add(portalId, '201', { viewId: '6', name: 'All tickets' });
    await vscode.commands.executeCommand('workbench.view.extension.portal');
    const view = await path(portalId, 'Support', 'Tickets', 'Views', 'All tickets');
    await api.explorerView.reveal(view, { expand: false, select: true, focus: true });

    // The view's inline action, as the mouse finds it on the selected row.
    await driver.click('.monaco-list-row.selected .action-label[aria-label="Go to Record…"]');
    await waitFor(async () => (await driver.texts('.quick-input-title')).some((text) => text.includes('Go to Record in All tickets')), { message: 'the Go to Record pick' });
    await driver.type('4321');
    await waitFor(async () => {
      const labels = await driver.texts('.quick-input-list .monaco-list-row');
      return labels[0]?.includes('#4321') ? labels : undefined;
    }, { message: 'record 4321 first in the list', timeoutMs: 30_000 });
    await driver.screenshot('go-to-record-by-id');

    // Words of a text column, in any order: every match holds them.
    await driver.press('Control+A');
    await driver.type('laptop lyon');
    const matches = await waitFor(async () => {
      const labels = await driver.texts('.quick-input-list .monaco-list-row');
      return labels.length > 0 && labels.every((label) => /laptop/i.test(label) && /lyon/i.test(label)) ? labels : undefined;
    }, { message: 'only laptops in Lyon' });
    await driver.screenshot('go-to-record-by-words');
    const recordId = /#(\d+)/.exec(matches[0])?.[1];
    assert.ok(recordId, matches[0]);

    await driver.press('Enter');
    const editor = await waitFor(() => {
      const active = vscode.window.activeTextEditor;
      return active?.document.uri.path.endsWith(`/201/${recordId}.json`) ? active : undefined;
    }, { message: `record ${recordId} to open`, timeoutMs: 30_000 });
    assert.match(editor.document.getText(), /"f31": ".*Laptop.*Lyon/i);
  });
});
