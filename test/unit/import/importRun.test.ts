// Imports against the emulator over HTTP: the dry run sends nothing, bad rows go to a failures file that
// imports once fixed, upsert sends only what changed, drafts, Cancel and resume, and a lost answer with
// nothing to look it up by is reported, not sent twice.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { dryRunImport, readExisting } from '../../../src/import/importRun';
import { JournalMismatchError } from '../../../src/import/journal';
import { proposeMapping, setTarget } from '../../../src/import/mapping';
import { problemsCsv, summaryText } from '../../../src/import/report';
import type { RecordWriter, RunProgress } from '../../../src/import/runner';
import { openSource } from '../../../src/import/sourceFile';
import { injectFault, testInterface } from '../api/portal';
import { appliedCreates, fieldValues, importFile, requestLog } from './portalImport';
import { CUSTOMER_HEADER, customerLine, customersCsv, useImportPortal } from './support';

const BAD_ROWS = [
  'Bad date Ltd,bad@example.com,Gold,31-02-2026',
  'Bad tier Ltd,tier@example.com,Platinum,2026-01-05',
  ',noname@example.com,Silver,2026-01-06',
];

describe('import: runs against the emulator', function () {
  this.timeout(60_000);
  const portal = useImportPortal();

  it('a dry run lists every failing row with column, value and expected format, and sends nothing', async () => {
    const path = await portal.file(`${CUSTOMER_HEADER}\n${customerLine(1)}\n${BAD_ROWS.join('\n')}\n${customerLine(2)}\n`);
    const source = await openSource(path);
    const result = await dryRunImport({
      source,
      columns: portal.customers,
      settings: { appId: '101', mode: 'create', mapping: proposeMapping(source.columns, portal.customers) },
    });
    assert.deepEqual([result.rows, result.creates, result.failingRows], [5, 2, 3]);
    assert.deepEqual(
      result.problems.map((problem) => [problem.row, problem.column, problem.value]),
      [
        [3, 'Customer since', '31-02-2026'],
        [4, 'Tier', 'Platinum'],
        [5, 'Name', ''],
      ],
    );
    assert.match(result.problems[0].message, /not a real date/);
    assert.equal(result.problems[0].expected, 'DD-MM-YYYY');
    assert.match(result.problems[2].message, /required/);
    const csv = await problemsCsv(result.problems);
    assert.match(csv, /^\ufeffRow,Column,Value,Expected,Problem\r\n3,Customer since,31-02-2026,DD-MM-YYYY,/);
    assert.equal((await requestLog(portal.emulator)).filter((entry) => entry.method !== 'GET').length, 0, 'nothing sent');
  });

  it('a row with no value in any mapped column is refused, not created as a blank record', async () => {
    // An app with no required column (here: the portal not saying which are): nothing else would stop it.
    const optional = portal.customers.map((column) => ({ ...column, required: '0' }));
    const path = await portal.file(JSON.stringify([{ Name: 'Filled Ltd' }, {}, { Unmapped: 'x', Name: '' }]), 'json');
    const source = await openSource(path);
    const result = await dryRunImport({
      source,
      columns: optional,
      settings: { appId: '101', mode: 'create', mapping: proposeMapping(source.columns, optional) },
    });
    assert.deepEqual([result.rows, result.creates, result.failingRows], [3, 1, 2]);
    assert.deepEqual(
      result.problems.map((problem) => problem.row),
      [2, 3],
    );
    assert.match(result.problems[0].message, /the row has no values for the mapped columns/);
  });

  it('creates the good rows, writes the bad ones to a failures file that imports once fixed', async () => {
    const path = await portal.file(`${CUSTOMER_HEADER}\n${customerLine(1)}\n${BAD_ROWS.join('\n')}\n${customerLine(2)}\n`);
    const result = await importFile(path, portal.client, portal.customers, { matchField: 'f2' });
    assert.deepEqual([result.counts.created, result.counts.failed, result.cancelled], [2, 3, false]);
    assert.match(summaryText(result.counts), /^2 created, 0 updated, 0 skipped \(unchanged\), 3 failed$/);
    assert.ok(result.failuresPath);
    const failures = await readFile(result.failuresPath, 'utf8');
    const lines = failures
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    assert.equal(lines[0], `${CUSTOMER_HEADER},Import problem`);
    assert.equal(lines.length, 4);
    assert.match(lines[1], /^Bad date Ltd,bad@example.com,Gold,31-02-2026,"?row 3: Customer since: not a real date/);
    // Fixed in the failures file itself, which imports as it is (its problem column is left unmapped).
    await writeFile(
      result.failuresPath,
      failures.replace('31-02-2026', '28-02-2026').replace('Platinum', 'Gold').replace(',noname@', 'Named Ltd,noname@'),
    );
    const again = await importFile(result.failuresPath, portal.client, portal.customers, { matchField: 'f2' });
    assert.deepEqual([again.counts.created, again.counts.failed], [3, 0]);
    const names = await fieldValues(portal.client, '101', '1', 'f2');
    assert.equal(names.length, 12 + 5);
  });

  it('a row with more cells than the header keeps them all in the failures file, so fixing its quotes imports it', async () => {
    const path = await portal.file('Name,Email\nZeta, Inc,zeta@example.com\n');
    const result = await importFile(path, portal.client, portal.customers, { matchField: 'f2' });
    assert.deepEqual([result.counts.created, result.counts.failed], [0, 1]);
    const failures = await readFile(result.failuresPath ?? '', 'utf8');
    const line = failures
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n')[1];
    assert.match(line, /^Zeta," Inc",zeta@example\.com,"?row 2: \(the row\): the row has 3 cells/, 'no cell lost, the problem last');
    await writeFile(result.failuresPath ?? '', failures.replace('Zeta," Inc"', '"Zeta, Inc"'));
    const again = await importFile(result.failuresPath ?? '', portal.client, portal.customers, { matchField: 'f2' });
    assert.deepEqual([again.counts.created, again.counts.failed], [1, 0]);
    const created = (await portal.client.readView('101', '1')).rows.find((row) => row.values.f2 === 'Zeta, Inc');
    assert.equal(created?.values.f3, 'zeta@example.com');
  });

  it('upsert: updates the record named by its id or its unique column, sending only changed fields', async () => {
    const view = await portal.client.readView('101', '1');
    const acme = view.rows[0];
    const second = view.rows[1];
    const name = acme.values.f2;
    const path = await portal.file(
      [
        'Id,Name,Email,Tier',
        `${acme.id},${name},renamed@example.com,${acme.values.f6}`, // by id: only the e-mail changes
        `,${second.values.f2},${second.values.f3},${second.values.f6}`, // by name: nothing changes
        ',Brand new Ltd,new@example.com,Gold', // no match: created
      ].join('\n'),
    );
    const existing = await readExisting(portal.client, '101', '1', 'f2');
    const before = (await testInterface(portal.emulator, 'GET', `records/101/${second.id}`)) as { updated_at: string };
    const result = await importFile(path, portal.client, portal.customers, { mode: 'upsert', matchField: 'f2', existing });
    assert.deepEqual([result.counts.updated, result.counts.unchanged, result.counts.created, result.counts.failed], [1, 1, 1, 0]);
    const record = (await portal.client.readRecord('101', acme.id as string)).data;
    assert.equal(record.f3, 'renamed@example.com');
    const after = (await testInterface(portal.emulator, 'GET', `records/101/${second.id}`)) as { updated_at: string };
    assert.equal(after.updated_at, before.updated_at, 'the unchanged record was not written');
    assert.equal((await requestLog(portal.emulator)).filter((entry) => entry.method === 'PUT').length, 1);
  });

  it('announces each record it created or updated as it goes, not a row unchanged or failed', async () => {
    const view = await portal.client.readView('101', '1');
    const [first, second] = view.rows;
    const path = await portal.file(
      [
        'Id,Name,Email,Tier',
        `${first.id},${first.values.f2},announced@example.com,${first.values.f6}`, // updated
        `,${second.values.f2},${second.values.f3},${second.values.f6}`, // unchanged
        ',Announced Ltd,new@example.com,Gold', // created
        ',Bad tier Ltd,tier@example.com,Platinum', // failed
      ].join('\n'),
    );
    const existing = await readExisting(portal.client, '101', '1', 'f2');
    const announced: Array<{ recordId: string; kind: string }> = [];
    const result = await importFile(path, portal.client, portal.customers, {
      mode: 'upsert',
      matchField: 'f2',
      existing,
      onRecordChanged: (change) => announced.push(change),
    });
    assert.deepEqual([result.counts.updated, result.counts.unchanged, result.counts.created, result.counts.failed], [1, 1, 1, 1]);
    const created = (await portal.client.readView('101', '1')).rows.find((row) => row.values.f2 === 'Announced Ltd')?.id;
    assert.ok(created);
    assert.deepEqual(
      announced.sort((a, b) => a.kind.localeCompare(b.kind)),
      [
        { recordId: created, kind: 'created' },
        { recordId: first.id, kind: 'updated' },
      ],
    );
  });

  it('upsert: a cell of only spaces leaves the field as it is, as an empty cell does', async () => {
    const acme = (await portal.client.readView('101', '1')).rows[0];
    const kept = ['f3', 'f6', 'f7', 'f9'].filter((field) => (acme.values[field] ?? '') !== '');
    assert.ok(kept.length >= 3, `the seeded record has values to lose (${kept.join(', ')})`);
    const path = await portal.file(`Id,Email,Tier,Account manager,Customer since\n${acme.id},  , ,\t, \n`);
    const existing = await readExisting(portal.client, '101', '1', 'f2');
    const result = await importFile(path, portal.client, portal.customers, { mode: 'upsert', existing });
    assert.deepEqual([result.counts.unchanged, result.counts.updated, result.counts.failed], [1, 0, 0]);
    assert.equal((await requestLog(portal.emulator)).filter((entry) => entry.method === 'PUT').length, 0, 'nothing sent');
    const record = (await portal.client.readRecord('101', acme.id as string)).data;
    for (const field of kept) assert.equal(record[field], acme.values[field], field);
  });

  it('creates drafts in an app with Draft mode, and publishes the drafts it updates when asked', async () => {
    const path = await portal.file('Title,Order date,Amount\nDraft order,2026-03-01,10\n');
    const result = await importFile(path, portal.client, portal.orders, { appId: '102', draft: 'draft', lookupViewId: '3' });
    assert.equal(result.counts.created, 1);
    const createdId = result.counts.created === 1 ? (await portal.client.readView('102', '3')).rows.at(-1)?.id : undefined;
    assert.equal(((await testInterface(portal.emulator, 'GET', `records/102/${createdId}`)) as { draft: boolean }).draft, true);
    const drafts = (await portal.client.readView('102', '3')).rows.filter((row) => row.draft === true);
    const publish = await portal.file(`Id,Title\n${drafts.map((row) => `${row.id},${row.values.f11}`).join('\n')}\n`);
    const existing = await readExisting(portal.client, '102', '3');
    const published = await importFile(publish, portal.client, portal.orders, {
      appId: '102',
      mode: 'upsert',
      draft: 'published',
      existing,
      lookupViewId: '3',
    });
    assert.equal(published.counts.updated, drafts.length);
    assert.equal((await portal.client.readView('102', '3')).rows.filter((row) => row.draft === true).length, 0);
  });

  it('a create whose answer is lost, with nothing to look it up by, is reported uncertain and not sent again', async () => {
    await injectFault(portal.emulator, { path: '/record/$', method: 'POST', lose_answer: true });
    const path = await portal.file('Title,Order date,Amount\nLost order,2026-03-01,10\n');
    const result = await importFile(path, portal.client, portal.orders, { appId: '102', lookupViewId: '3' });
    assert.deepEqual([result.counts.created, result.counts.uncertain], [0, 1]);
    assert.match(result.uncertain[0].reason ?? '', /may have created this record.*not sent again: check the app/);
    assert.equal(await appliedCreates(portal.emulator, '102'), 1, 'sent once');
    // Not silently lost: the row is in a file of its own (not the failures file, which is imported again).
    assert.equal(result.failuresPath, undefined);
    assert.equal(result.uncertainPath, path.replace(/\.csv$/, '.uncertain.csv'));
    const lines = (await readFile(result.uncertainPath, 'utf8'))
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    assert.equal(lines.length, 2, 'the header and the row');
    assert.match(lines[0], /^Title,Order date,Amount,Import problem$/);
    assert.match(lines[1], /^Lost order,2026-03-01,10,"?row 2: the portal may have created this record/);
  });

  it('Cancel stops the run; the same import resumes where it stopped, each record created once', async () => {
    const path = await portal.file(customersCsv(300));
    const controller = new AbortController();
    await injectFault(portal.emulator, { path: '/record/$', method: 'POST', latency_ms: 5, count: -1 });
    const first = await importFile(path, portal.client, portal.customers, {
      matchField: 'f2',
      signal: controller.signal,
      onProgress: (progress) => progress.done >= 100 && controller.abort(),
    });
    assert.equal(first.cancelled, true);
    assert.ok(first.counts.created >= 100 && first.counts.created < 300, String(first.counts.created));
    assert.equal(first.failuresPath, undefined);
    const before = (await requestLog(portal.emulator)).length;
    const second = await importFile(path, portal.client, portal.customers, { matchField: 'f2' });
    assert.equal(second.resumed, true);
    assert.deepEqual([second.counts.created, second.counts.failed, second.counts.uncertain], [300, 0, 0]);
    // Only the creates that may have been in flight at the Cancel (4 at once) are looked for; rows whose
    // attempt was journalled ahead but never sent are not.
    const lookUps = (await requestLog(portal.emulator))
      .slice(before)
      .filter((entry) => entry.method === 'GET' && entry.path === '/api/v1/app/101/view/1');
    assert.ok(lookUps.length <= 4, `${lookUps.length} look-ups after the resume`);
    const names = await fieldValues(portal.client, '101', '1', 'f2');
    assert.equal(names.length, 312);
    assert.equal(await appliedCreates(portal.emulator, '101'), 300);
  });

  it('a resumed import still refuses a row with the key of a row created before the stop', async () => {
    // Orders' Title is not unique in the portal: only the import's own check keeps the second row out.
    const rows = Array.from({ length: 40 }, (_, index) => `Keyed order ${index + 1},2026-03-01,10`);
    rows.push('Keyed order 2,2026-03-02,20');
    const path = await portal.file(`Title,Order date,Amount\n${rows.join('\n')}\n`);
    const controller = new AbortController();
    await injectFault(portal.emulator, { path: '/record/$', method: 'POST', latency_ms: 5, count: -1 });
    const settings = { appId: '102', matchField: 'f11', lookupViewId: '3', concurrency: 2 };
    const first = await importFile(path, portal.client, portal.orders, {
      ...settings,
      signal: controller.signal,
      onProgress: (progress) => progress.done >= 10 && controller.abort(),
    });
    assert.equal(first.cancelled, true);
    assert.ok(first.counts.created < 40, String(first.counts.created));
    const second = await importFile(path, portal.client, portal.orders, settings);
    assert.deepEqual([second.resumed, second.counts.created, second.counts.failed], [true, 40, 1]);
    assert.match(await readFile(second.failuresPath ?? '', 'utf8'), /Keyed order 2,2026-03-02,20,row 42: Title: row 3 has the same value/);
    assert.equal((await fieldValues(portal.client, '102', '3', 'f11')).filter((title) => title === 'Keyed order 2').length, 1);
  });

  it('honours Retry-After: after a 429 no worker sends a create before the time the portal asked for; progress has count, rate and time left', async () => {
    await injectFault(portal.emulator, { path: '/record/$', method: 'POST', status: 429, headers: { 'Retry-After': '1' } });
    const path = await portal.file(customersCsv(6));
    const progress: RunProgress[] = [];
    /** Outcome lines in the journal file at each progress event. */
    const onDisk: number[] = [];
    const result = await importFile(path, portal.client, portal.customers, {
      matchField: 'f2',
      concurrency: 3,
      total: 6,
      onProgress: (event) => {
        // The wait itself is reported too, with the rows as they were (importWaits.test.ts): not one of these.
        if (event.waitingSeconds !== undefined) return;
        progress.push(event);
        onDisk.push(
          readFileSync(`${path}.portal-journal.jsonl`, 'utf8')
            .split('\n')
            .filter((line) => line.includes('"type":"outcome"')).length,
        );
      },
    });
    assert.equal(result.counts.created, 6);
    const creates = (
      (await testInterface(portal.emulator, 'GET', 'requests')) as Array<{ method: string; status: number; time: string }>
    ).filter((entry) => entry.method === 'POST');
    const refused = creates.findIndex((entry) => entry.status === 429);
    assert.ok(refused >= 0);
    // Creates already on their way when the 429 came may finish just after it; none is sent for a second.
    const refusedAt = Date.parse(creates[refused].time);
    const during = creates.filter((entry) => Date.parse(entry.time) - refusedAt > 250 && Date.parse(entry.time) - refusedAt < 900);
    assert.deepEqual(during, [], 'no create while the portal asked to wait');
    assert.ok(
      creates.some((entry) => Date.parse(entry.time) - refusedAt >= 900),
      'the rest went out after the wait',
    );
    // An event after each write of outcome lines: a row counts as done once its line is on disk.
    assert.deepEqual(
      progress.map((event) => event.done),
      onDisk,
    );
    assert.ok(
      progress.every((event, index) => index === 0 || event.done > progress[index - 1].done),
      'rising',
    );
    assert.equal(progress.at(-1)?.done, 6);
    assert.ok(progress.every((event) => event.total === 6 && event.ratePerSecond > 0 && event.secondsLeft !== undefined));
    assert.equal(progress.at(-1)?.secondsLeft, 0);
  });

  it('Cancel while the portal asks to wait leaves nothing uncertain, even without a look-up: the resumed run creates each row once', async () => {
    await injectFault(portal.emulator, { path: '/record/$', method: 'POST', status: 429, headers: { 'Retry-After': '2' }, count: 2 });
    const path = await portal.file(
      `Title,Order date,Amount\n${Array.from({ length: 6 }, (_, index) => `Waiting order ${index},2026-03-01,10`).join('\n')}\n`,
    );
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 500);
    const first = await importFile(path, portal.client, portal.orders, {
      appId: '102',
      lookupViewId: '3',
      concurrency: 2,
      signal: controller.signal,
    });
    assert.equal(first.cancelled, true);
    assert.equal(first.counts.created, 0, 'cancelled during the wait');
    const second = await importFile(path, portal.client, portal.orders, { appId: '102', lookupViewId: '3' });
    assert.deepEqual([second.counts.created, second.counts.uncertain, second.counts.failed], [6, 0, 0]);
    assert.equal(await appliedCreates(portal.emulator, '102'), 6);
  });

  it('never has more requests in flight than its bound, creates and look-ups alike, and reaches it', async () => {
    // Slow creates, and lost answers so that look-ups go out beside them.
    await injectFault(portal.emulator, { path: '/record/$', method: 'POST', lose_answer: true, count: 4 });
    await injectFault(portal.emulator, { path: '/record/$', method: 'POST', latency_ms: 40, count: -1 });
    await injectFault(portal.emulator, { path: '/view/1$', method: 'GET', latency_ms: 40, count: -1 });
    let inFlight = 0;
    let most = 0;
    const counted = <T>(send: () => Promise<T>): Promise<T> => {
      most = Math.max(most, (inFlight += 1));
      return send().finally(() => (inFlight -= 1));
    };
    const writer: RecordWriter = {
      createRecord: (...args) => counted(() => portal.client.createRecord(...args)),
      readRecord: (...args) => counted(() => portal.client.readRecord(...args)),
      updateRecord: (...args) => counted(() => portal.client.updateRecord(...args)),
      deleteRecord: (...args) => counted(() => portal.client.deleteRecord(...args)),
      readView: (...args) => counted(() => portal.client.readView(...args)),
    };
    const result = await importFile(await portal.file(customersCsv(60)), writer, portal.customers, { matchField: 'f2', concurrency: 3 });
    assert.deepEqual([result.counts.created, result.counts.uncertain], [60, 0]);
    assert.equal(most, 3, 'at most 3 requests at once, and 3 reached');
    // The portal's side: spans of the requests it served (end time and duration) never overlap more than 3 deep.
    const served = (
      (await testInterface(portal.emulator, 'GET', 'requests')) as Array<{
        method: string;
        path: string;
        time: string;
        duration_ms: number;
      }>
    )
      .filter((entry) => entry.path.startsWith('/api/v1/app/101/'))
      .map((entry) => ({ end: Date.parse(entry.time), start: Date.parse(entry.time) - entry.duration_ms }));
    assert.ok(served.filter((span) => span.end - span.start >= 35).length >= 60, 'the requests were slow enough to overlap');
    // 2 ms of slack: times are whole milliseconds, and the next request of a worker starts as the last ends.
    const deepest = Math.max(
      ...served.map((span) => served.filter((other) => other.start <= span.start && span.start < other.end - 2).length),
    );
    assert.ok(deepest <= 3 && deepest >= 2, `the portal served at most 3 at once (deepest ${deepest})`);
  });

  it('resumes a journal only with the settings it started with: another key or mapping is refused, saying which', async () => {
    const path = await portal.file(customersCsv(40));
    const controller = new AbortController();
    await injectFault(portal.emulator, { path: '/record/$', method: 'POST', latency_ms: 5, count: -1 });
    const first = await importFile(path, portal.client, portal.customers, {
      matchField: 'f2',
      signal: controller.signal,
      onProgress: (progress) => progress.done >= 10 && controller.abort(),
    });
    assert.equal(first.cancelled, true);
    const header = JSON.parse((await readFile(first.journalPath, 'utf8')).split('\n')[0]) as {
      settings: { key: string; mode: string; mapping: Record<string, string> };
    };
    assert.deepEqual(
      [header.settings.mode, header.settings.key, header.settings.mapping.Name, header.settings.mapping.Email],
      ['create', 'f2', 'field:f2', 'field:f3'],
      'the journal keeps the mode, key and mapping',
    );
    const refused = (pattern: RegExp) => (error: Error) => error instanceof JournalMismatchError && pattern.test(error.message);
    await assert.rejects(importFile(path, portal.client, portal.customers, {}), refused(/other settings \(key: f2, now none\)/));
    const withoutEmail = setTarget(
      proposeMapping(['Name', 'Email', 'Tier', 'Customer since'], portal.customers),
      'Email',
      { kind: 'ignored', reason: 'set to "Ignore"' },
      portal.customers,
    );
    await assert.rejects(
      importFile(path, portal.client, portal.customers, { matchField: 'f2', mapping: withoutEmail }),
      refused(/column "Email": f3, now ignored/),
    );
    await assert.rejects(
      importFile(path, portal.client, portal.customers, { matchField: 'f2', mode: 'upsert' }),
      refused(/mode: create, now upsert/),
    );
    const resumed = await importFile(path, portal.client, portal.customers, { matchField: 'f2' });
    assert.deepEqual([resumed.resumed, resumed.counts.created, resumed.counts.failed], [true, 40, 0]);
    assert.equal(await appliedCreates(portal.emulator, '101'), 40, 'each row created once');
  });

  it('refuses to resume with a journal of another version of the file', async () => {
    const path = await portal.file(customersCsv(3));
    await importFile(path, portal.client, portal.customers, { matchField: 'f2' });
    await writeFile(path, customersCsv(4));
    await assert.rejects(
      importFile(path, portal.client, portal.customers, { matchField: 'f2' }),
      (error: Error) => error instanceof JournalMismatchError && /file changed since the import started/.test(error.message),
    );
  });
});
