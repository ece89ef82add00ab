// Journey (k): bulk import, as a person does it. A CSV in the workspace with three bad rows: Import
// Records… from the palette, the app picked, the file chosen in VS Code's own open dialog; in the mapping
// panel Dry Run lists the three rows (row, column, value, expected) and sends nothing; Import creates the
// rest (the emulator's records counted, its request log read). Then a longer file under a slow portal
// (the emulator's latency fault): cancelled halfway from the progress notification's Cancel, imported
// again, Resume chosen in VS Code's dialog, and every row ends created exactly once. Last, Import Records…
// started again on a file whose import goes on: refused with a message that says where it runs, its
// Show It brings the running import's panel back, and that run alone creates every row, once.
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { emulatorCall, eventually, requestMark, requestsSince, viewAsAnotherUser, type LoggedRequest } from './support/emulator';
import { panelFrame } from './support/panels';
import { collapseTree, showView } from './support/tree';
import {
  answerFileDialog,
  clearNotifications,
  clickNotificationButton,
  closeAllEditors,
  freshStart,
  notification,
  pick,
  runCommand,
} from './support/workbench';
import { page, screenshots, world } from './support/world';

const CUSTOMERS = ['Demo portal', 'Operations', 'Customers'];
const CREATE = '/api/v1/app/101/record/';
const HEADER = 'Name,Email,Tier,Customer since';
/** Names start with `prefix`, so that the portal's own view counts the rows this journey created. */
const line = (index: number, prefix: string): string =>
  `${prefix} ${index},c${index}@example.com,${['Bronze', 'Silver', 'Gold'][index % 3]},2026-01-${String((index % 28) + 1).padStart(2, '0')}`;
/** The names of app 101's records whose Name contains `text`, as the portal itself finds them (Name is field 2, "contains" operator 0). */
const namesWith = async (text: string): Promise<string[]> =>
  (await viewAsAnotherUser('101', '1', { filter_columns: '2', filter_operators: '0', filter_values: text })).map((row) => String(row.f2));
const customersNamed = async (text: string): Promise<number> => (await namesWith(text)).length;

const creates = (requests: readonly LoggedRequest[]): LoggedRequest[] =>
  requests.filter((request) => request.method === 'POST' && request.path === CREATE);

/** Import Records… from the palette: Customers picked, `name` chosen in the open dialog. */
async function startImport(name: string): Promise<void> {
  await runCommand('Portal: Import Records…');
  await pick(/Which app\?/, 'Customers');
  await answerFileDialog(
    /Import records from/,
    (value) => value.endsWith('/workspace/'),
    name,
    join(world().profile.workspace, name),
    'Import',
  );
}

/** Import Records… of `name`: the mapping panel's frame. */
async function openImport(name: string): Promise<Frame> {
  await startImport(name);
  const frame = await panelFrame(`Import ${name}`);
  await frame.locator('#import-mapping tbody tr').first().waitFor();
  await frame.locator('#import:not([disabled])').waitFor();
  return frame;
}

/** The dry run's table as a person reads it: one entry per row listed. */
async function dryRunProblems(frame: Frame): Promise<{ row: string; column: string; value: string; expected: string; problem: string }[]> {
  const rows = await frame
    .locator('#dry-run-problems tbody tr')
    .evaluateAll((elements) =>
      elements.map((element) => [...element.querySelectorAll('td')].map((cell) => (cell.textContent ?? '').trim())),
    );
  return rows.map(([row, column, value, expected, problem]) => ({ row, column, value, expected, problem }));
}

describe('Journey (k): bulk import, with a dry run, cancelled and resumed', function () {
  this.timeout(240_000);

  before(async () => {
    await freshStart();
    await emulatorCall('DELETE', 'faults');
  });

  after(async () => {
    await emulatorCall('DELETE', 'faults');
    await closeAllEditors();
  });

  it('a CSV with three bad rows: the dry run lists them and sends nothing; Import creates the rest', async () => {
    const shot = screenshots('k-import-dry-run');
    // The view through which the import looks for a create whose answer was lost, added as a person does.
    await collapseTree();
    await showView(CUSTOMERS, '1', { expand: false });
    const good = [1, 2, 3].map((index) => line(index, 'Journey good'));
    const rows = [
      good[0],
      'Bad date Ltd,bad@example.com,Gold,31-02-2026',
      good[1],
      'Bad tier Ltd,tier@example.com,Platinum,2026-01-05',
      ',noname@example.com,Silver,2026-01-06',
      good[2],
    ];
    writeFileSync(join(world().profile.workspace, 'new-customers.csv'), `${HEADER}\n${rows.join('\n')}\n`);
    const before = await customersNamed('Journey good');
    const frame = await openImport('new-customers.csv');
    await shot('mapping panel open');
    const lookupView = await frame
      .locator('#option-viewId vscode-dropdown')
      .evaluate((element) =>
        ((element as unknown as { selectedOptions?: { textContent: string | null }[] }).selectedOptions?.[0]?.textContent ?? '').trim(),
      );
    assert.match(lookupView, /\(view 1\)$/, 'the view added in the tree is proposed for look-ups');

    let mark = await requestMark();
    await frame.locator('#dry-run').click();
    await frame.locator('#dry-run-problems tbody tr').first().waitFor();
    await frame.locator('#dry-run-problems').scrollIntoViewIfNeeded();
    await shot('dry run lists the bad rows');
    assert.match(await frame.locator('#dry-run-summary').innerText(), /^6 rows: 3 to create, 0 to update, 0 unchanged, 3 would fail\./);
    const problems = await dryRunProblems(frame);
    assert.deepEqual(
      problems.map(({ row, column, value }) => ({ row, column, value })),
      [
        { row: '3', column: 'Customer since', value: '31-02-2026' },
        { row: '5', column: 'Tier', value: 'Platinum' },
        { row: '6', column: 'Name', value: '' },
      ],
      'the three bad rows by their row in the file, with the column and the value',
    );
    assert.match(problems[0].expected, /DD-MM-YYYY/, 'a date column expects DD-MM-YYYY (or ISO 8601)');
    assert.match(problems[1].expected, /Bronze.*Silver.*Gold/, 'a choice column expects one of its choices');
    assert.match(problems[2].expected, /required/, 'a required column expects a value');
    assert.deepEqual(creates(await requestsSince(mark)), [], 'the dry run sent nothing');

    mark = await requestMark();
    await frame.locator('#import').click();
    await notification(/^Imported new-customers\.csv: 3 created, 0 updated, 0 skipped \(unchanged\), 3 failed\./, 60_000);
    await frame.locator('#import-message', { hasText: /Import finished: 3 created/ }).waitFor();
    await shot('imported');
    const sent = creates(await requestsSince(mark));
    assert.deepEqual(
      sent.map((request) => request.status),
      [200, 200, 200],
      'three creates, each taken',
    );
    assert.equal(await customersNamed('Journey good'), before + 3, "the portal's view counts the three good rows");
    assert.equal(await customersNamed('Bad'), 0, 'no bad row reached the portal');
  });

  it('an import cancelled halfway from its notification, run again and resumed: every row created exactly once', async () => {
    const shot = screenshots('k-import-resume');
    await closeAllEditors();
    await clearNotifications();
    const count = 80;
    writeFileSync(
      join(world().profile.workspace, 'many-customers.csv'),
      `${HEADER}\n${Array.from({ length: count }, (_, index) => line(index + 1, 'Resumed')).join('\n')}\n`,
    );
    // A slow portal, so that Cancel lands halfway: every create waits 400 ms before it is carried out.
    await emulatorCall('POST', 'faults', { method: 'POST', path: `^${CREATE}$`, count: -1, latency_ms: 400 });
    const mark = await requestMark();
    let frame = await openImport('many-customers.csv');
    await frame.locator('#import').click();
    await notification(/Importing many-customers\.csv/);
    await eventually(
      async () => creates(await requestsSince(mark)).length,
      (done) => done >= 20,
      'twenty creates answered',
      60_000,
    );
    await shot('importing slowly');
    await clickNotificationButton(/Importing many-customers\.csv/, 'Cancel');
    await notification(/^Import of many-customers\.csv cancelled: \d+ created/, 30_000);
    await frame.locator('#import-message', { hasText: /Import cancelled: \d+ created/ }).waitFor();
    await shot('cancelled');
    const halfway = await customersNamed('Resumed');
    assert.ok(halfway > 0 && halfway < count, `cancelled halfway: ${halfway} of ${count} created`);
    await emulatorCall('DELETE', 'faults');

    await clearNotifications();
    frame = await openImport('many-customers.csv');
    await frame.locator('#import').click();
    const dialog = page().locator('.monaco-dialog-box', { hasText: /An earlier import of many-customers\.csv did not finish/ });
    await dialog.waitFor();
    await shot('resume or start over');
    await dialog.getByRole('button', { name: 'Resume', exact: true }).click();
    await notification(
      new RegExp(`^Imported many-customers\\.csv: ${count} created, 0 updated, 0 skipped \\(unchanged\\), 0 failed\\.`),
      90_000,
    );
    await shot('resumed and finished');

    const posts = creates(await requestsSince(mark));
    assert.equal(posts.filter((request) => request.status === 200).length, count, `one create taken per row: ${posts.length} sent`);
    assert.deepEqual(
      posts.filter((request) => request.status !== 200),
      [],
      'no create refused (a second create of a name would be refused as a duplicate)',
    );
    const names = await namesWith('Resumed');
    assert.equal(names.length, count, 'the portal holds as many records as the file has rows');
    assert.deepEqual(
      [...new Set(names)].sort(),
      Array.from({ length: count }, (_, index) => `Resumed ${index + 1}`).sort(),
      'each row once',
    );
  });

  it('Import Records… started again on a file whose import goes on is refused, saying where it runs: each row created once', async () => {
    const shot = screenshots('k-import-twice');
    await closeAllEditors();
    await clearNotifications();
    const count = 200;
    writeFileSync(
      join(world().profile.workspace, 'twice-customers.csv'),
      `${HEADER}\n${Array.from({ length: count }, (_, index) => line(index + 1, 'Twice')).join('\n')}\n`,
    );
    // So slow (four creates a second and a half) that the run still goes on when the command is run again.
    await emulatorCall('POST', 'faults', { method: 'POST', path: `^${CREATE}$`, count: -1, latency_ms: 1500 });
    const mark = await requestMark();
    const frame = await openImport('twice-customers.csv');
    await frame.locator('#import').click();
    await notification(/Importing twice-customers\.csv/);
    await eventually(
      async () => creates(await requestsSince(mark)).length,
      (done) => done >= 4,
      'the first creates answered',
      60_000,
    );

    await startImport('twice-customers.csv');
    await notification(/^An import of twice-customers\.csv is already running in this window since \d/, 30_000);
    await shot('second import refused');
    await clickNotificationButton(/^An import of twice-customers\.csv is already running/, 'Show It');
    // The running import's panel, still open: the refusal closed nothing.
    await page().locator('.part.editor .tabs-container .tab.active', { hasText: 'Import twice-customers.csv' }).waitFor();
    await frame.locator('#import[disabled]').waitFor();
    await shot('the running import shown');

    await emulatorCall('DELETE', 'faults');
    await notification(
      new RegExp(`^Imported twice-customers\\.csv: ${count} created, 0 updated, 0 skipped \\(unchanged\\), 0 failed\\.`),
      90_000,
    );
    const posts = creates(await requestsSince(mark));
    assert.equal(posts.length, count, `one create per row: ${posts.length} sent`);
    const names = await namesWith('Twice');
    assert.equal(names.length, count);
    assert.equal(new Set(names).size, count, 'each row once');
  });
});
