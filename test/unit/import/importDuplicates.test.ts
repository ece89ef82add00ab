// Zero duplicates, zero lost rows, counted in the emulator: two runs of one journal at once, creates whose
// answer is lost and whose look-up is then refused, a create answered 503, a crash between an attempt line and its outcome, and a
// journal line torn by a crash. Each case ends with every row of the file created exactly once.
import * as assert from 'node:assert/strict';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { journalSettings } from '../../../src/import/importRun';
import { Journal } from '../../../src/import/journal';
import { JournalBusyError } from '../../../src/import/journalLock';
import { proposeMapping } from '../../../src/import/mapping';
import { hashFile, openSource } from '../../../src/import/sourceFile';
import { injectFault, testInterface } from '../api/portal';
import { appliedCreates, fieldValues, importFile, requestLog } from './portalImport';
import { customersCsv, useImportPortal } from './support';

describe('import: no duplicate and no lost row (fault suite)', function () {
  this.timeout(120_000);
  const portal = useImportPortal();

  /** Every row of the file is a record once: the portal carried out `count` creates and holds each name once. */
  async function createdOnce(prefix: string, count: number): Promise<void> {
    assert.equal(await appliedCreates(portal.emulator, '101'), count, 'creates the portal carried out');
    const names = (await fieldValues(portal.client, '101', '1', 'f2')).filter((name) => name.startsWith(prefix));
    assert.equal(names.length, count, 'records of the file');
    assert.equal(new Set(names).size, count, 'no name twice');
  }

  it('refuses a second run of the same journal while the first runs: 50 rows, 50 creates', async () => {
    const path = join(portal.folder, 'twice.csv');
    await writeFile(path, customersCsv(50, 1, 'Twice'));
    // Slow creates: the first run is still going when the second starts.
    await injectFault(portal.emulator, { path: '/record/$', method: 'POST', latency_ms: 20, count: -1 });
    const first = importFile(path, portal.client, portal.customers, { matchField: 'f2', concurrency: 2 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const second = importFile(path, portal.client, portal.customers, { matchField: 'f2', concurrency: 2 });
    await assert.rejects(second, (error: unknown) => {
      assert.ok(error instanceof JournalBusyError, String(error));
      assert.match(error.message, /is running in this window since/);
      return true;
    });
    const result = await first;
    assert.deepEqual([result.counts.created, result.counts.failed, result.counts.uncertain], [50, 0, 0]);
    await createdOnce('Twice', 50);
    // The refused run left the journal and its lock alone; the first run's end let go of the lock.
    await stat(result.journalPath);
    await assert.rejects(stat(`${result.journalPath}.lock`), { code: 'ENOENT' });
  });

  it('keeps a lost create whose look-up is refused uncertain, and the resumed run finds it instead of creating it again', async () => {
    const path = join(portal.folder, 'refused.csv');
    await writeFile(path, customersCsv(20, 1, 'Refused'));
    await injectFault(portal.emulator, { path: '/record/$', method: 'POST', lose_answer: true, count: 3 });
    // The look-up view read is refused (a sign-in that expired, a view deleted): 403 for every read.
    await injectFault(portal.emulator, { path: '/view/', method: 'GET', status: 403, count: -1 });
    const first = await importFile(path, portal.client, portal.customers, { matchField: 'f2', concurrency: 1 });
    assert.deepEqual([first.counts.created, first.counts.failed, first.counts.uncertain], [17, 0, 3]);
    assert.equal(first.failuresPath, undefined, 'no failures file: importing it would create the records again');
    assert.ok(first.uncertainPath);
    assert.equal((await readFile(first.uncertainPath, 'utf8')).trim().split('\n').length, 4, 'the three rows in the uncertain rows file');
    assert.match(first.uncertain[0]?.reason ?? '', /may have created this record.*could not be looked up/);

    await testInterface(portal.emulator, 'DELETE', 'faults');
    const resumed = await importFile(path, portal.client, portal.customers, { matchField: 'f2', concurrency: 1 });
    assert.equal(resumed.resumed, true);
    assert.deepEqual([resumed.counts.created, resumed.counts.failed, resumed.counts.uncertain], [20, 0, 0]);
    await createdOnce('Refused', 20);
  });

  it('looks up a create answered 503 before sending it again: the API does not say a 503 was not carried out', async () => {
    const path = join(portal.folder, 'busy.csv');
    await writeFile(path, customersCsv(10, 1, 'Busy'));
    await injectFault(portal.emulator, { path: '/record/$', method: 'POST', status: 503, headers: { 'Retry-After': '0' }, count: 2 });
    const result = await importFile(path, portal.client, portal.customers, { matchField: 'f2', concurrency: 1 });
    assert.deepEqual([result.counts.created, result.counts.failed, result.counts.uncertain], [10, 0, 0]);
    const log = await requestLog(portal.emulator);
    const after503 = log.flatMap((entry, index) => (entry.status === 503 ? [log[index + 1]] : []));
    assert.equal(after503.length, 2);
    for (const next of after503)
      assert.match(`${next?.method} ${next?.path}`, /^GET \/api\/v1\/app\/101\/view\/1/, 'the look-up comes first');
    await createdOnce('Busy', 10);
  });

  /** A journal of `path` as runImport would open it, with the defaults of importFile and the key f2. */
  async function journalOf(path: string): Promise<Journal> {
    const source = await openSource(path);
    const settings = { appId: '101', mode: 'create' as const, mapping: proposeMapping(source.columns, portal.customers), matchField: 'f2' };
    return Journal.open(`${path}.portal-journal.jsonl`, {
      kind: 'import',
      appId: '101',
      source: basename(path),
      sourceHash: await hashFile(path),
      settings: journalSettings(settings),
    });
  }

  it('resumes after a crash between attempt lines and their outcomes: the records sent are found, the others sent once', async () => {
    const path = join(portal.folder, 'crashed.csv');
    await writeFile(path, customersCsv(10, 1, 'Crashed'));
    const journal = await journalOf(path);
    // Rows 2-4 (customers 1-3) were attempted; the portal created 1 and 2 before the process died.
    for (const index of [1, 2, 3]) await journal.attempt(index + 1, { field: 'f2', value: `Crashed customer ${index}` });
    await journal.close();
    for (const index of [1, 2]) await portal.client.createRecord('101', { f2: `Crashed customer ${index}` }, {});
    const resumed = await importFile(path, portal.client, portal.customers, { matchField: 'f2' });
    assert.equal(resumed.resumed, true);
    assert.deepEqual([resumed.counts.created, resumed.counts.failed, resumed.counts.uncertain], [10, 0, 0]);
    await createdOnce('Crashed', 10);
  });

  it('resumes from a journal whose last line a crash tore: that row is looked for, not created twice', async () => {
    const path = join(portal.folder, 'torn.csv');
    await writeFile(path, customersCsv(10, 1, 'Torn'));
    const journal = await journalOf(path);
    for (const index of [1, 2, 3, 4, 5]) await journal.attempt(index + 1, { field: 'f2', value: `Torn customer ${index}` });
    for (const index of [1, 2, 3, 4]) {
      const { id } = await portal.client.createRecord('101', { f2: `Torn customer ${index}` }, {});
      await journal.record({ row: index + 1, outcome: 'created', recordId: id });
    }
    await journal.close();
    await portal.client.createRecord('101', { f2: 'Torn customer 5' }, {});
    // The outcome of row 6 (customer 5) cut off mid-line by the crash.
    await writeFile(`${path}.portal-journal.jsonl`, '{"type":"outcome","row":6,"outc', { flag: 'a' });
    const resumed = await importFile(path, portal.client, portal.customers, { matchField: 'f2' });
    assert.deepEqual([resumed.counts.created, resumed.counts.failed, resumed.counts.uncertain], [10, 0, 0]);
    await createdOnce('Torn', 10);
  });
});
