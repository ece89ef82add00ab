// Saving many changed rows checked with one read of the grid's view, against the emulator over HTTP (the
// real client, counted in the emulator's request log): one view read and a PUT per row, no GET; another
// user's change still held back; rows the answer cannot vouch for checked by their own GET; the read
// retried, given up for GETs, read again when old, and cancelled with nothing sent.
import * as assert from 'node:assert/strict';
import type { PortalClient } from '../../../src/api/client';
import type { ViewFilter } from '../../../src/api/filters';
import type { RecordData } from '../../../src/api/types';
import { ChangeSet } from '../../../src/grid/model/changeSet';
import { EditHistory } from '../../../src/grid/model/editHistory';
import type { AppRecords } from '../../../src/records/store';
import { saveChanges, type RowOutcome, type SaveProgress } from '../../../src/grid/model/saveRunner';
import { readViewCopies, type ViewCheckSource } from '../../../src/grid/model/viewCheck';
import { configure, injectFault, testInterface } from '../api/portal';
import {
  ALL_ORDERS,
  freshGrid,
  freshSave,
  ORDERS,
  portalData,
  requestLog,
  someoneElseOn,
  startGridPortal,
  type GridPortal,
} from './gridPortal';

const record = (id: string): string => `/api/v1/app/${ORDERS}/record/${id}`;
const view = (id: string): string => `/api/v1/app/${ORDERS}/view/${id}`;

describe('grid: saving many changed rows checked with one read of the view', function () {
  let portal: GridPortal;
  let changeSet: ChangeSet;
  let history: EditHistory;
  let store: AppRecords;
  let someoneElse: PortalClient;

  before(async () => {
    portal = await startGridPortal();
    someoneElse = someoneElseOn(portal);
  });
  after(() => portal.emulator.close());
  beforeEach(async () => {
    ({ changeSet, history, store } = await freshSave(portal));
  });

  /** The grid's view as the save reads it: "All orders" (8 rows) unless told, with the client's round trip. */
  const viewCheck = (
    options: { viewId?: string; filters?: ViewFilter[]; viewRows?: number; batches?: { firstBatchRows: number; batchRows: number } } = {},
  ): ViewCheckSource => ({
    viewRows: options.viewRows ?? 8,
    roundTripMs: () => portal.client.roundTripMs,
    read: (wanted, signal, onRows, onCopy) =>
      readViewCopies(
        portal.client,
        { appId: ORDERS, viewId: options.viewId ?? ALL_ORDERS, filters: options.filters ?? [] },
        wanted,
        signal,
        onRows,
        { onCopy, batches: options.batches },
      ),
  });
  const kinds = (outcomes: readonly RowOutcome[]): Array<[string, string]> => outcomes.map((outcome) => [outcome.recordId, outcome.kind]);
  /** The API requests since the test began, as "METHOD path status". */
  const requests = async (): Promise<string[]> =>
    (await requestLog(portal.emulator)).map((entry) => `${entry.method} ${entry.path} ${entry.status}`);
  const putBodies = (): Array<[string, Record<string, string>]> =>
    portal.sent
      .filter((request) => request.method === 'PUT')
      .map((request) => [request.path, Object.fromEntries(new URLSearchParams(request.body ?? ''))]);

  it("a view's rows carry the app's columns under their field_id_in_data, with the values a GET reads (other keys are a Lookup app's)", async () => {
    // What comparing with the view's copy rests on: for the fields the grid edits, the same keys and values as the GET's.
    const own = new Set(portal.columns.map((column) => column.field_id_in_data));
    for (const viewId of ['3', '4', '5']) {
      const { rows, metadata } = await portal.client.readView(ORDERS, viewId);
      for (const entry of metadata)
        assert.equal(
          own.has(entry.field_id_in_data),
          entry.app_id === ORDERS,
          `view ${viewId}: ${entry.field_id_in_data} of app ${entry.app_id}`,
        );
      for (const row of rows) {
        const read = (await portal.client.readRecord(ORDERS, row.id ?? '')).data;
        for (const [key, value] of Object.entries(row.values))
          if (own.has(key)) assert.equal(value, read[key], `view ${viewId}, record ${row.id}, ${key}`);
      }
    }
  });

  it('sends one view read and one PUT per row of only its changed fields, no GET, and holds back the rows someone else changed', async () => {
    history.edit('paste', 'Paste', [
      { recordId: '1', field: 'f11', value: 'Office chairs, black' },
      { recordId: '1', field: 'f18', value: '12' },
      { recordId: '2', field: 'f19', value: '4' },
      { recordId: '3', field: 'f18', value: '30' },
      { recordId: '4', field: 'f18', value: '25' },
      { recordId: '5', field: 'f18', value: '2' },
      { recordId: '6', field: 'f11', value: 'Plants' },
    ]);
    await someoneElse.updateRecord(ORDERS, '3', { f11: 'Toner, cyan' }); // another field of a row I changed
    await someoneElse.updateRecord(ORDERS, '4', { f18: '21' }); // the same field, another value
    await someoneElse.updateRecord(ORDERS, '5', { f18: '2' }); // the same field, my value
    await testInterface(portal.emulator, 'DELETE', 'requests');
    portal.sent.length = 0;

    const report = await saveChanges(changeSet, store, { viewCheck: viewCheck() });

    // The outcomes of the GET check (saveRunner.test.ts), conflicts and all.
    assert.deepEqual(kinds(report.outcomes), [
      ['1', 'saved'],
      ['2', 'saved'],
      ['3', 'conflict'],
      ['4', 'conflict'],
      ['5', 'saved'],
      ['6', 'saved'],
    ]);
    assert.deepEqual((await requests()).sort(), [
      `GET ${view(ALL_ORDERS)} 200`,
      `PUT ${record('1')} 200`,
      `PUT ${record('2')} 200`,
      `PUT ${record('6')} 200`,
    ]);
    assert.deepEqual(putBodies().sort(), [
      [record('1'), { f11: 'Office chairs, black', f18: '12' }],
      [record('2'), { f19: '4' }],
      [record('6'), { f11: 'Plants' }],
    ]);
    const conflicts = report.outcomes.flatMap((outcome) => (outcome.kind === 'conflict' ? [outcome.conflict] : []));
    assert.deepEqual(
      conflicts.map((conflict) => [conflict.recordId, conflict.overlap, conflict.theirFields]),
      [
        ['3', 'other-fields', ['f11']],
        ['4', 'same-fields', ['f18']],
      ],
    );
    assert.equal(conflicts[0].portalCopy.f11, 'Toner, cyan');
    assert.deepEqual(
      changeSet.rows().map((row) => row.recordId),
      ['3', '4'],
    );
    assert.equal((await portalData(portal, '3')).f11, 'Toner, cyan', 'nothing sent over their change');
    assert.equal((await portalData(portal, '4')).f18, '21');
  });

  it("invents no conflict when a linked record changes: a LookUp and a Lookup app's columns (l<N>) are no one's edit of the row", async () => {
    // "Orders with customer details" (view 5) shows Customers' columns as l3, l4, l6 beside the LookUp f13.
    const details = await portal.client.readView(ORDERS, '5');
    const rows = new Map(details.rows.map((row) => [row.id ?? '', row.values]));
    const grid = new ChangeSet(portal.columns, (recordId) => rows.get(recordId));
    const ids = ['1', '2', '3', '4', '5'];
    new EditHistory(grid).edit(
      'fill',
      'Fill',
      ids.map((recordId) => ({ recordId, field: 'f11', value: `Linked ${recordId}` })),
    );
    assert.ok(rows.get('1')?.l3, 'the row shows its customer through l3');
    await someoneElse.updateRecord('101', '1', { f2: 'Acme Holdings', f3: 'billing@acme.example.com' }); // the customer of orders 1 and 2
    await testInterface(portal.emulator, 'DELETE', 'requests');
    const report = await saveChanges(grid, store, { viewCheck: viewCheck({ viewId: '5', viewRows: details.rows.length }) });
    assert.deepEqual(
      kinds(report.outcomes),
      ids.map((id) => [id, 'saved']),
    );
    assert.deepEqual(
      (await requests()).filter((line) => line.startsWith('GET')),
      [`GET ${view('5')} 200`],
    );
  });

  it('checks by GET the rows the answer does not hold: deleted, outside the filters', async () => {
    history.edit(
      'fill',
      'Fill',
      ['1', '2', '3', '4', '5', '6'].map((recordId) => ({ recordId, field: 'f18', value: '40' })),
    );
    await someoneElse.deleteRecord(ORDERS, '2');
    await someoneElse.updateRecord(ORDERS, '5', { f11: 'Moved on' });
    await testInterface(portal.emulator, 'DELETE', 'requests');
    // The grid shows the orders other than record 3 (its Order no. is 5003).
    const filters: ViewFilter[] = [{ column: '10', operator: 'doesNotEqual', value: '5003' }];
    const report = await saveChanges(changeSet, store, { viewCheck: viewCheck({ filters, viewRows: 7 }) });
    assert.deepEqual(kinds(report.outcomes), [
      ['1', 'saved'],
      ['2', 'deleted'],
      ['3', 'saved'],
      ['4', 'saved'],
      ['5', 'conflict'],
      ['6', 'saved'],
    ]);
    const log = await requests();
    assert.deepEqual(log.filter((line) => line.startsWith('GET')).sort(), [
      `GET ${record('2')} 404`,
      `GET ${record('3')} 200`,
      `GET ${view(ALL_ORDERS)} 200`,
    ]);
    assert.deepEqual(
      log.filter((line) => line.startsWith('PUT')).sort(),
      ['1', '3', '4', '6'].map((id) => `PUT ${record(id)} 200`),
    );
  });

  it('checks by GET a row read with a writable field the view does not show, and finds the change the view could not', async () => {
    // "Open orders" (view 4) shows no Quantity (f18); these rows were read with it (as a GET of an earlier save brings it in).
    const open = await portal.client.readView(ORDERS, '4');
    const rows = new Map<string, RecordData>();
    for (const row of open.rows) rows.set(row.id ?? '', { ...row.values, f18: (await portalData(portal, row.id ?? '')).f18 });
    const grid = new ChangeSet(portal.columns, (recordId) => rows.get(recordId));
    const ids = [...rows.keys()].slice(0, 5);
    new EditHistory(grid).edit(
      'fill',
      'Fill',
      ids.map((recordId) => ({ recordId, field: 'f11', value: `Open ${recordId}` })),
    );
    await someoneElse.updateRecord(ORDERS, ids[1], { f18: '77' });
    await testInterface(portal.emulator, 'DELETE', 'requests');
    const report = await saveChanges(grid, store, { viewCheck: viewCheck({ viewId: '4', viewRows: open.rows.length }) });
    assert.deepEqual(
      kinds(report.outcomes),
      ids.map((id) => [id, id === ids[1] ? 'conflict' : 'saved']),
    );
    const gets = (await requests()).filter((line) => line.startsWith('GET'));
    assert.deepEqual(gets.filter((line) => line.includes('/record/')).length, ids.length, 'every row by GET');
  });

  it('retries a view read the portal failed (503, 429 Retry-After), and falls back to a GET per row when it cannot be read', async () => {
    history.edit(
      'fill',
      'Fill',
      ['1', '2', '3', '4', '5'].map((recordId) => ({ recordId, field: 'f18', value: '41' })),
    );
    await injectFault(portal.emulator, { path: `^${view(ALL_ORDERS)}$`, method: 'GET', status: 503, count: 1 });
    await injectFault(portal.emulator, {
      path: `^${view(ALL_ORDERS)}$`,
      method: 'GET',
      status: 429,
      count: 1,
      headers: { 'Retry-After': '1' },
    });
    const started = Date.now();
    const report = await saveChanges(changeSet, store, { viewCheck: viewCheck(), backoffMs: () => 20 });
    assert.ok(Date.now() - started >= 900, `waited ${Date.now() - started} ms`);
    assert.ok(report.outcomes.every((outcome) => outcome.kind === 'saved'));
    assert.deepEqual(
      (await requests()).filter((line) => line.startsWith('GET')),
      [503, 429, 200].map((status) => `GET ${view(ALL_ORDERS)} ${status}`),
    );

    ({ changeSet } = await freshGrid(portal));
    new EditHistory(changeSet).edit(
      'fill',
      'Fill',
      ['1', '2', '3', '4', '5'].map((recordId) => ({ recordId, field: 'f18', value: '42' })),
    );
    await testInterface(portal.emulator, 'DELETE', 'requests');
    await injectFault(portal.emulator, { path: `^${view(ALL_ORDERS)}$`, method: 'GET', status: 400, count: 1 });
    const fallback = await saveChanges(changeSet, store, { viewCheck: viewCheck() });
    assert.ok(fallback.outcomes.every((outcome) => outcome.kind === 'saved'));
    const log = await requests();
    assert.deepEqual(
      log.filter((line) => line.includes('/view/')),
      [`GET ${view(ALL_ORDERS)} 400`],
      'a refused read is not retried',
    );
    assert.equal(log.filter((line) => line.startsWith('GET') && line.includes('/record/')).length, 5, 'a GET per row instead');
  });

  it('reads the view again for the rows left once its answer is older than allowed, and finds a change made meanwhile', async () => {
    history.edit(
      'fill',
      'Fill',
      ['1', '2', '3', '4', '5', '6'].map((recordId) => ({ recordId, field: 'f11', value: `Late ${recordId}` })),
    );
    // The first update is slow, and someone else changes record 5 while it is on its way.
    const slow: AppRecords = {
      ...store,
      update: async (recordId, fields, signal) => {
        if (recordId === '1') {
          await someoneElse.updateRecord(ORDERS, '5', { f18: '55' });
          await new Promise((resolve) => setTimeout(resolve, 300));
        }
        await store.update(recordId, fields, signal);
      },
    };
    const report = await saveChanges(changeSet, slow, { concurrency: 1, viewCheck: viewCheck(), viewAnswerMaxAgeMs: 200 });
    assert.deepEqual(
      kinds(report.outcomes),
      ['1', '2', '3', '4', '5', '6'].map((id) => [id, id === '5' ? 'conflict' : 'saved']),
    );
    const log = await requests();
    assert.equal(log.filter((line) => line === `GET ${view(ALL_ORDERS)} 200`).length, 2, 'read again once');
    assert.equal(log.filter((line) => line.includes('/record/') && line.startsWith('GET')).length, 0);
  });

  it("uses the view's answer only for rows whose update starts within 5 s of its read: one at 4.9 s is not read again, one at 5.1 s is", async () => {
    history.edit(
      'fill',
      'Fill',
      ['1', '2', '3'].map((recordId) => ({ recordId, field: 'f18', value: '45' })),
    );
    // The save's clock, moved by the updates: row 2's starts 4.9 s after the read began, row 3's 5.1 s.
    let clock = 0;
    const timed: AppRecords = {
      ...store,
      update: async (recordId, fields, signal) => {
        await store.update(recordId, fields, signal);
        clock = recordId === '1' ? 4_900 : 5_100;
      },
    };
    const report = await saveChanges(changeSet, timed, { concurrency: 1, viewCheck: viewCheck(), now: () => clock });
    assert.deepEqual(kinds(report.outcomes), [
      ['1', 'saved'],
      ['2', 'saved'],
      ['3', 'saved'],
    ]);
    const log = await requests();
    assert.equal(log.filter((line) => line === `GET ${view(ALL_ORDERS)} 200`).length, 1, 'one read of the view');
    assert.deepEqual(
      log.filter((line) => line.startsWith('GET') && line.includes('/record/')),
      [`GET ${record('3')} 200`],
      'only the row begun after 5 s is read again',
    );
  });

  it('checks by GET, without reading the view again and again, when a read takes longer than the age allowed', async () => {
    history.edit(
      'fill',
      'Fill',
      ['1', '2', '3', '4', '5', '6'].map((recordId) => ({ recordId, field: 'f18', value: '44' })),
    );
    await injectFault(portal.emulator, { path: `^${view(ALL_ORDERS)}$`, method: 'GET', latency_ms: 150, count: -1 });
    const report = await saveChanges(changeSet, store, { viewCheck: viewCheck(), viewAnswerMaxAgeMs: 100 });
    await testInterface(portal.emulator, 'DELETE', 'faults');
    assert.ok(report.outcomes.every((outcome) => outcome.kind === 'saved'));
    const log = await requests();
    assert.equal(log.filter((line) => line.includes('/view/')).length, 1);
    assert.equal(log.filter((line) => line.includes('/record/') && line.startsWith('GET')).length, 6);
  });

  it('Cancel while the view is read sends nothing, keeps every edit, and shows the read in the progress', async () => {
    history.edit(
      'fill',
      'Fill',
      ['1', '2', '3', '4', '5'].map((recordId) => ({ recordId, field: 'f18', value: '43' })),
    );
    await injectFault(portal.emulator, { path: `^${view(ALL_ORDERS)}$`, method: 'GET', latency_ms: 300, count: 1 });
    const controller = new AbortController();
    const progress: SaveProgress[] = [];
    const report = await saveChanges(changeSet, store, {
      viewCheck: viewCheck(),
      signal: controller.signal,
      onProgress: (step) => {
        progress.push(step);
        // The read is on its way (the portal answers 300 ms late) when Cancel comes.
        if (step.viewRowsRead === 0) setTimeout(() => controller.abort(), 100);
      },
    });
    assert.deepEqual(progress[0], { total: 5, done: 0, saved: 0, conflicts: 0, failed: 0, viewRowsRead: 0 });
    assert.ok(report.outcomes.every((outcome) => outcome.kind === 'cancelled'));
    assert.equal(changeSet.rows().length, 5);
    assert.deepEqual(
      (await requests()).filter((line) => !line.includes('/view/')),
      [],
      'nothing but the view read',
    );
    assert.equal(portal.sent.filter((request) => request.method === 'PUT').length, 0);
  });

  it('sends a row as soon as the read has brought its copy, before the rest of the answer has come', async () => {
    history.edit(
      'fill',
      'Fill',
      ['1', '2', '3', '4', '5', '6'].map((recordId) => ({ recordId, field: 'f18', value: '44' })),
    );
    // A portal far away: the view's answer arrives a kilobyte a second, a row or a few at a time.
    await configure(portal.emulator, { bytesPerSecond: 1024 });
    const progress: SaveProgress[] = [];
    try {
      // A row a batch (the grid's batches hold hundreds: 8 rows would be one).
      const report = await saveChanges(changeSet, store, {
        viewCheck: viewCheck({ batches: { firstBatchRows: 1, batchRows: 1 } }),
        onProgress: (step) => progress.push(step),
      });
      assert.deepEqual(
        kinds(report.outcomes),
        ['1', '2', '3', '4', '5', '6'].map((recordId) => [recordId, 'saved']),
      );
    } finally {
      await configure(portal.emulator, { bytesPerSecond: 0 });
    }
    const savedWhileReading = progress.filter((step) => step.viewRowsRead !== undefined && step.saved > 0);
    assert.ok(savedWhileReading.length > 0, `rows saved while the view was still read: ${JSON.stringify(progress)}`);
    assert.deepEqual(
      (await requests()).filter((line) => line.startsWith('GET') && line.includes('/record/')),
      [],
      'no GET per row',
    );
    assert.equal(putBodies().length, 6);
  });
});
