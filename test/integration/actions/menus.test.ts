// The record actions are one click away where a user looks for them: the context menu of a record in the
// Portal explorer (publish for drafts, delete, comment, attachments) and the title of a record document.
// Publish and delete are the record documents' commands; here it is checked that the tree reaches them.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RecordChange } from '../../../src/catalog/recordEvents';
import type { ExplorerNode } from '../../../src/tree/nodes';
import { BROWSER_TAG, driver } from '../support/driver';
import { closeAllEditors, emulatorRecord, openRecord } from '../support/documents';
import { testApi } from '../support/extension';
import { useScriptedPrompter } from '../support/prompter';
import { waitFor, waitForEvent } from '../support/wait';
import { useConnectedPortal } from '../documents/support';
import { recordItemsOf } from './support';

const MENU_ITEMS = '.context-view .monaco-menu .action-item .action-label';

async function contextMenuOf(node: ExplorerNode): Promise<string[]> {
  const api = await testApi();
  await vscode.commands.executeCommand('workbench.view.extension.portal');
  await api.explorerView.reveal(node, { select: true, focus: true });
  await waitFor(() => driver.focusedWithin('.pane-body'), { message: 'the focus on the explorer' });
  await driver.press('Shift+F10');
  return waitFor(
    async () => {
      const labels = (await driver.texts(MENU_ITEMS)).map((label) => label.trim()).filter((label) => label !== '');
      return labels.length > 0 ? labels : undefined;
    },
    { message: 'the context menu' },
  );
}

describe(`record actions in menus ${BROWSER_TAG}`, function () {
  this.timeout(60_000);
  const user = useScriptedPrompter();
  const portal = useConnectedPortal();

  afterEach(async () => {
    await driver.press('Escape');
    await closeAllEditors();
  });

  it('offers Publish Draft, Delete, Add Comment and the attachments on a draft record in the explorer', async () => {
    const records = await recordItemsOf(portal(), 'Operations', 'Orders', '102', '3', 'All orders');
    const draft = records.find((node) => (node as { recordId?: string }).recordId === '7');
    assert.ok(draft, 'record 7 (a draft) is in the view');
    const labels = await contextMenuOf(draft);
    await driver.screenshot('record-context-menu');
    for (const label of ['Publish Draft', 'Delete Record…', 'Add Comment…', 'Add Attachment…', 'Download Attachment…']) {
      assert.ok(labels.includes(label), `"${label}" is in ${JSON.stringify(labels)}`);
    }
  });

  it('offers no Publish on a published record, and the other actions', async () => {
    const records = await recordItemsOf(portal(), 'Operations', 'Orders', '102', '3', 'All orders');
    const published = records.find((node) => (node as { recordId?: string }).recordId === '1');
    assert.ok(published);
    const labels = await contextMenuOf(published);
    assert.ok(!labels.includes('Publish Draft'), `no Publish in ${JSON.stringify(labels)}`);
    for (const label of ['Delete Record…', 'Add Comment…', 'Add Attachment…', 'Download Attachment…'])
      assert.ok(labels.includes(label), `"${label}" is in ${JSON.stringify(labels)}`);
  });

  it("publishes a draft and deletes a record given the explorer's record items", async () => {
    const api = await testApi();
    const records = await recordItemsOf(portal(), 'Operations', 'Orders', '102', '3', 'All orders');
    const byId = (id: string) => records.find((node) => (node as { recordId?: string }).recordId === id);
    const published = waitForEvent(
      api.recordEvents.onDidChange,
      (change: RecordChange) => change.recordId === '8' && change.kind === 'updated',
    );
    await vscode.commands.executeCommand('portal.publishRecord', byId('8'));
    await published;
    assert.equal((await emulatorRecord('102', '8')).draft, false);
    user().answerMessage('Delete', /^Delete record 2 of Orders\?/);
    await vscode.commands.executeCommand('portal.deleteRecord', byId('2'));
    await user().waitForMessage(/^Record 2 moved to the portal's trash\.$/, { level: 'info' });
    assert.equal((await emulatorRecord('102', '2')).trashed, true);
  });

  it('publishes a draft from the palette, offering only the drafts of the view last opened', async () => {
    const api = await testApi();
    // The test before published record 8 in this window; the emulator's reset made it a draft again, which
    // this window cannot know of (no webhook): read the view again so that both drafts are in its rows.
    await vscode.commands.executeCommand('portal.refresh');
    await recordItemsOf(portal(), 'Operations', 'Orders', '102', '3', 'All orders');
    user().answerQuickPick((item) => item.description === '#7 · Draft', /Publish Draft \| Which record\?/);
    const published = waitForEvent(
      api.recordEvents.onDidChange,
      (change: RecordChange) => change.recordId === '7' && change.kind === 'updated',
    );
    await vscode.commands.executeCommand('portal.publishRecord');
    await published;
    assert.equal((await emulatorRecord('102', '7')).draft, false);
    const offered = user().prompts.find((prompt) => prompt.kind === 'quickPick')?.items ?? [];
    assert.ok(
      offered.some((label) => label.startsWith('Drafts in All orders')),
      `the drafts are listed: ${JSON.stringify(offered)}`,
    );
    assert.equal(
      offered.filter((label) => !label.startsWith('$(') && !label.startsWith('Drafts in')).length,
      2,
      `only records 7 and 8 (the drafts) are offered: ${JSON.stringify(offered)}`,
    );
  });

  it('refuses to publish a record typed in by id that is published already', async () => {
    await recordItemsOf(portal(), 'Operations', 'Orders', '102', '3', 'All orders');
    user()
      .answerQuickPick((item) => item.label.includes('Enter a record id'), /Publish Draft/)
      .answerInputBox('1', /record/i);
    await vscode.commands.executeCommand('portal.publishRecord');
    await user().waitForMessage(/^Record 1 is published already\.$/, { level: 'error' });
  });

  it('shows Add Comment and Add Attachment in the title of a record document', async () => {
    await openRecord(portal(), '101', '1');
    for (const label of ['Add Comment', 'Add Attachment']) {
      await waitFor(async () => (await driver.texts(`.editor-actions .action-label[aria-label*="${label}"]`)).length > 0, {
        message: `${label} in the editor title`,
      });
    }
  });
});
