// Bulk import and bulk change in a real VS Code, through the mapping panel's and the Query View's own
// buttons: a CSV with three bad rows (the dry run lists them, the import creates the rest), an import
// cancelled halfway from its notification and resumed (no record twice: the emulator's records are
// counted), and Set Field / Delete Rows on a query result. The file dialogs and questions are answered
// through the prompter seam (code-server refuses dialogs while extension tests run).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { BROWSER_TAG, driver } from './support/driver';
import { emulatorControl } from './support/emulator';
import { testApi } from './support/extension';
import { fieldsOf, openRecord, setField } from './support/documents';
import { clearNotifications, clickNotificationAction } from './support/notifications';
import { connectEmulator, removeAllPortals } from './support/portals';
import { useScriptedPrompter } from './support/prompter';
import { waitFor } from './support/wait';
import { workspaceFile } from './support/workspace';

interface EmulatorRecord {
  trashed: boolean;
  data: Record<string, string>;
}

const HEADER = 'Name,Email,Tier,Customer since';
const line = (index: number, prefix: string): string =>
  `${prefix} ${index},c${index}@example.com,${['Bronze', 'Silver', 'Gold'][index % 3]},2026-01-${String((index % 28) + 1).padStart(2, '0')}`;

describe(`bulk import and bulk change ${BROWSER_TAG}`, function () {
  this.timeout(180_000);
  const user = useScriptedPrompter();
  let portalId: string;

  before(async () => {
    await emulatorControl('POST', 'reset');
    await removeAllPortals();
    portalId = await connectEmulator({ label: 'Demo portal' });
  });

  afterEach(async () => {
    await emulatorControl('DELETE', 'faults');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await clearNotifications();
  });

  /** Names of the live records of app 101 (view 1 shows them all). */
  async function customerNames(): Promise<string[]> {
    return (await (await testApi()).portals.client(portalId).readView('101', '1')).rows.map((row) => row.values.f2 ?? '');
  }

  async function openImport(uri: vscode.Uri, title: string): Promise<ReturnType<typeof driver.webview>> {
    user().answerOpenDialog([uri]);
    await vscode.commands.executeCommand('portal.importRecords', { portalId, appId: '101' });
    const panel = driver.webview(title);
    await panel.waitFor('#import-mapping tbody tr', { timeoutMs: 20_000 });
    return panel;
  }

  it('a CSV with three bad rows: the dry run lists them and sends nothing, the import creates the rest', async () => {
    const rows = [
      line(1, 'Good'),
      'Bad date Ltd,bad@example.com,Gold,31-02-2026',
      line(2, 'Good'),
      'Bad tier Ltd,tier@example.com,Platinum,2026-01-05',
      ',noname@example.com,Silver,2026-01-06',
      line(3, 'Good'),
    ];
    const uri = await workspaceFile('customers.csv', `${HEADER}\n${rows.join('\n')}\n`);
    const before = await customerNames();
    const panel = await openImport(uri, 'Import customers.csv');
    await panel.click('#dry-run');
    await panel.waitFor('#dry-run-problems tbody tr');
    const problems = await panel.texts('#dry-run-problems tbody tr td:first-child');
    assert.deepEqual(problems, ['3', '5', '6'], 'the three bad rows, by their row in the file');
    assert.match(await panel.text('#dry-run-summary'), /6 rows: 3 to create, .*3 would fail/);
    assert.deepEqual(await customerNames(), before, 'the dry run sent nothing');
    await driver.screenshot('import-dry-run');

    await panel.click('#import');
    await user().waitForMessage(/^Imported customers\.csv: 3 created, 0 updated, 0 skipped \(unchanged\), 3 failed/, {
      level: 'info',
      timeoutMs: 60_000,
    });
    const after = await customerNames();
    assert.equal(after.length, before.length + 3);
    assert.deepEqual(after.filter((name) => name.startsWith('Good ')).sort(), ['Good 1', 'Good 2', 'Good 3']);
    const failures = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(uri, '..', 'customers.failures.csv')));
    assert.equal(failures.trim().split(/\r?\n/).length, 4, 'the header and the three failed rows');
    assert.match(await panel.text('#import-message'), /Import finished: 3 created/);
  });

  it('a quote never closed: the dry run lists its row, the import does not start until told to skip it', async () => {
    const tail = Array.from({ length: 50 }, (_, index) => line(index + 10, 'Swallowed')).join('\n');
    const uri = await workspaceFile(
      'open-quote.csv',
      `${HEADER}\n${line(1, 'Before')}\n"Open quote Ltd,open@example.com,Gold,2026-01-02\n${tail}\n`,
    );
    const before = await customerNames();
    const panel = await openImport(uri, 'Import open-quote.csv');
    await panel.click('#dry-run');
    await panel.waitFor('#dry-run-problems tbody tr');
    assert.deepEqual(await panel.texts('#dry-run-problems tbody tr td:first-child'), ['3']);
    assert.match(
      (await panel.texts('#dry-run-problems tbody tr td:last-child'))[0],
      /never closed: the rest of the file \(50 more lines\)/,
    );

    await panel.click('#import');
    await waitFor(
      async () => /The import did not start: Row 3 has a quote in "Name" that is never closed/.test(await panel.text('#import-message')),
      { message: 'the refusal', timeoutMs: 30_000 },
    );
    assert.deepEqual(await customerNames(), before, 'nothing sent');

    await panel.click('#option-unreadableRows vscode-dropdown');
    await panel.click('#option-unreadableRows vscode-option[value="skip"]');
    await panel.click('#import');
    await user().waitForMessage(/^Imported open-quote\.csv: 1 created, 0 updated, 0 skipped \(unchanged\), 1 failed/, {
      level: 'info',
      timeoutMs: 60_000,
    });
    assert.equal((await customerNames()).length, before.length + 1);
  });

  it('an import cancelled halfway resumes where it stopped and creates no record twice', async () => {
    const count = 120;
    const logged = await emulatorControl<Array<{ seq: number }>>('GET', 'requests');
    const since = logged.at(-1)?.seq ?? 0;
    const uri = await workspaceFile(
      'many.csv',
      `${HEADER}\n${Array.from({ length: count }, (_, index) => line(index + 1, 'Resumed')).join('\n')}\n`,
    );
    const before = (await customerNames()).length;
    // Slow creates, so that Cancel lands halfway.
    await emulatorControl('POST', 'faults', { method: 'POST', path: '^/api/v1/app/101/record/$', count: -1, latency_ms: 150 });
    const panel = await openImport(uri, 'Import many.csv');
    // The key (Name, unique) is proposed; the view is where a create cut off by Cancel is looked for.
    await panel.fill('#option-viewId input', '1');
    await panel.press('#option-viewId input', 'Tab');
    await panel.click('#import');
    await waitFor(async () => (await customerNames()).length - before >= 30, { message: '30 records created', timeoutMs: 60_000 });
    await clickNotificationAction(/Importing many\.csv/, 'Cancel');
    await user().waitForMessage(/^Import of many\.csv cancelled/, { level: 'info', timeoutMs: 30_000 });
    const halfway = (await customerNames()).length - before;
    assert.ok(halfway > 0 && halfway < count, `cancelled halfway (${halfway} of ${count})`);
    await emulatorControl('DELETE', 'faults');

    const again = await openImport(uri, 'Import many.csv');
    await again.fill('#option-viewId input', '1');
    await again.press('#option-viewId input', 'Tab');
    user().answerMessage('Resume', /did not finish/);
    await again.click('#import');
    await user().waitForMessage(/^Imported many\.csv: 120 created, 0 updated, 0 skipped \(unchanged\), 0 failed/, {
      level: 'info',
      timeoutMs: 60_000,
    });
    // Name is unique in Customers, so a create sent twice would be refused rather than duplicated: count the creates the portal took and refused.
    const creates = (
      await emulatorControl<Array<{ method: string; path: string; status: number }>>('GET', `requests?since=${since}`)
    ).filter((entry) => entry.method === 'POST' && entry.path === '/api/v1/app/101/record/');
    assert.equal(creates.filter((entry) => entry.status === 200).length, count, 'one create taken per row');
    assert.deepEqual(
      creates.filter((entry) => entry.status >= 400),
      [],
      'no create refused as a duplicate',
    );
    const names = (await customerNames()).filter((name) => name.startsWith('Resumed '));
    assert.equal(names.length, count, 'every row once');
    assert.equal(new Set(names).size, count, 'no record twice');
  });

  it('Set Field reloads the open document of a record it changed; Delete Rows marks one deleted, its unsaved edits kept', async () => {
    await emulatorControl('POST', 'reset');
    const document = await openRecord(portalId, '101', '1');
    assert.notEqual(fieldsOf(document).f3, 'bulk@example.com');
    user()
      .answerQuickPick('Email', /Which column/)
      .answerInputBox('bulk@example.com', /Set Email/)
      .answerMessage('Set Field', /^Set Email to "bulk@example\.com" on 1 record\?/);
    await vscode.commands.executeCommand('portal.bulkSetField', { portalId, appId: '101', viewId: '1', recordIds: ['1'] });
    await user().waitForMessage(/^Setting Email: 1 record updated\./, { level: 'info', timeoutMs: 30_000 });
    assert.equal((await emulatorControl<EmulatorRecord>('GET', 'records/101/1')).data.f3, 'bulk@example.com');
    await waitFor(() => fieldsOf(document).f3 === 'bulk@example.com', {
      message: "the record's document to show the bulk change",
      timeoutMs: 10_000,
    });
    assert.equal(document.isDirty, false);

    // Delete Rows on a record whose document has unsaved edits: the edits stay, and its save says the record was deleted.
    const dirty = await openRecord(portalId, '101', '2');
    await setField(dirty, 'f8', 'Typed before the delete');
    const edited = dirty.getText();
    user().answerMessage('Delete', /^Move 1 record to trash\?/);
    await vscode.commands.executeCommand('portal.bulkDeleteRows', { portalId, appId: '101', viewId: '1', recordIds: ['2'] });
    await user().waitForMessage(/^Deleting 1 record: 1 record moved to trash\./, { level: 'info', timeoutMs: 30_000 });
    assert.equal(dirty.getText(), edited);
    await assert.rejects(
      Promise.resolve(vscode.workspace.fs.writeFile(dirty.uri, new TextEncoder().encode(edited))),
      /Record 2 was deleted in the portal \(moved to its trash\)/,
    );
  });

  it('Set Field and Delete Rows on a query result', async () => {
    await emulatorControl('POST', 'reset');
    const client = (await testApi()).portals.client(portalId);
    const gold = (await client.readView('101', '2')).rows.map((row) => row.id ?? '');
    assert.ok(gold.length >= 3, 'the seed has gold customers');
    await vscode.commands.executeCommand('portal.queryView', { portalId, appId: '101', viewId: '2', viewName: 'Gold customers' });
    const panel = driver.webview('Gold customers');
    await panel.waitFor('#run:not([disabled])', { timeoutMs: 20_000 }); // on once the columns have come
    await panel.click('#run');
    await waitFor(async () => panel.evaluate<boolean>("!document.querySelector('#bulk-set-field').disabled"), {
      message: 'the result is in',
    });

    user()
      .answerQuickPick('Customer since', /Which column/)
      .answerInputBox('31-02-2026', /Set Customer since/)
      .answerInputBox('2026-03-01', /Set Customer since/)
      .answerMessage('Set Field', new RegExp(`Set Customer since to "01-03-2026" on ${gold.length} records`));
    // No row selected: every row of the result.
    await panel.click('#bulk-set-field');
    await user().waitForMessage(new RegExp(`^Setting Customer since: ${gold.length} records? updated\\.`), {
      level: 'info',
      timeoutMs: 60_000,
    });
    const rejected = user().prompts.find((prompt) => prompt.kind === 'inputBox')?.validationMessages ?? [];
    assert.match(rejected.join(' '), /not a real date/, 'the value is checked like any value');
    for (const id of gold) assert.equal((await emulatorControl<EmulatorRecord>('GET', `records/101/${id}`)).data.f9, '01-03-2026');

    // Two rows selected in the grid (a click, then Shift+Down): Delete Rows acts on those alone.
    await panel.click('.grid-body .grid-row[aria-rowindex="2"] .grid-cell');
    await panel.press('.data-grid', 'Shift+ArrowDown');
    assert.equal(await panel.text('#selected-rows'), '2 selected');
    user().answerMessage('Delete', /^Move the 2 selected records to trash\?/);
    await panel.click('#bulk-delete');
    await user().waitForMessage(/^Deleting 2 records: 2 records moved to trash\./, { level: 'info', timeoutMs: 60_000 });
    const [first, second, ...rest] = gold;
    for (const id of [first, second])
      assert.equal((await emulatorControl<EmulatorRecord>('GET', `records/101/${id}`)).trashed, true, `selected record ${id} is in trash`);
    for (const id of rest)
      assert.equal((await emulatorControl<EmulatorRecord>('GET', `records/101/${id}`)).trashed, false, `record ${id}, not selected, stays`);

    // Nothing selected after the query runs again: every row of the result.
    await panel.click('#run');
    await waitFor(
      async () =>
        panel.evaluate<boolean>(
          "!document.querySelector('#bulk-delete').disabled && document.querySelector('#selected-rows').textContent === ''",
        ),
      { message: 'the result is in again' },
    );
    user().answerMessage('Delete', new RegExp(`^Move all ${rest.length} records of the result to trash\\?`));
    await panel.click('#bulk-delete');
    // Two records are left, so this message reads as the first delete's: the wait is for a second one.
    await waitFor(
      () =>
        user()
          .messagesOf('info')
          .filter((text) => /^Deleting \d+ records?: /.test(text)).length === 2,
      { message: 'the second delete done', timeoutMs: 60_000 },
    );
    assert.match(
      user()
        .messagesOf('info')
        .filter((text) => text.startsWith('Deleting '))
        .pop() ?? '',
      new RegExp(`^Deleting ${rest.length} records: ${rest.length} records moved to trash\\.`),
    );
    for (const id of gold)
      assert.equal((await emulatorControl<EmulatorRecord>('GET', `records/101/${id}`)).trashed, true, `record ${id} is in trash`);
    assert.deepEqual((await client.readView('101', '2')).rows, [], 'the view shows none of them');
  });
});
