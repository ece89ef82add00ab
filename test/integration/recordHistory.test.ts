// Record History: the versions of the active record this VS Code has seen, with what brought each, and a
// version's diff against the record's document. Someone else's change reaches it through the emulator and
// a refresh of the document (File: Revert reads the portal's copy again); the user's own through a save.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { BROWSER_TAG, driver } from './support/driver';
import { afterFreshCopy, closeAllEditors, fieldsOf, openRecord, setField } from './support/documents';
import { resetEmulator } from './support/emulator';
import { emulatorPortal } from './support/explorer';
import { testApi } from './support/extension';
import { gridTab, liveGrid } from './support/grid';
import { clearNotifications } from './support/notifications';
import { useScriptedPrompter } from './support/prompter';
import { waitFor } from './support/wait';
import { workspaceFile } from './support/workspace';

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

describe(`Record History of records never opened: written by an import, a bulk change, a grid ${BROWSER_TAG}`, function () {
  this.timeout(120_000);
  const user = useScriptedPrompter();
  let portalId = '';

  beforeEach(async () => {
    await resetEmulator();
    portalId = await emulatorPortal();
  });
  afterEach(async () => {
    await clearNotifications();
    await closeAllEditors();
  });

  /** The causes Record History lists for the record (newest first), of the versions kept since `since`. */
  async function causesOf(recordId: string, since: number): Promise<string[]> {
    await openRecord(portalId, '101', recordId);
    const history = (await testApi()).recordHistory;
    await waitFor(() => history.record?.recordId === recordId, { message: `Record History to follow record ${recordId}` });
    const nodes = (await history.getChildren()).filter((node) => node.version.at >= since);
    return nodes.map((node) => String(history.getTreeItem(node).label));
  }

  it('lists the versions an import, a Set Field and a grid save wrote, with what brought each', async () => {
    const api = await testApi();
    const since = Date.now();
    // Import two customers through the mapping panel.
    const names = [`History import A ${since}`, `History import B ${since}`];
    const csv = `Name,Email,Tier,Customer since\n${names[0]},a@example.com,Gold,2026-01-02\n${names[1]},b@example.com,Silver,2026-01-03\n`;
    user().answerOpenDialog([await workspaceFile('history.csv', csv)]);
    await vscode.commands.executeCommand('portal.importRecords', { portalId, appId: '101' });
    const panel = driver.webview('Import history.csv');
    await panel.waitFor('#import-mapping tbody tr', { timeoutMs: 20_000 });
    await panel.click('#import');
    await user().waitForMessage(/^Imported history\.csv: 2 created/, { level: 'info', timeoutMs: 60_000 });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const rows = (await api.portals.client(portalId).readView('101', '1')).rows;
    const [first, second] = names.map((name) => rows.find((row) => row.values.f2 === name)?.id ?? assert.fail(`${name} imported`));

    // Set Field on the first.
    user()
      .answerQuickPick('Email', /Which column/)
      .answerInputBox('bulk-history@example.com', /Set Email/)
      .answerMessage('Set Field', /^Set Email to "bulk-history@example\.com" on 1 record\?/);
    await vscode.commands.executeCommand('portal.bulkSetField', { portalId, appId: '101', viewId: '1', recordIds: [first] });
    await user().waitForMessage(/^Setting Email: 1 record updated\./, { level: 'info', timeoutMs: 30_000 });

    // A grid save of the second.
    await vscode.commands.executeCommand('portal.openViewAsGrid', { portalId, appId: '101', viewId: '1', viewName: 'All customers' });
    const live = await waitFor(
      async () => {
        const document = await liveGrid();
        return document?.loadState.state === 'done' ? document : undefined;
      },
      { message: 'the grid of view 1 read', timeoutMs: 20_000 },
    );
    assert.equal(live.edit('edit', 'Edit', [{ recordId: second, field: 'f3', value: 'grid-history@example.com' }]).refused, 0);
    await waitFor(() => gridTab()?.isDirty === true, { message: 'the grid tab dirty' });
    await vscode.commands.executeCommand('workbench.action.files.save');
    await waitFor(() => gridTab()?.isDirty === false, { message: 'the grid saved', timeoutMs: 20_000 });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');

    // Neither record was open while it was written; opening it now shows what brought each version (the
    // read at opening is the same copy as the last written, so it is not kept again).
    const withoutReads = (causes: string[]): string[] => causes.filter((cause) => cause !== 'Opened' && cause !== 'Read from the portal');
    assert.deepEqual(withoutReads(await causesOf(first, since)), ['Written by a bulk change', 'Written by an import']);
    assert.deepEqual(withoutReads(await causesOf(second, since)), ['Saved from a grid', 'Written by an import']);
    const [newest] = (await api.recordHistory.getChildren()).filter((node) => node.version.cause !== 'opened');
    assert.match(newest.version.text, /"f3": "grid-history@example\.com"/, "the grid's version holds the value saved");
    assert.match(newest.version.text, new RegExp(`"f2": "${names[1]}"`), 'and the fields it did not change');
  });
});
