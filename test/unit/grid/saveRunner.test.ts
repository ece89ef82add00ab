// Saving the grid against the emulator over HTTP: one GET (the conflict check) and one PUT of only the
// changed fields per row, conflicts held back with what Keep mine and Take theirs need, deleted rows,
// 429 Retry-After, 5xx and dropped connections, cancellation; counted in the emulator's request log.
import * as assert from 'node:assert/strict';
import { PortalClient } from '../../../src/api/client';
import type { ChangeSet } from '../../../src/grid/model/changeSet';
import { keepMine, takeTheirs } from '../../../src/grid/model/conflicts';
import type { EditHistory } from '../../../src/grid/model/editHistory';
import { appRecords, type AppRecords } from '../../../src/records/store';
import { defaultFetch, type FetchLike } from '../../../src/api/http';
import { PortalLimiter } from '../../../src/records/limiter';
import { saveChanges, savingOn, type RowOutcome, type SaveProgress } from '../../../src/grid/model/saveRunner';
import { CredentialsTokens, injectFault, testInterface } from '../api/portal';
import { ALL_ORDERS, freshSave, ORDERS, portalData, requestLog, someoneElseOn, startGridPortal, type GridPortal } from './gridPortal';

const record = (id: string): string => `/api/v1/app/${ORDERS}/record/${id}`;

describe('grid: saving changed rows', function () {
  let portal: GridPortal;
  let changeSet: ChangeSet;
  let history: EditHistory;
  let store: AppRecords;
  /** Someone else, with a client of their own. */
  let someoneElse: PortalClient;

  before(async () => {
    portal = await startGridPortal();
    someoneElse = someoneElseOn(portal);
  });
  after(() => portal.emulator.close());
  beforeEach(async () => {
    ({ changeSet, history, store } = await freshSave(portal));
  });

  /** The fields each PUT carried, by record path, as the client sent them. */
  const putBodies = (): Array<[string, Record<string, string>]> =>
    portal.sent
      .filter((request) => request.method === 'PUT')
      .map((request) => [request.path, Object.fromEntries(new URLSearchParams(request.body ?? ''))]);
  const successfulPuts = async (): Promise<string[]> =>
    (await requestLog(portal.emulator))
      .filter((entry) => entry.method === 'PUT' && entry.status === 200)
      .map((entry) => entry.path)
      .sort();
  const kinds = (outcomes: readonly RowOutcome[]): Array<[string, string]> => outcomes.map((outcome) => [outcome.recordId, outcome.kind]);

  it('sends one update per row with only its changed fields, and holds back rows changed on the portal', async () => {
    const before3 = await portalData(portal, '3');
    history.edit('paste', 'Paste', [
      { recordId: '1', field: 'f11', value: 'Office chairs, black' },
      { recordId: '1', field: 'f18', value: '12' },
      { recordId: '2', field: 'f19', value: '4' },
      { recordId: '3', field: 'f18', value: '30' },
      { recordId: '4', field: 'f18', value: '25' },
      { recordId: '5', field: 'f18', value: '2' },
    ]);
    await someoneElse.updateRecord(ORDERS, '3', { f11: 'Toner, cyan' }); // another field of a row I changed
    await someoneElse.updateRecord(ORDERS, '4', { f18: '21' }); // the same field, another value
    await someoneElse.updateRecord(ORDERS, '5', { f18: '2' }); // the same field, my value
    await testInterface(portal.emulator, 'DELETE', 'requests');
    portal.sent.length = 0;

    const report = await saveChanges(changeSet, store);

    assert.deepEqual(kinds(report.outcomes), [
      ['1', 'saved'],
      ['2', 'saved'],
      ['3', 'conflict'],
      ['4', 'conflict'],
      ['5', 'saved'],
    ]);
    assert.deepEqual(putBodies().sort(), [
      [record('1'), { f11: 'Office chairs, black', f18: '12' }],
      [record('2'), { f19: '4' }],
    ]);
    const log = await requestLog(portal.emulator);
    assert.equal(log.filter((entry) => entry.method === 'GET').length, 5, 'one conflict check per row');
    assert.equal(log.filter((entry) => entry.method === 'PUT').length, 2);
    const conflicts = report.outcomes.flatMap((outcome) => (outcome.kind === 'conflict' ? [outcome.conflict] : []));
    assert.deepEqual(
      conflicts.map((conflict) => [conflict.recordId, conflict.overlap, conflict.theirFields]),
      [
        ['3', 'other-fields', ['f11']],
        ['4', 'same-fields', ['f18']],
      ],
    );
    assert.equal(conflicts[0].asRead.f11, before3.f11);
    assert.equal(conflicts[0].portalCopy.f11, 'Toner, cyan');
    assert.deepEqual(conflicts[0].mine, { f18: '30' });
    // Saved rows leave the change set; held-back rows keep their edits, marked changed on the portal.
    assert.deepEqual(
      changeSet.rows().map((row) => row.recordId),
      ['3', '4'],
    );
    assert.equal(changeSet.value('3', 'f18'), '30');
    assert.equal((changeSet.row('3')?.changedOnPortal as Record<string, string>).f11, 'Toner, cyan');

    // Keep mine sends my fields only (their f11 stays); Take theirs sends nothing.
    keepMine(changeSet, conflicts[0]);
    takeTheirs(changeSet, '4', conflicts[1].portalCopy);
    portal.sent.length = 0;
    const again = await saveChanges(changeSet, store);
    assert.deepEqual(kinds(again.outcomes), [['3', 'saved']]);
    assert.deepEqual(putBodies(), [[record('3'), { f18: '30' }]]);
    assert.deepEqual(await portalData(portal, '3'), { ...before3, f11: 'Toner, cyan', f18: '30' });
    assert.equal((await portalData(portal, '4')).f18, '21');
    assert.equal(changeSet.isDirty, false);
  });

  it('reports a deleted row as its own outcome and keeps its edits', async () => {
    history.edit('edit', 'Edit', [
      { recordId: '6', field: 'f18', value: '9' },
      { recordId: '7', field: 'f18', value: '9' },
    ]);
    await someoneElse.deleteRecord(ORDERS, '6');
    const report = await saveChanges(changeSet, store);
    assert.deepEqual(kinds(report.outcomes), [
      ['6', 'deleted'],
      ['7', 'saved'],
    ]);
    assert.equal(changeSet.row('6')?.changedOnPortal, 'deleted');
    assert.equal(changeSet.value('6', 'f18'), '9');
    assert.deepEqual(
      putBodies().map(([path]) => path),
      [record('7')],
    );
  });

  it('leaves rows with an invalid cell unsent and saves the others', async () => {
    history.edit('edit', 'Edit', [
      { recordId: '1', field: 'f15', value: '2026-01-01' },
      { recordId: '2', field: 'f18', value: '3' },
    ]);
    const report = await saveChanges(changeSet, store);
    assert.deepEqual(report.blocked, ['1']);
    assert.deepEqual(kinds(report.outcomes), [['2', 'saved']]);
    assert.deepEqual(await successfulPuts(), [record('2')]);
  });

  it('waits for Retry-After after a 429, then sends the update once', async () => {
    history.edit('edit', 'Edit', [
      { recordId: '1', field: 'f18', value: '11' },
      { recordId: '2', field: 'f18', value: '7' },
    ]);
    await injectFault(portal.emulator, { path: `^${record('1')}$`, method: 'PUT', status: 429, count: 1, headers: { 'Retry-After': '1' } });
    const started = Date.now();
    const report = await saveChanges(changeSet, store);
    assert.ok(Date.now() - started >= 900, `waited ${Date.now() - started} ms`);
    assert.deepEqual(kinds(report.outcomes), [
      ['1', 'saved'],
      ['2', 'saved'],
    ]);
    const puts = (await requestLog(portal.emulator))
      .filter((entry) => entry.method === 'PUT' && entry.path === record('1'))
      .map((entry) => entry.status);
    assert.deepEqual(puts, [429, 200]);
    assert.deepEqual(await successfulPuts(), [record('1'), record('2')]);
  });

  it('fails a row whose Retry-After is longer than the save will wait, keeping its edit and the reason', async () => {
    history.edit('edit', 'Edit', [{ recordId: '1', field: 'f18', value: '11' }]);
    await injectFault(portal.emulator, {
      path: `^${record('1')}$`,
      method: 'GET',
      status: 429,
      count: 1,
      headers: { 'Retry-After': '120' },
    });
    const report = await saveChanges(changeSet, store);
    assert.equal(report.outcomes[0].kind, 'failed');
    assert.match(changeSet.row('1')?.saveFailure ?? '', /HTTP 429.*asked to wait 120 s; save again later\.$/);
    assert.equal(changeSet.value('1', 'f18'), '11');
  });

  it('retries 5xx and dropped connections, re-checking the row before sending an update again', async () => {
    const edits = ['1', '2', '3', '4'].map((recordId, index) => ({ recordId, field: 'f18', value: String(50 + index) }));
    history.edit('fill', 'Fill', edits);
    await injectFault(portal.emulator, { path: `^${record('1')}$`, method: 'GET', status: 503, count: 2 });
    await injectFault(portal.emulator, { path: `^${record('2')}$`, method: 'PUT', status: 503, count: 1 });
    await injectFault(portal.emulator, { path: `^${record('3')}$`, method: 'PUT', drop: true, count: 1 });
    await injectFault(portal.emulator, { path: `^${record('4')}$`, method: 'PUT', status: 502, count: 1 });
    const report = await saveChanges(changeSet, store, { backoffMs: () => 20 });
    assert.deepEqual(kinds(report.outcomes), [
      ['1', 'saved'],
      ['2', 'saved'],
      ['3', 'saved'],
      ['4', 'saved'],
    ]);
    assert.deepEqual(await successfulPuts(), ['1', '2', '3', '4'].map(record), 'exactly one update done per row');
    const log = await requestLog(portal.emulator);
    const forRow = (id: string): string[] =>
      log.filter((entry) => entry.path === record(id)).map((entry) => `${entry.method} ${entry.status}`);
    assert.deepEqual(forRow('1'), ['GET 503', 'GET 503', 'GET 200', 'PUT 200']);
    assert.deepEqual(forRow('2'), ['GET 200', 'PUT 503', 'GET 200', 'PUT 200'], 'checked again before the PUT is resent');
    assert.deepEqual(forRow('3'), ['GET 200', 'PUT 0', 'GET 200', 'PUT 200']);
    for (const edit of edits) assert.equal((await portalData(portal, edit.recordId)).f18, edit.value);
  });

  it('does not resend an update the portal did before its answer was lost', async () => {
    const impatient = new PortalClient({
      baseUrl: portal.emulator.baseUrl,
      tokens: new CredentialsTokens(portal.emulator),
      timeoutMs: 300,
    });
    history.edit('edit', 'Edit', [{ recordId: '1', field: 'f18', value: '77' }]);
    await injectFault(portal.emulator, { path: `^${record('1')}$`, method: 'PUT', latency_ms: 600, count: 1 });
    const report = await saveChanges(changeSet, appRecords(impatient, ORDERS), { backoffMs: () => 1200 });
    assert.deepEqual(kinds(report.outcomes), [['1', 'saved']]);
    // The log is in the order answers went out: the slow PUT's comes after the first GET's.
    const forRow = (await requestLog(portal.emulator)).filter((entry) => entry.path === record('1')).map((entry) => entry.method);
    assert.deepEqual(forRow.sort(), ['GET', 'GET', 'PUT'], 'the re-check found my value: no second PUT');
    assert.equal((await portalData(portal, '1')).f18, '77');
  });

  it('checks a row again, rather than failing it, when the answer to its update cannot be taken at its word', async () => {
    history.edit('edit', 'Edit', [{ recordId: '1', field: 'f18', value: '78' }]);
    // A 2xx that says the change did not succeed: the portal's answer is not usable ('taken').
    await injectFault(portal.emulator, { path: `^${record('1')}$`, method: 'PUT', status: 200, body: { success: false }, count: 1 });
    const report = await saveChanges(changeSet, store, { backoffMs: () => 20 });
    assert.deepEqual(kinds(report.outcomes), [['1', 'saved']]);
    const forRow = (await requestLog(portal.emulator)).filter((entry) => entry.path === record('1')).map((entry) => entry.method);
    assert.deepEqual(forRow, ['GET', 'PUT', 'GET', 'PUT'], 'looked again before sending again');
    assert.equal((await portalData(portal, '1')).f18, '78');
  });

  it('holds back, instead of resending, an update that someone else overtook after it failed', async () => {
    history.edit('edit', 'Edit', [{ recordId: '1', field: 'f18', value: '77' }]);
    await injectFault(portal.emulator, { path: `^${record('1')}$`, method: 'PUT', status: 503, count: 1 });
    let overtaken: Promise<void> | undefined;
    const report = await saveChanges(changeSet, store, {
      backoffMs: () => {
        overtaken ??= someoneElse.updateRecord(ORDERS, '1', { f18: '99' });
        return 300;
      },
    });
    await overtaken;
    assert.deepEqual(kinds(report.outcomes), [['1', 'conflict']]);
    assert.equal((await portalData(portal, '1')).f18, '99');
    assert.deepEqual(await successfulPuts(), [record('1')], "only someone else's update went through");
    assert.equal(changeSet.value('1', 'f18'), '77');
  });

  it("fails a row the portal refuses, with the portal's reason, and saves the rest", async () => {
    history.edit('edit', 'Edit', [
      { recordId: '1', field: 'f18', value: '5' },
      { recordId: '2', field: 'f18', value: '16' },
    ]);
    await injectFault(portal.emulator, { path: `^${record('2')}$`, method: 'PUT', status: 400, count: 1 });
    const report = await saveChanges(changeSet, store);
    assert.deepEqual(kinds(report.outcomes), [
      ['1', 'saved'],
      ['2', 'failed'],
    ]);
    const log = (await requestLog(portal.emulator))
      .filter((entry) => entry.path === record('2'))
      .map((entry) => `${entry.method} ${entry.status}`);
    assert.deepEqual(log, ['GET 200', 'PUT 400'], 'a 400 is not retried');
    assert.match(changeSet.row('2')?.saveFailure ?? '', /Updating record 2 of app 102 failed: .*HTTP 400/);
    assert.equal(changeSet.value('2', 'f18'), '16');
  });

  it('runs a bounded number of rows at once and reports progress after each', async () => {
    history.edit(
      'fill',
      'Fill',
      ['1', '2', '3', '4', '5', '6', '7', '8'].map((recordId) => ({ recordId, field: 'f18', value: '42' })),
    );
    await injectFault(portal.emulator, { method: 'GET', path: '/record/', latency_ms: 80, count: -1 });
    const progress: SaveProgress[] = [];
    const report = await saveChanges(changeSet, store, { concurrency: 3, onProgress: (step) => progress.push(step) });
    await testInterface(portal.emulator, 'DELETE', 'faults');
    assert.equal(report.outcomes.filter((outcome) => outcome.kind === 'saved').length, 8);
    assert.equal(portal.maxInFlight(), 3);
    assert.deepEqual(
      progress.map((step) => step.done),
      [1, 2, 3, 4, 5, 6, 7, 8],
    );
    assert.deepEqual(progress.at(-1), { total: 8, done: 8, saved: 8, conflicts: 0, failed: 0 });
  });

  it("a grid's save has as many rows in flight as the portal's limiter allows, not a fixed number", async () => {
    for (const window of [8, 2]) {
      ({ changeSet, history } = await freshSave(portal));
      history.edit(
        'fill',
        'Fill',
        ['1', '2', '3', '4', '5', '6', '7', '8'].map((recordId) => ({ recordId, field: 'f18', value: '42' })),
      );
      // The portal's limiter, and a client whose requests pass it (as PortalService makes them).
      const limiter = new PortalLimiter({ maxInFlight: window, initialInFlight: window });
      let inFlight = 0;
      let most = 0;
      const counting: FetchLike = async (url, init) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        try {
          return await defaultFetch(url, init);
        } finally {
          inFlight -= 1;
        }
      };
      const client = new PortalClient({
        baseUrl: portal.emulator.baseUrl,
        tokens: new CredentialsTokens(portal.emulator),
        fetch: counting,
        gate: limiter,
      });
      const { store: onPortal, options } = savingOn({ client, limiter, appId: ORDERS, viewId: ALL_ORDERS, filters: [], drafts: false }, 50);
      await injectFault(portal.emulator, { method: 'GET', path: '/record/', latency_ms: 80, count: -1 });
      try {
        const report = await saveChanges(changeSet, onPortal, options);
        assert.deepEqual(
          kinds(report.outcomes).filter(([, kind]) => kind !== 'saved'),
          [],
        );
      } finally {
        await testInterface(portal.emulator, 'DELETE', 'faults');
      }
      assert.equal(most, window, `the limiter's window of ${window}`);
    }
  });

  it('can be cancelled: rows not saved keep their edits, and saving again finishes the job', async () => {
    const ids = ['1', '2', '3', '4', '5', '6'];
    history.edit(
      'fill',
      'Fill',
      ids.map((recordId) => ({ recordId, field: 'f18', value: '33' })),
    );
    await injectFault(portal.emulator, { method: 'PUT', latency_ms: 150, count: -1 });
    const controller = new AbortController();
    const report = await saveChanges(changeSet, store, { concurrency: 2, signal: controller.signal, onProgress: () => controller.abort() });
    await testInterface(portal.emulator, 'DELETE', 'faults');
    const cancelled = report.outcomes.filter((outcome) => outcome.kind === 'cancelled').map((outcome) => outcome.recordId);
    assert.ok(cancelled.length >= 3, `cancelled: ${cancelled.join(', ')}`);
    assert.deepEqual(
      changeSet
        .rows()
        .map((row) => row.recordId)
        .sort(),
      cancelled.sort(),
      'every row not saved is still pending',
    );
    const again = await saveChanges(changeSet, store);
    assert.ok(again.outcomes.every((outcome) => outcome.kind === 'saved'));
    for (const id of ids) assert.equal((await portalData(portal, id)).f18, '33');
    assert.equal(changeSet.isDirty, false);
  });

  it("an undo while the row's update is on its way is kept: the cell is pending with its old value, and the next save sends it", async () => {
    const asRead = (await portalData(portal, '1')).f18;
    history.edit('edit', 'Edit', [{ recordId: '2', field: 'f18', value: '12' }]);
    history.edit('edit', 'Edit', [{ recordId: '1', field: 'f18', value: '11' }]);
    const undoing: AppRecords = {
      ...store,
      update: async (recordId, fields, signal) => {
        if (recordId === '1') history.undo();
        await store.update(recordId, fields, signal);
      },
    };
    const report = await saveChanges(changeSet, undoing, { concurrency: 1 });
    assert.deepEqual(kinds(report.outcomes), [
      ['2', 'saved'],
      ['1', 'saved'],
    ]);
    assert.equal((await portalData(portal, '1')).f18, '11', 'the update went out before the undo');
    assert.equal(changeSet.value('1', 'f18'), asRead, 'the grid shows what the undo put back');
    assert.equal(changeSet.isPending('1', 'f18'), true, 'pending, to be sent');
    assert.equal(changeSet.isPending('2', 'f18'), false, 'the undo reached the last step only');
    await saveChanges(changeSet, store);
    assert.equal((await portalData(portal, '1')).f18, asRead);
    assert.equal(changeSet.isDirty, false);
  });
});
