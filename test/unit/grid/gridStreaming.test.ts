// The editable grid while its rows arrive (issue 19): the model takes batches at its end (a row's position
// never moves, since the page names rows by position), puts pending rows the read left out last once the
// read has ended, checks a backup's rows as they arrive; the reader hands the first batch over at once and
// says how a read ended (all in, cancelled, broken off) with how many rows were read.
import * as assert from 'node:assert/strict';
import type { ViewRow } from '../../../src/api/answers';
import { isCancellation, PortalError } from '../../../src/api/errors';
import { RowStore } from '../../../src/api/rowStore';
import type { ViewStreamOptions, ViewStreamResult } from '../../../src/api/viewStream';
import { backupOf } from '../../../src/grid/backup';
import { readAgainAndMark } from '../../../src/grid/changedOnPortal';
import { finishRead } from '../../../src/grid/finishRead';
import { GridModel } from '../../../src/grid/gridModel';
import type { GridLoadState } from '../../../src/shared/protocol';
import { GridRowsReader } from '../../../src/webviews/grid/rowsReader';
import type { gridEditColumns } from '../../../src/webviews/viewQuery/viewColumns';
import { ALL_ORDERS, ORDERS, ordersView, startGridPortal, type GridPortal } from './gridPortal';

describe('grid: rows arriving in batches', function () {
  let portal: GridPortal;
  let rows: ViewRow[];
  let columns: ReturnType<typeof gridEditColumns>;

  before(async () => {
    portal = await startGridPortal();
    ({ rows, columns } = await ordersView(portal));
  });
  after(() => portal.emulator.close());

  const ids = (list: readonly ViewRow[]): string[] => list.map((row) => row.id ?? '');

  it('appends each batch after the rows there, so no row moves; an edit of an early row stays put', () => {
    const model = new GridModel(columns, portal.columns, rows.slice(0, 3));
    model.history.edit('edit', 'Edit', [{ recordId: ids(rows)[1], field: 'f11', value: 'Early' }]);
    assert.deepEqual(model.appendRows(rows.slice(3, 6)), ids(rows.slice(3, 6)));
    assert.deepEqual(model.appendRows(rows.slice(5)), ids(rows.slice(6)), 'a row already there is not added twice');
    assert.deepEqual(model.layout([]).rowIds, ids(rows));
    assert.equal(model.rowState(ids(rows)[1]).values[columns.findIndex((column) => column.key === 'f11')], 'Early');
    assert.deepEqual(model.finishRows(), [], 'nothing left out');
  });

  it('a read again with more to come: a pending row it leaves out goes last only when the read has ended', () => {
    const model = new GridModel(columns, portal.columns, rows);
    const left = ids(rows)[2];
    model.history.edit('edit', 'Edit', [{ recordId: left, field: 'f11', value: 'Kept' }]);
    const others = rows.filter((row) => row.id !== left);
    model.replaceRows(others.slice(0, 4), { more: true });
    assert.equal(model.hasRow(left), false, 'not among the rows while they arrive (they would move)');
    model.appendRows(others.slice(4));
    assert.deepEqual(model.finishRows(), [left]);
    assert.deepEqual(model.layout([]).rowIds, [...ids(others), left]);
    assert.equal(model.changeSet.value(left, 'f11'), 'Kept');
  });

  it("a backup's row that arrives after the backup was restored is checked then: marked when the portal's copy moved on", () => {
    const before = new GridModel(columns, portal.columns, rows);
    const [, , , moved, same] = ids(rows);
    before.history.edit('edit', 'Edit', [
      { recordId: moved, field: 'f18', value: '5' },
      { recordId: same, field: 'f18', value: '6' },
    ]);
    const backup = backupOf(before.changeSet, ORDERS, ALL_ORDERS);
    const model = new GridModel(columns, portal.columns, rows.slice(0, 2));
    model.restoreBackup(backup, { more: true });
    assert.equal(model.hasRow(moved), false);
    const later = rows.slice(2).map((row) => (row.id === moved ? { ...row, values: { ...row.values, f11: 'Changed by someone' } } : row));
    model.appendRows(later);
    assert.equal(model.rowState(moved).changedOnPortal, 'changed');
    assert.equal(model.rowState(same).changedOnPortal, undefined);
    assert.equal(model.changeSet.value(moved, 'f18'), '5', 'the restored edit stays');
    assert.deepEqual(model.finishRows(), []);
  });

  it('a row given a newer copy before it arrived (saved, refreshed) keeps that copy when it arrives', () => {
    const model = new GridModel(columns, portal.columns, rows.slice(0, 2));
    const early = ids(rows)[4];
    model.take(early, { ...rows[4].values, f11: 'Newer' });
    assert.equal(model.hasRow(early), false);
    model.appendRows(rows.slice(2));
    assert.equal(model.hasRow(early), true);
    assert.equal(model.copyOf(early)?.f11, 'Newer');
    assert.deepEqual(model.layout([]).rowIds, ids(rows));
  });

  it('a read that ends with rows moved tells the page at once, before the columns are looked up (a paste then names the rows it sees)', async () => {
    const model = new GridModel(columns, portal.columns, rows.slice(0, 2));
    const added = model.history.addRow().recordId;
    model.appendRows(rows.slice(2));
    const told: string[][] = [];
    let lookedUp: (changed: boolean) => void = () => undefined;
    const ending = finishRead(model, {
      appended: () => assert.fail('rows moved: the page starts over instead'),
      startOver: () => told.push([...model.layout([]).rowIds]),
      columnsChanged: () => new Promise((resolve) => (lookedUp = resolve)),
    });
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(told, [[...ids(rows), added]], 'the page has the new order while the columns are still being looked up');
    lookedUp(false);
    assert.equal(await ending, true);
    assert.equal(told.length, 1, 'the columns did not change: no second start over');
  });

  it("a refresh after a bulk change that a newer read replaces still marks the pending rows the portal changed", async () => {
    const model = new GridModel(columns, portal.columns, rows);
    const edited = ids(rows)[1];
    model.history.edit('edit', 'Edit', [{ recordId: edited, field: 'f11', value: 'Mine' }]);
    const theirs = { ...rows[1].values, f18: '99' };
    const { marked } = await readAgainAndMark(model.changeSet, [edited], () => Promise.reject(new PortalError({ kind: 'cancelled', message: 'A newer read of the view replaced this one.' })), async () => theirs);
    assert.equal(marked, 1);
    assert.equal(model.rowState(edited).changedOnPortal, 'changed');
    await assert.rejects(readAgainAndMark(model.changeSet, [edited], () => Promise.reject(new Error('Broken')), async () => theirs), /Broken/, 'other failures still fail');
  });

  describe('the reader', () => {
    /** A source that hands `rows` over in `batches`, then ends as `end` says. */
    function source(batches: number[], end: 'done' | 'stopped' | 'broken') {
      return {
        streamView: async (_appId: string, _viewId: string, _filters: unknown, options: ViewStreamOptions): Promise<ViewStreamResult> => {
          const store = new RowStore();
          let at = 0;
          let from = 0;
          for (const size of batches) {
            for (const row of rows.slice(from, from + size)) {
              const bytes = Buffer.from(JSON.stringify({ id: row.id, ...row.values }));
              store.appendBytes(bytes);
              store.addRow(at, at + bytes.length);
              at += bytes.length;
            }
            await options.onBatch?.({ rows: store, from, to: from + size });
            from += size;
          }
          if (end === 'done') store.metadata = [];
          return { rows: store, rowsRead: from, metadata: store.metadata, ...(end === 'stopped' ? { stopped: true as const } : end === 'broken' ? { failure: new PortalError({ kind: 'network', message: 'The connection broke off.' }) } : {}) };
        },
      };
    }

    async function readAll(batches: number[], end: 'done' | 'stopped' | 'broken'): Promise<{ states: GridLoadState[]; first: number; more: number[]; ended: boolean }> {
      const states: GridLoadState[] = [];
      const seen = { first: -1, more: [] as number[], ended: false };
      const reader = new GridRowsReader(() => source(batches, end), ORDERS, ALL_ORDERS, (state) => states.push(state));
      await reader.read([], {
        first: (arrived) => {
          seen.first = arrived.length;
        },
        more: (arrived) => seen.more.push(arrived.length),
        ended: () => {
          seen.ended = true;
        },
      });
      assert.equal(seen.more.length, 0, 'read() resolves with the first batch, before the rest');
      await reader.whenEnded();
      return { states, ...seen };
    }

    it('hands the first batch over at once, the rest batch by batch, then says every row is in', async () => {
      const { states, first, more, ended } = await readAll([2, 2, 3], 'done');
      assert.equal(first, 2);
      assert.deepEqual(more, [2, 3]);
      assert.equal(ended, true);
      assert.deepEqual(states, [
        { state: 'loading', count: 2 },
        { state: 'loading', count: 4 },
        { state: 'loading', count: 7 },
        { state: 'done', count: 7 },
      ]);
    });

    it('a first step that throws makes the read fail (the grid shows the failure instead of waiting forever)', async () => {
      const states: GridLoadState[] = [];
      const reader = new GridRowsReader(() => source([2, 3], 'done'), ORDERS, ALL_ORDERS, (state) => states.push(state));
      let more = 0;
      const outcome = await Promise.race([
        reader.read([], {
          first: () => {
            throw new Error('The first rows could not be taken.');
          },
          more: () => (more += 1),
          ended: () => assert.fail('a read whose first step failed does not end as read'),
        }).then(() => 'resolved', (error: unknown) => (error instanceof Error ? error.message : String(error))),
        new Promise((resolve) => setTimeout(() => resolve('never settled'), 2000)),
      ]);
      assert.equal(outcome, 'The first rows could not be taken.');
      await reader.whenEnded();
      assert.equal(more, 0, 'the read stops');
      assert.equal(reader.loading, false);
    });

    it('Cancel before a newer read has its first rows stops that read and keeps the rows of the one it replaced, marked partial', async () => {
      const states: GridLoadState[] = [];
      const waitFor = (signal: AbortSignal | undefined): Promise<void> => new Promise((resolve) => (signal?.aborted ? resolve() : signal?.addEventListener('abort', () => resolve())));
      let reads = 0;
      const reader = new GridRowsReader(
        () => ({
          streamView: async (_appId: string, _viewId: string, _filters: unknown, options: ViewStreamOptions): Promise<ViewStreamResult> => {
            const store = new RowStore();
            reads += 1;
            if (reads === 1) {
              // Read A: two rows, then it waits until the newer read replaces it.
              for (const row of rows.slice(0, 2)) {
                const bytes = Buffer.from(JSON.stringify({ id: row.id, ...row.values }));
                const at = store.receivedBytes;
                store.appendBytes(bytes);
                store.addRow(at, at + bytes.length);
              }
              await options.onBatch?.({ rows: store, from: 0, to: 2 });
              // The grid holds its rows: the newer read stops it (an abort would release its store).
              await waitFor(options.stop);
              return { rows: store, rowsRead: 2, metadata: undefined, stopped: true };
            }
            // Read B: Cancel comes before its first rows.
            await waitFor(options.stop);
            return { rows: store, rowsRead: 0, metadata: undefined, stopped: true };
          },
        }),
        ORDERS,
        ALL_ORDERS,
        (state) => states.push(state),
      );
      const firsts: number[] = [];
      const steps = { first: (arrived: ViewRow[]) => void firsts.push(arrived.length), more: () => undefined, ended: () => undefined };
      await reader.read([], steps);
      const again = reader.read([], steps).then(() => 'resolved', (error: unknown) => (isCancellation(error) ? 'cancelled' : String(error)));
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(reader.stop(), true);
      assert.equal(await again, 'cancelled', 'the newer read gives up quietly');
      await reader.whenEnded();
      assert.deepEqual(firsts, [2], "the newer read never replaced the grid's rows with none");
      assert.deepEqual(states.at(-1), { state: 'partial', count: 2, message: 'Cancelled after 2 rows.' });
    });

    it('a cancelled read and one that broke off keep their rows and say how many were read', async () => {
      assert.deepEqual((await readAll([2, 3], 'stopped')).states.at(-1), { state: 'partial', count: 5, message: 'Cancelled after 5 rows.' });
      const broken = (await readAll([2, 3], 'broken')).states.at(-1);
      assert.equal(broken?.state, 'partial');
      assert.match(broken?.message ?? '', /^The connection broke off\. Only 5 rows were read before it broke off\.$/);
    });
  });
});
