// A large view opened as an editable grid while its rows arrive (issue 19): the first rows show (and can be
// edited) while the rest is still coming, with "Loading… N rows" and Cancel; Cancel keeps the rows read,
// marked partial, with Retry; Retry reads the view again and the pending edit stays, in sight while it does.
// The emulator sends the view slowly (its bytesPerSecond knob); its request log has a request once its
// answer has ended.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { emulatorRecord, requestsSince, requestMark } from './support/documents';
import { BROWSER_TAG, driver } from './support/driver';
import { emulatorControl, resetEmulator } from './support/emulator';
import { emulatorPortal } from './support/explorer';
import { testApi } from './support/extension';
import { gridTab, liveGrid, typeInto } from './support/grid';
import { waitFor } from './support/wait';

const ROWS = 6_000;
const VIEW_PATH = '/api/v1/app/201/view/6';
const VIEW_GET = `GET ${VIEW_PATH}`;
const PAGE = 'All tickets';

/** The view's reads the emulator has answered to the end since `mark`. */
async function viewReads(mark: number): Promise<number> {
  return (await requestsSince(mark)).filter((line) => line.startsWith(VIEW_GET)).length;
}

/** The view opened as a grid, every row in: the portal, the page, and the grid's document. */
async function openWhole(): Promise<{
  portalId: string;
  grid: ReturnType<typeof driver.webview>;
  live: NonNullable<Awaited<ReturnType<typeof liveGrid>>>;
}> {
  const portalId = await emulatorPortal();
  await vscode.commands.executeCommand('portal.openViewAsGrid', { portalId, appId: '201', viewId: '6', viewName: PAGE });
  const grid = driver.webview(PAGE);
  await grid.waitFor('#grid-0-1', { timeoutMs: 30_000 });
  const live = await liveGrid();
  assert.ok(live, 'the grid in front');
  await waitFor(() => live.loadState.state === 'done', { message: 'every row in', timeoutMs: 30_000 });
  return { portalId, grid, live };
}

describe(`a large view as an editable grid while its rows arrive ${BROWSER_TAG}`, function () {
  this.timeout(120_000);

  beforeEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await resetEmulator();
    await emulatorControl('POST', 'config', { bigViewRecords: ROWS });
    // The tree's copies of the views were read before the reset: a grid opening now would share them
    // (one copy per view) instead of reading the slow portal each test sets up.
    (await testApi()).rows.drop();
  });

  afterEach(async () => {
    // The grid keeps a pending edit: Revert (the tab's own) before closing, so that closing asks nothing.
    if (gridTab()?.isDirty) {
      await emulatorControl('POST', 'config', { bytesPerSecond: 0 });
      await vscode.commands.executeCommand('workbench.action.files.revert');
      await waitFor(() => gridTab()?.isDirty === false, { message: 'the grid reverted' });
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await resetEmulator();
  });

  it('shows and edits the first rows while the rest is coming; Cancel keeps them, marked partial; Retry reads again and keeps the edit', async () => {
    // ~1.6 MB at 100 KB/s: about 16 s for the whole answer.
    await emulatorControl('POST', 'config', { bytesPerSecond: 100_000 });
    const portalId = await emulatorPortal();
    const mark = await requestMark();
    // Not awaited: the editor opens while the rows are still coming.
    const opening = vscode.commands.executeCommand('portal.openViewAsGrid', { portalId, appId: '201', viewId: '6', viewName: PAGE });
    const grid = driver.webview(PAGE);
    await grid.waitFor('#grid-0-1', { timeoutMs: 30_000 });
    const loading = await grid.text('#grid-counts');
    assert.match(loading, /^Loading… [\d,]+ rows/, 'the count says the rows are still arriving');
    assert.ok(Number(/[\d,]+/.exec(loading)?.[0].replace(/,/g, '')) < ROWS, loading);
    assert.equal(await viewReads(mark), 0, 'the answer is still coming when the first rows show');
    await grid.waitFor('#grid-cancel-load', { state: 'visible' });

    // A row that has arrived can be edited meanwhile.
    await typeInto(grid, 0, 2, 'Early');
    await waitFor(async () => (await grid.texts('.grid-cell.pending')).length === 1, { message: 'the edit pending' });
    await waitFor(() => gridTab()?.isDirty === true, { message: 'the tab dirty' });
    await driver.screenshot('grid-loading');

    await grid.click('#grid-cancel-load');
    let counts = '';
    await waitFor(async () => /^[\d,]+ rows \(partial\)/.test((counts = await grid.text('#grid-counts'))), {
      message: 'the read stopped, its rows kept',
      timeoutMs: 30_000,
    });
    const kept = Number(/^[\d,]+/.exec(counts)?.[0].replace(/,/g, ''));
    assert.ok(kept > 0 && kept < ROWS, counts);
    assert.match(await grid.text('#grid-notice'), new RegExp(`Cancelled after ${kept.toLocaleString('en-US')} rows`));
    assert.match(counts, /1 changed/);
    assert.equal(await grid.text('#grid-0-2'), 'Early', 'the rows read and the edit stay');
    await grid.waitFor('#grid-cancel-load', { state: 'hidden' });
    await opening;
    await driver.screenshot('grid-cancelled');

    await emulatorControl('POST', 'config', { bytesPerSecond: 0 });
    const retried = await requestMark();
    await grid.click('#grid-retry');
    await waitFor(async () => (await grid.text('#grid-counts')).startsWith(`${ROWS.toLocaleString('en-US')} rows`), {
      message: 'the view read again in full',
      timeoutMs: 30_000,
    });
    assert.match(await grid.text('#grid-counts'), /1 changed/, 'the pending edit survives the reload');
    assert.equal(await grid.text('#grid-0-2'), 'Early');
    assert.equal(gridTab()?.isDirty, true);
    assert.equal(await viewReads(retried), 1, 'Retry reads the view once');
  });

  it('saves an edit made while the rows still arrive: the arrived rows are saved, the rest go on arriving', async () => {
    // ~1.6 MB at 100 KB/s: about 16 s for the whole answer, the save done long before.
    await emulatorControl('POST', 'config', { bytesPerSecond: 100_000 });
    const portalId = await emulatorPortal();
    // Not awaited: the editor opens while the rows are still coming.
    const opening = vscode.commands.executeCommand('portal.openViewAsGrid', { portalId, appId: '201', viewId: '6', viewName: PAGE });
    const grid = driver.webview(PAGE);
    await grid.waitFor('#grid-0-1', { timeoutMs: 30_000 });
    await typeInto(grid, 0, 2, 'Saved early');
    await waitFor(() => gridTab()?.isDirty === true, { message: 'the tab dirty' });
    const live = await liveGrid();
    assert.ok(live, 'the grid in front');
    const recordId = live.model.layout([]).rowIds[0];
    const mark = await requestMark();
    await grid.press('.data-grid', 'Control+S');
    await waitFor(() => gridTab()?.isDirty === false, { message: 'the tab saved', timeoutMs: 30_000 });
    assert.equal(live.loadState.state, 'loading', 'the save did not wait for the rest of the rows');
    assert.deepEqual(
      (await requestsSince(mark)).filter((line) => line.startsWith('PUT ')),
      [`PUT /api/v1/app/201/record/${recordId} 200`],
      'the one changed row sent',
    );
    assert.equal((await emulatorRecord('201', recordId)).data.f31, 'Saved early');
    await emulatorControl('POST', 'config', { bytesPerSecond: 0 });
    await waitFor(() => live.loadState.state === 'done', { message: 'every row in', timeoutMs: 60_000 });
    assert.equal(live.model.rowCount, ROWS, 'the rows arrived after the save, none twice');
    assert.equal(await grid.text('#grid-0-2'), 'Saved early');
    await opening;
  });

  it('shares its read with the tree: the view shown in both is read once', async () => {
    const portalId = await emulatorPortal();
    const mark = await requestMark();
    // The tree's read (as expanding the view does) and the grid, opened while it runs.
    const treeRead = (await testApi()).rows.read({ portalId, appId: '201', viewId: '6' });
    const { live } = await openWhole();
    const stored = await treeRead;
    assert.equal(stored.rows.length, ROWS);
    assert.equal(live.model.rowCount, ROWS);
    assert.equal(await viewReads(mark), 1, 'one request for the tree and the grid');
  });

  it('is not read again from the start when an import elsewhere changes one of its records after Cancel: that row follows', async () => {
    await emulatorControl('POST', 'config', { bytesPerSecond: 100_000 });
    const portalId = await emulatorPortal();
    const opening = vscode.commands.executeCommand('portal.openViewAsGrid', { portalId, appId: '201', viewId: '6', viewName: PAGE });
    const grid = driver.webview(PAGE);
    await grid.waitFor('#grid-cancel-load', { state: 'visible', timeoutMs: 30_000 });
    await grid.click('#grid-cancel-load');
    await waitFor(async () => /\(partial\)/.test(await grid.text('#grid-counts')), {
      message: 'the read stopped by the user',
      timeoutMs: 30_000,
    });
    await opening;
    const live = await liveGrid();
    assert.ok(live, 'the grid in front');
    const subject = live.model.columns.find((column) => column.name === 'Subject')?.key ?? '';

    // An import elsewhere in this window changes record 2 (one of the rows read) and announces it.
    const api = await testApi();
    await api.portals.client(portalId).updateRecord('201', '2', { [subject]: 'Imported change' });
    api.recordEvents.fire({ portalId, appId: '201', recordId: '2', kind: 'updated', origin: 'local', source: 'import' });
    await waitFor(async () => (await grid.text('#grid-1-2')) === 'Imported change', {
      message: 'the imported row follows',
      timeoutMs: 30_000,
    });
    assert.equal(live.loadState.state, 'partial', 'the view is not read again from its first row, against the Cancel');
    assert.match(await grid.text('#grid-counts'), /\(partial\)/);
  });

  it('takes a webhook during loading: a row that arrived is refreshed at once, one still coming is read again when it comes', async () => {
    await emulatorControl('POST', 'config', { bytesPerSecond: 100_000 });
    const portalId = await emulatorPortal();
    const opening = vscode.commands.executeCommand('portal.openViewAsGrid', { portalId, appId: '201', viewId: '6', viewName: PAGE });
    const grid = driver.webview(PAGE);
    await grid.waitFor('#grid-0-1', { timeoutMs: 30_000 });
    const api = await testApi();
    const live = await liveGrid();
    assert.ok(live, 'the grid in front');
    assert.equal(live.loadState.state, 'loading');
    const subject = live.model.columns.find((column) => column.name === 'Subject')?.key ?? '';
    const late = String(ROWS - 10);
    assert.equal(live.model.hasRow(late), false, `record ${late} has not arrived yet`);

    // Someone else changes records 2 and ${late}; the portal's webhooks say so.
    const client = api.portals.client(portalId);
    await client.updateRecord('201', '2', { [subject]: 'Changed early' });
    await client.updateRecord('201', late, { [subject]: 'Changed late' });
    const mark = await requestMark();
    api.recordEvents.fire({ portalId, appId: '201', recordId: '2', kind: 'updated', origin: 'webhook' });
    api.recordEvents.fire({ portalId, appId: '201', recordId: late, kind: 'updated', origin: 'webhook' });
    await waitFor(async () => (await grid.text('#grid-1-2')) === 'Changed early', { message: 'the row that arrived refreshed' });
    assert.equal(live.loadState.state, 'loading', 'while the rows were still arriving');

    await emulatorControl('POST', 'config', { bytesPerSecond: 0 });
    await waitFor(() => live.loadState.state === 'done', { message: 'every row in', timeoutMs: 30_000 });
    await waitFor(async () => (await requestsSince(mark)).includes(`GET /api/v1/app/201/record/${late} 200`), {
      message: `record ${late} read again once it arrived`,
    });
    assert.equal(live.model.changeSet.value(late, subject), 'Changed late');
    assert.ok(!api.logLines().some((line) => /refreshing row .* failed/.test(line)), 'no refresh failed');
    await opening;
  });

  it("takes a webhook that comes before a new read's first rows: the row is read again when it arrives, not left as the read had it", async () => {
    const { portalId, grid, live } = await openWhole();
    const api = await testApi();
    const subject = live.model.columns.find((column) => column.name === 'Subject')?.key ?? '';

    // The view read again (Retry); the portal carries the read out at once and its answer leaves 3 s later.
    await emulatorControl('POST', 'faults', { path: VIEW_PATH, count: 1, answer_delay_ms: 3_000 });
    const again = live.retry();
    await waitFor(async () => (await emulatorControl<unknown[]>('GET', 'faults')).length === 0, {
      message: 'the read carried out by the portal',
    });
    // Meanwhile someone else changes record 2, and the portal's webhook says so: the answer on its way is older.
    await api.portals.client(portalId).updateRecord('201', '2', { [subject]: 'Changed while the view was read' });
    const mark = await requestMark();
    api.recordEvents.fire({ portalId, appId: '201', recordId: '2', kind: 'updated', origin: 'webhook' });
    await again;
    await waitFor(() => live.loadState.state === 'done', { message: 'the new read ended', timeoutMs: 30_000 });
    await waitFor(async () => (await grid.text('#grid-1-2')) === 'Changed while the view was read', {
      message: "the row shows the portal's change, not the read's older copy",
    });
    assert.ok((await requestsSince(mark)).includes('GET /api/v1/app/201/record/2 200'), 'the row was read again');
  });

  it('keeps a pending edit in sight, first, while the view is read again slowly; the read does not show the row twice', async () => {
    const { grid, live } = await openWhole();
    const subject = live.model.columns.find((column) => column.name === 'Subject')?.key ?? '';
    // A pending edit of a row near the end of the view (as a paste down there makes it).
    const late = String(ROWS - 10);
    live.edit('edit', 'Edit', [{ recordId: late, field: subject, value: 'Still here' }]);
    await waitFor(() => gridTab()?.isDirty === true, { message: 'the tab dirty' });

    // Read again (as Retry and Run do) at 100 KB/s: about 16 s before the read reaches that row.
    await emulatorControl('POST', 'config', { bytesPerSecond: 100_000 });
    const mark = await requestMark();
    await live.retry();
    await waitFor(async () => (await grid.text('#grid-counts')).startsWith('Loading…'), { message: 'the page shows the read under way' });
    await waitFor(async () => (await grid.text('#grid-0-2')) === 'Still here', {
      message: 'the pending row in sight, first, while the rows arrive',
    });
    assert.deepEqual(await grid.texts('.grid-cell.pending'), ['Still here'], 'with its pending mark');
    assert.match(await grid.text('#grid-counts'), /^Loading… [\d,]+ rows · 1 changed$/);
    assert.equal(live.loadState.state, 'loading', 'the read has not reached the row');
    assert.equal(await viewReads(mark), 0, 'the answer is still coming');
    await driver.screenshot('grid-pinned-while-reading');

    await emulatorControl('POST', 'config', { bytesPerSecond: 0 });
    await waitFor(async () => (await grid.text('#grid-counts')).startsWith(`${ROWS.toLocaleString('en-US')} rows`), {
      message: 'the read ended',
      timeoutMs: 30_000,
    });
    assert.equal(live.model.rowCount, ROWS, 'the row the read reached is shown once');
    assert.equal(await grid.text('#grid-0-2'), 'Still here', 'where it was');
    assert.deepEqual(await grid.texts('.grid-cell.pending'), ['Still here']);
    assert.match(await grid.text('#grid-counts'), /· 1 changed$/);
    assert.equal(gridTab()?.isDirty, true);
  });

  it("shows the new read's copy of a row kept in sight once the read reaches it, when its edit was typed back meanwhile", async () => {
    const { portalId, grid, live } = await openWhole();
    const subject = live.model.columns.find((column) => column.name === 'Subject')?.key ?? '';
    const late = String(ROWS - 10);
    const asRead = live.model.changeSet.value(late, subject);
    live.edit('edit', 'Edit', [{ recordId: late, field: subject, value: 'Mine for now' }]);
    // Someone else changes that record's subject (no webhook): the grid learns it from the next read.
    const api = await testApi();
    await api.portals.client(portalId).updateRecord('201', late, { [subject]: 'Theirs' });

    await emulatorControl('POST', 'config', { bytesPerSecond: 100_000 });
    await live.retry();
    await waitFor(async () => (await grid.text('#grid-0-2')) === 'Mine for now', {
      message: 'the pending row in sight, first, while the rows arrive',
    });
    // The edit typed back while the read has not reached the row: nothing pending, the row shows its copy as read.
    live.edit('edit', 'Edit', [{ recordId: late, field: subject, value: asRead }]);
    await waitFor(async () => (await grid.text('#grid-0-2')) === asRead, { message: 'the row as read before' });
    assert.equal(live.loadState.state, 'loading', 'the read has not reached the row');

    await emulatorControl('POST', 'config', { bytesPerSecond: 0 });
    await waitFor(() => live.loadState.state === 'done', { message: 'the read ended', timeoutMs: 30_000 });
    assert.equal(live.model.changeSet.value(late, subject), 'Theirs', 'the model took the new copy');
    await waitFor(async () => (await grid.text('#grid-0-2')) === 'Theirs', {
      message: 'the page shows the new copy, not the one the read replaced',
    });
  });

  it("after a save checked with one read of the view, a saved row shows the portal's copy, though the read stopped early", async () => {
    const { portalId, grid, live } = await openWhole();
    const subject = live.model.columns.find((column) => column.name === 'Subject')?.key ?? '';
    const customer = live.model.columns.findIndex((column) => column.name === 'Customer');
    const customerId = live.model.changeSet.value('2', live.model.columns.find((column) => column.name === 'Customer id')?.key ?? '');
    // The first 600 rows of the view: too many for a GET each next door, so the save checks them with one
    // read of the view, which it stops once their copies came (the other 5,400 rows are not needed).
    live.edit(
      'fill',
      'Fill',
      Array.from({ length: 600 }, (_, at) => ({ recordId: String(at + 1), field: subject, value: `Saved ${at + 1}` })),
    );
    // Someone else renames the customer record 2 links to: its LookUp cell changes, no one's edit of the row.
    await (await testApi()).portals.client(portalId).updateRecord('101', customerId, { f2: 'Renamed meanwhile' });
    // The view's answer at 200 KB/s: its first rows come at once, the whole 1.5 MB only after the updates.
    await emulatorControl('POST', 'config', { bytesPerSecond: 200_000 });
    const mark = await requestMark();
    await grid.press('.data-grid', 'Control+S');
    await waitFor(() => gridTab()?.isDirty === false, { message: 'the tab saved', timeoutMs: 30_000 });
    await emulatorControl('POST', 'config', { bytesPerSecond: 0 });
    const log = await requestsSince(mark);
    assert.deepEqual(
      log.filter((line) => line.startsWith('GET /api/v1/app/201/record/')),
      [],
      `checked with one read of the view, no GET per row: ${log.join('; ')}`,
    );
    await waitFor(async () => (await grid.text(`#grid-1-${customer + 1}`)) === 'Renamed meanwhile', {
      message: "the saved row shows the portal's copy with my field on top",
    });
    assert.equal(await grid.text('#grid-1-2'), 'Saved 2');
  });

  it('keeps the rows read when the answer breaks off midway and says how many; a backup taken while rows arrive keeps the edit', async () => {
    // ~9 s before the connection breaks, at 100 KB/s.
    await emulatorControl('POST', 'config', { bytesPerSecond: 100_000 });
    await emulatorControl('POST', 'faults', { path: VIEW_PATH, count: 1, drop_after_bytes: 900_000 });
    const portalId = await emulatorPortal();
    const opening = vscode.commands.executeCommand('portal.openViewAsGrid', { portalId, appId: '201', viewId: '6', viewName: PAGE });
    const grid = driver.webview(PAGE);
    await grid.waitFor('#grid-0-1', { timeoutMs: 30_000 });
    await typeInto(grid, 0, 2, 'Kept');
    await waitFor(() => gridTab()?.isDirty === true, { message: 'the tab dirty' });

    // The backup VS Code asks for on hot exit, taken while the rows arrive, and a grid opened from it.
    const api = await testApi();
    const live = await liveGrid();
    assert.ok(live, 'the grid in front');
    assert.equal(live.loadState.state, 'loading', 'the rows are still arriving');
    const tab = gridTab();
    assert.ok(tab && tab.input instanceof vscode.TabInputCustom);
    const destination = vscode.Uri.joinPath(api.context.globalStorageUri, 'grid-streaming-backup.json');
    const backup = await api.gridEditor.backupCustomDocument(live, { destination });
    const restored = await api.gridEditor.openCustomDocument(tab.input.uri, { backupId: backup.id, untitledDocumentData: undefined });
    await api.gridEditor.firstRows(restored);
    const recordId = restored.model.layout([]).rowIds[0];
    const subject = restored.model.columns.find((column) => column.name === 'Subject')?.key ?? '';
    assert.equal(restored.model.changeSet.value(recordId, subject), 'Kept', 'the pending edit is back');
    assert.equal(restored.model.changeSet.isPending(recordId, subject), true);
    restored.dispose();
    backup.delete();

    let counts = '';
    await waitFor(async () => /^[\d,]+ rows \(partial\)/.test((counts = await grid.text('#grid-counts'))), {
      message: 'the read to break off',
      timeoutMs: 40_000,
    });
    const read = /^[\d,]+/.exec(counts)?.[0] ?? '';
    assert.ok(Number(read.replace(/,/g, '')) > 200 && Number(read.replace(/,/g, '')) < ROWS, counts);
    assert.match(
      await grid.text('#grid-notice'),
      new RegExp(`^Partial: Reading view 6 of app 201 failed: .* Only ${read} rows were read before it broke off\\.`),
    );
    assert.equal(await grid.text('#grid-0-2'), 'Kept', 'the rows read and the edit stay');
    await grid.waitFor('#grid-retry', { state: 'visible' });
    await opening;
    await driver.screenshot('grid-broken-off');
  });

  it('gives its rows back when its tab closes', async () => {
    const portalId = await emulatorPortal();
    await vscode.commands.executeCommand('portal.openViewAsGrid', { portalId, appId: '201', viewId: '6', viewName: PAGE });
    const grid = driver.webview(PAGE);
    await waitFor(async () => (await grid.text('#grid-counts')).startsWith(`${ROWS.toLocaleString('en-US')} rows`), {
      message: 'every row in',
      timeoutMs: 30_000,
    });
    const live = await liveGrid();
    assert.ok(live, 'the grid in front');
    const last = live.model.layout([]).rowIds.at(-1) ?? '';
    assert.ok(live.model.copyOf(last), "the last row's copy, parsed from the read's bytes");
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await waitFor(() => live.model.copyOf(last) === undefined, { message: "the grid's rows released with its tab" });
  });
});
