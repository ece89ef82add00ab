// Record History: the versions of the active record this VS Code has seen, with what brought each, and a
// version's diff against the record's document. Someone else's change reaches it through the emulator and
// a refresh of the document (File: Revert reads the portal's copy again); the user's own through a save.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { afterFreshCopy, closeAllEditors, fieldsOf, openRecord, setField } from './support/documents';
import { resetEmulator } from './support/emulator';
import { emulatorPortal } from './support/explorer';
import { testApi } from './support/extension';
import { waitFor } from './support/wait';

async function causes(): Promise<string[]> {
  const history = (await testApi()).recordHistory;
  const nodes = await history.getChildren();
  return nodes.map((node) => String(history.getTreeItem(node).label));
}

describe('Record History', function () {
  this.timeout(60_000);
  let portalId = '';

  beforeEach(async () => {
    await resetEmulator();
    portalId = await emulatorPortal();
  });
  afterEach(closeAllEditors);

  it('lists the versions seen with their causes, and opens a diff against the current copy', async () => {
    const api = await testApi();
    // A record of its own; still, history outlives the emulator's reset, which gives a new record the id
    // of one an earlier test may have created: only the versions from here on count.
    const created = await api.portals.client(portalId).createRecord('101', { f2: 'History', f4: '555 0100' }, {});
    const recordId = created.id ?? assert.fail('the emulator says the new id');
    const document = await openRecord(portalId, '101', recordId);
    const before = await waitFor(async () => ((await causes())[0] === 'Opened' ? (await causes()).length : undefined), {
      message: 'the version opened',
    });
    assert.deepEqual(api.recordHistory.record, { portalId, appId: '101', recordId });
    const opened = document.getText();

    // Someone else changes the record on the portal; the document is read again.
    await api.portals.client(portalId).updateRecord('101', recordId, { f4: '555 0144' });
    await afterFreshCopy();
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await waitFor(() => fieldsOf(document).f4 === '555 0144', { message: 'the document to show the change' });
    // The same copy read again is not kept twice.
    await afterFreshCopy();
    await vscode.commands.executeCommand('workbench.action.files.revert');

    // The user's own edit, saved.
    await setField(document, 'f3', 'history@example.com');
    assert.equal(await document.save(), true);
    await waitFor(async () => (await causes()).length === before + 2, { message: 'two versions more' });
    assert.deepEqual((await causes()).slice(0, 3), ['Saved by you', 'Opened', 'Opened']);

    // The version first opened here against the current copy.
    const oldest = (await api.recordHistory.getChildren())[2];
    await vscode.commands.executeCommand('portal.compareWithVersion', oldest);
    const tab = await waitFor(
      () => {
        const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
        return input instanceof vscode.TabInputTextDiff ? input : undefined;
      },
      { message: 'the diff tab' },
    );
    assert.equal(tab.original.scheme, 'portal-history');
    assert.equal(tab.modified.toString(), document.uri.toString());
    const version = await vscode.workspace.openTextDocument(tab.original);
    assert.equal(version.getText(), opened, 'the version as it was opened');
    assert.match(document.getText(), /history@example\.com/);
  });

  it('puts the read that follows a webhook event down to the webhook', async () => {
    const api = await testApi();
    // Not the id the test above had (the emulator was reset): VS Code may still hold that record's document.
    await api.portals.client(portalId).createRecord('101', { f2: 'Skipped', f4: '555 0299' }, {});
    const created = await api.portals.client(portalId).createRecord('101', { f2: 'History by webhook', f4: '555 0200' }, {});
    const recordId = created.id ?? assert.fail('the emulator says the new id');
    const document = await openRecord(portalId, '101', recordId);
    const before = await waitFor(async () => ((await causes())[0] === 'Opened' ? (await causes()).length : undefined), {
      message: 'the version opened',
    });
    await api.portals.client(portalId).updateRecord('101', recordId, { f4: '555 0201' });
    await afterFreshCopy();
    // What the webhook receiver announces for a record.updated event: open documents read the record again.
    api.recordEvents.fire({ portalId, appId: '101', recordId, kind: 'updated', origin: 'webhook' });
    await waitFor(() => fieldsOf(document).f4 === '555 0201', { message: 'the document to follow the webhook' });
    await waitFor(async () => (await causes()).length === before + 1, { message: 'one version more' });
    assert.deepEqual((await causes()).slice(0, 2), ['Changed on the portal (webhook)', 'Opened']);
  });
});
