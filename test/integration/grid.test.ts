// A view as a grid in code-server, as a person uses it: opened with the command the Portal view's table
// icon runs, cells typed in the webview with the keyboard, a block pasted with Ctrl+V, the tab dirty,
// Ctrl+S saving through VS Code (one PUT per row with only its changed fields, checked in the emulator's
// request log), a row someone else changed held back as a conflict and resolved with Keep Mine, Revert,
// and the backup VS Code keeps for hot exit put back into a grid opened from it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { useConnectedPortal } from './documents/support';
import { closeAllEditors, emulatorRecord, fieldsOf, openRecord, requestMark, requestsSince } from './support/documents';
import { BROWSER_TAG, driver, type WebviewDom } from './support/driver';
import { path } from './support/explorer';
import { testApi } from './support/extension';
import { emulatorControl } from './support/emulator';
import { gridTab, liveGrid, typeInto } from './support/grid';
import { clearNotifications, waitForNotification } from './support/notifications';
import { useScriptedPrompter } from './support/prompter';
import { waitFor } from './support/wait';

/** The tab's title; the page's is the view's name (the driver finds a custom editor's webview by it). */
const TITLE = 'All orders — Orders · 3';
const PAGE = 'All orders';

describe(`a view as an editable grid ${BROWSER_TAG}`, () => {
  const user = useScriptedPrompter();
  const portal = useConnectedPortal();
  afterEach(async () => {
    await clearNotifications();
    await closeAllEditors();
  });

  async function openGrid(): Promise<WebviewDom> {
    await vscode.commands.executeCommand('portal.openViewAsGrid', {
      portalId: portal(),
      appId: '102',
      viewId: '3',
      viewName: 'All orders',
    });
    return gridPage();
  }

  /** One click on the view's table icon in the Portal view, as a person opens it. */
  async function openGridFromTree(): Promise<WebviewDom> {
    const api = await testApi();
    await api.views.add(portal(), '102', { viewId: '3', name: 'All orders' });
    await vscode.commands.executeCommand('workbench.view.extension.portal');
    const view = await path(portal(), 'Operations', 'Orders', 'Views', 'All orders');
    await api.explorerView.reveal(view, { select: true, focus: true, expand: false });
    await driver.click('.monaco-list-row[aria-label^="All orders"] .action-label[aria-label^="Open View as Grid"]');
    return gridPage();
  }

  async function gridPage(): Promise<WebviewDom> {
    const grid = driver.webview(PAGE);
    await grid.waitFor('#grid-0-1', { timeoutMs: 20_000 });
    return grid;
  }

  it('edits cells of two rows and a pasted block; Ctrl+S sends one PUT per row with only its changed fields; a conflict is held back and Keep Mine sends mine', async () => {
    const grid = await openGridFromTree();
    assert.equal(gridTab()?.label, TITLE);
    // Three cells of two rows (Title and Quantity of record 1, Title of record 2).
    await typeInto(grid, 0, 2, 'Desks');
    await typeInto(grid, 0, 9, '11');
    await typeInto(grid, 1, 2, 'Chairs');
    await waitFor(() => gridTab()?.isDirty === true, { message: 'the grid tab to be dirty' });
    // A 3 × 2 block (Title, Customer id) of records 3 to 5, from the clipboard.
    await vscode.env.clipboard.writeText('Toner\t2\nBaskets\t3\nRack\t4\n');
    await grid.press('.data-grid', 'Control+Home');
    for (let at = 0; at < 2; at += 1) await grid.press('.data-grid', 'ArrowDown');
    await grid.press('.data-grid', 'ArrowRight');
    await grid.press('.data-grid', 'ArrowRight');
    await driver.press('Control+V');
    await waitFor(async () => (await grid.texts('.grid-cell.pending')).length === 9, { message: 'nine pending cells' });

    // Someone else changes record 2 in the portal.
    await (await testApi()).portals.client(portal()).updateRecord('102', '2', { f18: '99' });
    const mark = await requestMark();
    await grid.press('.data-grid', 'Control+S');
    await waitFor(async () => (await grid.texts('.row-conflict')).length === 1, {
      message: 'the conflict shown in the grid',
      timeoutMs: 20_000,
    });
    const saveLog = await requestsSince(mark);
    const puts = saveLog.filter((line) => line.startsWith('PUT'));
    assert.deepEqual(puts.sort(), [
      'PUT /api/v1/app/102/record/1 200',
      'PUT /api/v1/app/102/record/3 200',
      'PUT /api/v1/app/102/record/4 200',
      'PUT /api/v1/app/102/record/5 200',
    ]);
    // How the rows are checked (a GET each, or one read of the view when that costs less: viewCheck.ts, by
    // the round trips measured and the rows in flight) is the save runner's choice, unit-tested there.
    const first = await emulatorRecord('102', '1');
    assert.equal(first.data.f11, 'Desks');
    assert.equal(first.data.f18, '11');
    assert.equal((await emulatorRecord('102', '4')).data.f12, '3');
    assert.notEqual((await emulatorRecord('102', '2')).data.f11, 'Chairs', 'the conflict is held back');
    assert.equal(gridTab()?.isDirty, true, 'the held-back row keeps the tab dirty');

    // Keep Mine on record 2 (the second row): my field goes, theirs stays.
    await grid.press('.data-grid', 'Control+Home');
    await grid.press('.data-grid', 'ArrowDown');
    await grid.press('.data-grid', 'ArrowRight');
    await grid.press('.data-grid', 'ArrowRight');
    await grid.waitFor('#grid-keep-mine');
    assert.match(await grid.text('#grid-row'), /Someone else changed this record/);
    await driver.screenshot('grid-conflict');
    const keep = await requestMark();
    await grid.click('#grid-keep-mine');
    await waitFor(() => gridTab()?.isDirty === false, { message: 'the grid saved after Keep Mine', timeoutMs: 20_000 });
    assert.deepEqual(
      (await requestsSince(keep)).filter((line) => line.startsWith('PUT')),
      ['PUT /api/v1/app/102/record/2 200'],
    );
    const second = await emulatorRecord('102', '2');
    assert.equal(second.data.f11, 'Chairs');
    assert.equal(second.data.f18, '99', 'their change is kept');
  });

  it("the README's screenshot: several pending rows, an invalid cell, and a conflict held back at save", async () => {
    await vscode.commands.executeCommand('workbench.view.extension.portal');
    const grid = await openGrid();
    await typeInto(grid, 1, 2, 'Sit-stand desks');
    // Someone else changes record 2 (its Quantity), then Ctrl+S holds it back.
    await (await testApi()).portals.client(portal()).updateRecord('102', '2', { f18: '99' });
    await grid.press('.data-grid', 'Control+S');
    await waitFor(async () => (await grid.texts('.row-conflict')).length === 1, {
      message: 'the conflict shown in the grid',
      timeoutMs: 20_000,
    });
    await clearNotifications();
    await typeInto(grid, 0, 2, 'Ergonomic chairs');
    // In columns a screenshot shows: a Customer id changed, a Title, and a Customer id that is no number.
    await typeInto(grid, 2, 3, '6');
    await typeInto(grid, 3, 2, 'Gift hampers');
    await typeInto(grid, 4, 3, 'seven');
    await waitFor(async () => (await grid.texts('.grid-cell.invalid')).length === 1, { message: 'the invalid amount marked' });
    // The conflict's row active: its line offers Compare, Keep Mine and Take Theirs.
    await grid.press('.data-grid', 'Control+Home');
    await grid.press('.data-grid', 'ArrowDown');
    await grid.press('.data-grid', 'ArrowRight');
    await grid.press('.data-grid', 'ArrowRight');
    await grid.waitFor('#grid-keep-mine');
    assert.match(await grid.text('#grid-counts'), /^8 rows · 5 changed · 1 with an invalid cell · 1 held back \(conflict\)$/);
    await driver.screenshot('grid-readme');
  });

  it('Add Row: the new row is created at Ctrl+S with one POST of its fields, as a draft (Orders has Draft mode)', async () => {
    const grid = await openGrid();
    await grid.click('#grid-add-row');
    await grid.waitFor('#grid-8-0.row-new');
    await typeInto(grid, 8, 2, 'Plants');
    await vscode.env.clipboard.writeText('03-03-2026');
    await grid.click('#grid-8-6');
    await driver.press('Control+V');
    await grid.waitFor('#grid-8-6.pending');
    await typeInto(grid, 8, 8, '120.50');
    await waitFor(async () => (await grid.texts('.grid-cell.invalid')).length === 0, { message: 'every required cell filled' });
    const mark = await requestMark();
    await grid.press('.data-grid', 'Control+S');
    await waitFor(() => gridTab()?.isDirty === false, { message: 'the grid saved', timeoutMs: 20_000 });
    const posts = (await requestsSince(mark)).filter((line) => line.startsWith('POST'));
    assert.deepEqual(posts, ['POST /api/v1/app/102/record/ 200']);
    const created = await grid.text('#grid-8-0');
    assert.match(created, /^\d+$/, 'the row shows its new record id');
    const record = await emulatorRecord('102', created);
    assert.equal(record.draft, true);
    assert.deepEqual([record.data.f11, record.data.f15, record.data.f17], ['Plants', '03-03-2026', '120.50']);
  });

  it('an edit typed while a save runs keeps the tab dirty: and the next Ctrl+S sends it', async () => {
    const grid = await openGrid();
    await typeInto(grid, 0, 9, '11');
    await waitFor(() => gridTab()?.isDirty === true, { message: 'the grid tab to be dirty' });
    await emulatorControl('POST', 'faults', { method: 'PUT', path: '^/api/v1/app/102/record/1$', count: 1, latency_ms: 4000 });
    const mark = await requestMark();
    await grid.press('.data-grid', 'Control+S');
    // The save has taken its rows once it checks the first one; typed before that, the edit would be saved with it.
    await waitFor(async () => (await requestsSince(mark)).some((line) => line.startsWith('GET /api/v1/app/102/record/1 ')), {
      message: 'the save to check the first row',
    });
    await typeInto(grid, 1, 9, '12');
    assert.deepEqual(
      (await requestsSince(mark)).filter((line) => line.startsWith('PUT')),
      [],
      'typed while the first row was on its way',
    );
    const api = await testApi();
    await waitFor(() => api.logLines().some((line) => /saved view 3: .*"unsent":1/.test(line)), {
      message: 'the save to end with one row typed while it ran',
      timeoutMs: 20_000,
    });
    assert.equal(gridTab()?.isDirty, true, 'the row typed while saving keeps the tab dirty');
    assert.equal((await emulatorRecord('102', '1')).data.f18, '11');
    await grid.press('.data-grid', 'Control+S');
    await waitFor(() => gridTab()?.isDirty === false, { message: 'the second save', timeoutMs: 20_000 });
    assert.equal((await emulatorRecord('102', '2')).data.f18, '12');
  });

  it('a row saved in the grid reloads the open document of its record', async () => {
    const document = await openRecord(portal(), '102', '1');
    assert.notEqual(fieldsOf(document).f18, '17');
    const grid = await openGrid();
    await typeInto(grid, 0, 9, '17');
    await waitFor(() => gridTab()?.isDirty === true, { message: 'the grid tab to be dirty' });
    await grid.press('.data-grid', 'Control+S');
    await waitFor(() => gridTab()?.isDirty === false, { message: 'the grid saved', timeoutMs: 20_000 });
    assert.equal((await emulatorRecord('102', '1')).data.f18, '17');
    await waitFor(() => fieldsOf(document).f18 === '17', { message: "the record's document to show the grid's change" });
    assert.equal(document.isDirty, false);
  });

  it('a bulk change run elsewhere (Set Field on a record of the view) shows in the open grid', async () => {
    const grid = await openGrid();
    assert.notEqual(await grid.text('#grid-0-2'), 'Set in bulk');
    user()
      .answerQuickPick('Title', /Which column/)
      .answerInputBox('Set in bulk', /Set Title/)
      .answerMessage('Set Field', /^Set Title to "Set in bulk" on 1 record\?/);
    await vscode.commands.executeCommand('portal.bulkSetField', { portalId: portal(), appId: '102', viewId: '3', recordIds: ['1'] });
    await user().waitForMessage(/^Setting Title: 1 record updated\./, { level: 'info', timeoutMs: 30_000 });
    await waitFor(async () => (await grid.text('#grid-0-2')) === 'Set in bulk', {
      message: 'the grid to show the bulk change',
      timeoutMs: 10_000,
    });
    assert.equal(gridTab()?.isDirty, false);
  });

  it("the save's progress counts the rows it sends, not a row an invalid cell holds back", async () => {
    const grid = await openGrid();
    await typeInto(grid, 0, 8, 'lots');
    await typeInto(grid, 1, 9, '12');
    await waitFor(async () => (await grid.texts('.grid-cell.invalid')).length === 1, { message: 'the invalid cell marked' });
    await emulatorControl('POST', 'faults', { method: 'PUT', path: '^/api/v1/app/102/record/2$', count: 1, latency_ms: 3000 });
    await grid.press('.data-grid', 'Control+S');
    assert.match(await waitForNotification(/^Saving \d+ changed rows? of All orders/), /^Saving 1 changed row of All orders/);
    const api = await testApi();
    await waitFor(() => api.logLines().some((line) => /saved view 3: .*"blocked":1/.test(line)), {
      message: 'the save to end',
      timeoutMs: 20_000,
    });
  });

  it('Revert discards the pending edits; a backup puts them back into a grid opened from it, saying which it left out', async () => {
    const grid = await openGrid();
    await typeInto(grid, 0, 2, 'Reverted');
    await waitFor(() => gridTab()?.isDirty === true, { message: 'the grid tab to be dirty' });
    const api = await testApi();
    const tab = gridTab();
    assert.ok(tab && tab.input instanceof vscode.TabInputCustom);
    const uri = tab.input.uri;

    // The backup VS Code asks for on hot exit, and a grid opened from it (as after a reload or a crash).
    const live = await liveGrid();
    assert.ok(live, 'the grid in front');
    const destination = vscode.Uri.joinPath(api.context.globalStorageUri, 'grid-backup-test.json');
    const backup = await api.gridEditor.backupCustomDocument(live, { destination });
    const restored = await api.gridEditor.openCustomDocument(uri, { backupId: backup.id, untitledDocumentData: undefined });
    await api.gridEditor.firstRows(restored);
    const recordId = restored.model.layout([]).rowIds[0];
    assert.equal(restored.model.changeSet.value(recordId, 'f11'), 'Reverted', 'the pending edit is back');
    assert.equal(restored.model.changeSet.isPending(recordId, 'f11'), true);
    restored.dispose();
    backup.delete();
    // One written while Order no. (f10) could be edited: an Auto Number now, so that edit is left out, and said.
    const rows = [{ recordId: '1', asRead: {}, edits: { f10: '77', f11: 'Kept' }, changedOnPortal: null }];
    await vscode.workspace.fs.writeFile(
      destination,
      new TextEncoder().encode(JSON.stringify({ version: 1, appId: '102', viewId: '3', rows })),
    );
    const dropping = await api.gridEditor.openCustomDocument(uri, { backupId: destination.toString(), untitledDocumentData: undefined });
    await api.gridEditor.firstRows(dropping);
    await user().waitForMessage(
      /^Restoring the unsaved changes of All orders left out 1 edit that the app's columns no longer allow: record 1, Order no\. \(f10\): "77" \(read-only/,
      { level: 'warn' },
    );
    assert.equal(dropping.model.changeSet.value('1', 'f11'), 'Kept', 'the edit still allowed is restored');
    dropping.dispose();

    // A backup that cannot be read: said once (through the one error boundary), and the grid opens without it.
    const missing = vscode.Uri.joinPath(api.context.globalStorageUri, 'no-such-grid-backup.json');
    const withoutBackup = await api.gridEditor.openCustomDocument(uri, { backupId: missing.toString(), untitledDocumentData: undefined });
    await api.gridEditor.firstRows(withoutBackup);
    await user().waitForMessage(/^The backup of the grid of All orders could not be read: .*The grid opens without it\.$/, {
      level: 'error',
    });
    assert.equal(withoutBackup.model.changeSet.isDirty, false, 'the grid as read, without the backup');
    assert.equal(withoutBackup.model.rowCount, 8);
    withoutBackup.dispose();

    await vscode.commands.executeCommand('workbench.action.files.revert');
    await waitFor(() => gridTab()?.isDirty === false, { message: 'the grid reverted' });
    await waitFor(async () => (await grid.text('#grid-0-2')) === 'Office chairs', { message: 'the cell as read again' });
    assert.equal((await emulatorRecord('102', '1')).data.f11, 'Office chairs', 'nothing was sent');
  });

  it('a grid whose rows could not be read offers Retry, and keeps a backup it could not restore for the next one', async () => {
    await emulatorControl('POST', 'faults', { method: 'GET', path: '^/api/v1/app/102/view/3', status: 500, count: 1 });
    await vscode.commands.executeCommand('portal.openViewAsGrid', {
      portalId: portal(),
      appId: '102',
      viewId: '3',
      viewName: 'All orders',
    });
    const grid = driver.webview(PAGE);
    await grid.waitFor('#grid-retry', { timeoutMs: 20_000 });
    await grid.click('#grid-retry');
    await grid.waitFor('#grid-0-1', { timeoutMs: 20_000 });

    // A backup restored while the portal fails: asked for a backup again, the grid writes the one it holds.
    const api = await testApi();
    const live = await liveGrid();
    assert.ok(live);
    const first = await api.gridEditor.backupCustomDocument(live, {
      destination: vscode.Uri.joinPath(api.context.globalStorageUri, 'grid-backup-kept-1.json'),
    });
    const text = JSON.stringify({
      version: 1,
      appId: '102',
      viewId: '3',
      rows: [{ recordId: '1', asRead: { f11: 'Office chairs' }, edits: { f11: 'Kept' }, changedOnPortal: null }],
    });
    await vscode.workspace.fs.writeFile(vscode.Uri.parse(first.id), new TextEncoder().encode(text));
    // The open grid holds the one shared copy of the view's rows: closed, the restored grid must read the view.
    const uri = live.uri;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    api.rows.drop();
    await emulatorControl('POST', 'faults', { method: 'GET', path: '^/api/v1/app/102/view/3', status: 500, count: 1 });
    const restored = await api.gridEditor.openCustomDocument(uri, { backupId: first.id, untitledDocumentData: undefined });
    await api.gridEditor.firstRows(restored);
    assert.equal(restored.isLoaded, false);
    const second = await api.gridEditor.backupCustomDocument(restored, {
      destination: vscode.Uri.joinPath(api.context.globalStorageUri, 'grid-backup-kept-2.json'),
    });
    assert.equal(
      new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.parse(second.id))),
      text,
      'the backup is written again, not emptied',
    );
    await restored.load(); // what Retry runs
    assert.equal(restored.model.changeSet.value('1', 'f11'), 'Kept', 'Retry restores the backup held');
    restored.dispose();
    first.delete();
    second.delete();
  });

  it('Discard… asks with what goes, then reverts: the tab is clean, the cells as read, nothing sent', async () => {
    const grid = await openGrid();
    await typeInto(grid, 0, 2, 'Discarded');
    await typeInto(grid, 1, 9, '3');
    await waitFor(() => gridTab()?.isDirty === true, { message: 'the grid tab to be dirty' });
    user().answerMessage(
      undefined,
      /^Discard the changes of 2 rows of All orders\? The view is read again from the portal; this cannot be undone\.$/,
    );
    await grid.click('#grid-discard');
    await user().waitForMessage(/^Discard the changes of 2 rows/, { level: 'warn' });
    assert.equal(gridTab()?.isDirty, true, 'nothing discarded when the person says no');
    const mark = await requestMark();
    user().answerMessage('Discard', /^Discard the changes of 2 rows of All orders\?/);
    await grid.click('#grid-discard');
    await waitFor(() => gridTab()?.isDirty === false, { message: 'the grid discarded' });
    await waitFor(async () => (await grid.text('#grid-0-2')) === 'Office chairs', { message: 'the cell as read again' });
    assert.deepEqual(
      (await requestsSince(mark)).filter((line) => !line.startsWith('GET')),
      [],
      'nothing but reads',
    );
  });

  it('a Discard whose reading of the view fails says so, and the grid goes on with the rows it had', async () => {
    const grid = await openGrid();
    await typeInto(grid, 0, 2, 'Discarded');
    await waitFor(() => gridTab()?.isDirty === true, { message: 'the grid tab to be dirty' });
    await emulatorControl('POST', 'faults', { method: 'GET', path: '^/api/v1/app/102/view/3', status: 500, count: 1 });
    user().answerMessage('Discard', /^Discard the changes of 1 row of All orders\?/);
    await grid.click('#grid-discard');
    await user().waitForMessage(/^Reading view 3 of app 102 failed.*The grid shows the rows it had, without your changes\.$/, {
      level: 'error',
    });
    await waitFor(async () => (await grid.text('#grid-0-2')) === 'Office chairs', { message: 'the cell as read' });
    assert.equal(gridTab()?.isDirty, false);
    await typeInto(grid, 1, 2, 'Still editable');
    await waitFor(() => gridTab()?.isDirty === true, { message: 'an edit after the failed Discard' });
  });

  it('the filters above the grid read the view again with them; a pending row they leave out stays in sight, first', async () => {
    const grid = await openGrid();
    await typeInto(grid, 0, 2, 'Pending');
    await waitFor(() => gridTab()?.isDirty === true, { message: 'the grid tab to be dirty' });
    // The first filter row offers the first column (Order no.) with "equals".
    await grid.click('#grid-add-filter');
    await grid.fill('.filter-value input', '5003');
    const mark = await requestMark();
    await grid.click('#grid-run');
    await waitFor(async () => /^2 rows \(1 filter\) · 1 changed$/.test(await grid.text('#grid-counts')), {
      message: 'the filtered rows and the pending one',
    });
    assert.deepEqual(
      (await requestsSince(mark)).filter((line) => line.includes('/view/')),
      ['GET /api/v1/app/102/view/3 200'],
    );
    const document = await liveGrid();
    assert.deepEqual(document?.filters, [{ column: '10', operator: 'equals', value: '5003' }]);
    assert.deepEqual(document?.model.layout([]).rowIds, ['1', '3'], 'the pending row, pinned first, then record 3 (order 5003)');
    assert.equal(gridTab()?.isDirty, true, 'the pending edit stays');
  });

  it('filters the portal refuses: said beside them through the error boundary, one log line, the rows kept', async () => {
    const grid = await openGrid();
    await grid.click('#grid-add-filter');
    await grid.fill('.filter-value input', '5003');
    await emulatorControl('POST', 'faults', { path: '/view/3$', count: 1, status: 400, body: { error: 'The filter is refused.' } });
    const api = await testApi();
    const before = api.logMark();
    const counts = await grid.text('#grid-counts');
    await grid.click('#grid-run');
    let notice = '';
    await waitFor(async () => /^The filters could not be run: /.test((notice = await grid.text('#grid-notice .message-text'))), {
      message: 'the refusal beside the filters',
    });
    const shown = /^The filters could not be run: (.*) The grid shows the rows it had\.$/.exec(notice)?.[1];
    assert.ok(shown, notice);
    const logged = api.logLinesSince(before).filter((line) => line.includes(shown));
    assert.equal(logged.length, 1, JSON.stringify(api.logLinesSince(before)));
    assert.ok(logged[0].endsWith(`portal.grid grid/filter: ${shown}`), `the error boundary's line: ${logged[0]}`);
    assert.equal(await grid.text('#grid-counts'), counts, 'the grid keeps the rows it had');
  });

  it('Enter on a LookUp cell opens the record it links to, found through a view of the linked app', async () => {
    await (await testApi()).views.add(portal(), '101', { viewId: '1', name: 'All customers' });
    const grid = await openGrid();
    await grid.press('.data-grid', 'Control+Home');
    for (let at = 0; at < 3; at += 1) await grid.press('.data-grid', 'ArrowDown');
    for (let at = 0; at < 4; at += 1) await grid.press('.data-grid', 'ArrowRight');
    assert.equal(await grid.text('#grid-3-4'), 'Hooli');
    await grid.press('.data-grid', 'Enter');
    // Record 4 (Gift baskets) links to customer 5, Hooli.
    await waitFor(() => /^\/101[^/]*\/(.* · )?5\.json$/.test(vscode.window.activeTextEditor?.document.uri.path ?? ''), {
      message: 'the Customers record 5 open',
      timeoutMs: 20_000,
    });
    assert.equal(vscode.window.activeTextEditor?.document.uri.authority, portal());
  });

  it('Delete Rows… runs the bulk delete on the selected rows: its confirmation, progress and report; the rows leave the grid', async () => {
    const grid = await openGrid();
    await grid.press('.data-grid', 'Control+Home');
    for (let at = 0; at < 5; at += 1) await grid.press('.data-grid', 'ArrowDown');
    await grid.press('.data-grid', 'Shift+ArrowDown');
    await grid.waitFor('.grid-cell.selected');
    user().answerMessage('Delete', /^Move 2 records to trash\?$/);
    const mark = await requestMark();
    await grid.click('#grid-delete-rows');
    await user().waitForMessage(/^Deleting 2 records: 2 records moved to trash\./, { level: 'info', timeoutMs: 30_000 });
    assert.deepEqual((await requestsSince(mark)).filter((line) => line.startsWith('DELETE')).sort(), [
      'DELETE /api/v1/app/102/record/6 200',
      'DELETE /api/v1/app/102/record/7 200',
    ]);
    await waitFor(async () => /^6 rows/.test(await grid.text('#grid-counts')), { message: 'two rows fewer in the grid' });
  });

  it('Set Field… runs the bulk change on the selected rows; a row with a pending edit keeps it and is marked changed on the portal', async () => {
    const grid = await openGrid();
    await typeInto(grid, 0, 2, 'Mine, pending');
    await waitFor(() => gridTab()?.isDirty === true, { message: 'the grid tab to be dirty' });
    await grid.press('.data-grid', 'Control+Home');
    await grid.press('.data-grid', 'ArrowRight');
    await grid.press('.data-grid', 'Shift+ArrowDown');
    await grid.waitFor('.grid-cell.selected');
    user()
      .answerQuickPick('Quantity', /Which column/)
      .answerInputBox('42', /Set Quantity on 2 records/)
      .answerMessage('Set Field', /^Set Quantity to "42" on 2 records\?/);
    const mark = await requestMark();
    await grid.click('#grid-set-field');
    await user().waitForMessage(/^Setting Quantity: 2 records updated\./, { level: 'info', timeoutMs: 30_000 });
    assert.deepEqual((await requestsSince(mark)).filter((line) => line.startsWith('PUT')).sort(), [
      'PUT /api/v1/app/102/record/1 200',
      'PUT /api/v1/app/102/record/2 200',
    ]);
    // Record 2 had no pending edit: it shows the portal's value. Record 1 keeps mine and is marked.
    await waitFor(async () => (await grid.text('#grid-1-9')) === '42', { message: 'record 2 read again' });
    await grid.waitFor('#grid-0-0.row-portal');
    assert.equal(await grid.text('#grid-0-2'), 'Mine, pending');
    assert.match(await grid.text('#grid-notice'), /1 of the rows changed had pending edits here: they are kept/);
    assert.equal(gridTab()?.isDirty, true);
    assert.equal((await emulatorRecord('102', '1')).data.f11, 'Office chairs', 'my pending title was not sent by the bulk change');
  });
});
