// The editable grid while its rows arrive (issue 19): the model takes batches at its end (a row's position
// never moves, since the page names rows by position), keeps pending and new rows in sight, first, from a
// new read's first rows on (they used to vanish until the read ended), checks a backup's rows as they
// arrive; the reader hands the first batch over at once and says how a read ended (all in, cancelled,
// broken off) with how many rows were read.
import * as assert from 'node:assert/strict';
import type { ViewRow } from '../../../src/api/answers';
import { isCancellation, PortalError } from '../../../src/api/errors';
import { RowStore } from '../../../src/api/rowStore';
import type { ViewStreamOptions, ViewStreamResult } from '../../../src/api/viewStream';
import { backupOf } from '../../../src/grid/model/backup';
import { readAgainAndMark } from '../../../src/grid/model/changedOnPortal';
import { finishRead } from '../../../src/grid/model/finishRead';
import { GridModel } from '../../../src/grid/model/gridModel';
import { appRecords } from '../../../src/records/store';
import { saveChanges } from '../../../src/grid/model/saveRunner';
import type { GridLoadState } from '../../../src/grid/protocol';
import { GridRowsReader } from '../../../src/grid/host/rowsReader';
import type { gridEditColumns } from '../../../src/grid/model/viewColumns';
import { testInterface } from '../api/portal';
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

  it('a read again with more to come: pending and new rows stay in sight from its first rows on, first, and are not shown twice when it reaches them', () => {
    const model = new GridModel(columns, portal.columns, rows);
    const title = columns.findIndex((column) => column.key === 'f11');
    const [, , left, , , reached] = ids(rows);
    model.history.edit('edit', 'Edit', [
      { recordId: reached, field: 'f11', value: 'Mine' },
      { recordId: left, field: 'f11', value: 'Kept' },
    ]);
    const added = model.history.addRow().recordId;
    model.history.edit('edit', 'Edit', [{ recordId: added, field: 'f11', value: 'New' }]);
    model.takeRowEvents();
    // The new read: `left` is no longer in the view, and someone else changed another field of `reached`.
    const others = rows
      .filter((row) => row.id !== left)
      .map((row) => (row.id === reached ? { ...row, values: { ...row.values, f18: '77' } } : row));
    model.replaceRows(others.slice(0, 2), { more: true });
    const pinned = [left, reached, added];
    assert.deepEqual(model.layout([]).rowIds, [...pinned, ...ids(others.slice(0, 2))], 'in the order they had, before the first rows');
    for (const recordId of pinned) assert.deepEqual(model.rowState(recordId).pending, [title], `${recordId} shows its pending mark`);
    assert.equal(model.rowState(left).values[title], 'Kept');
    assert.equal(model.rowState(added).isNew, true);

    assert.deepEqual(
      model.appendRows(others.slice(2)),
      ids(others.slice(2)).filter((id) => id !== reached),
      'the row the read reached is not added twice',
    );
    assert.equal(model.copyOf(reached)?.f18, '77', "the row's copy is the new read's, taken in place");
    assert.equal(model.rowState(reached).values[title], 'Mine');
    assert.deepEqual(model.finishRows(), [], 'at the end no row moves and none is appended: the page goes on as it is');
    assert.deepEqual(model.layout([]).rowIds, [...pinned, ...ids(others).filter((id) => id !== reached)]);
    assert.equal(model.changeSet.value(left, 'f11'), 'Kept', 'the row the read left out keeps its edits');
    assert.deepEqual(model.copyOf(left), rows[2].values, 'and its copy as read');
    assert.equal(model.rowState(left).changedOnPortal, undefined, 'left out by the filters is not a change on the portal');
  });

  it('undo, redo and save work on a pinned row while the read goes on; Cancel keeps it', async () => {
    const model = new GridModel(columns, portal.columns, rows);
    const late = ids(rows)[6];
    const transaction = model.history.edit('edit', 'Edit', [{ recordId: late, field: 'f11', value: 'Mine' }]).transaction;
    assert.ok(transaction);
    model.replaceRows(rows.slice(0, 2), { more: true });
    assert.equal(model.hasRow(late), true, 'pinned from the first rows on');

    model.history.undo(transaction);
    assert.equal(model.changeSet.isDirty, false, 'undone: clean');
    assert.equal(model.hasRow(late), true, 'the row stays where it is');
    assert.equal(model.rowState(late).values[columns.findIndex((column) => column.key === 'f11')], rows[6].values.f11);
    model.history.redo(transaction);
    assert.equal(model.changeSet.isDirty, true, 'redone: dirty');
    assert.equal(model.changeSet.value(late, 'f11'), 'Mine');

    const report = await saveChanges(model.changeSet, appRecords(portal.client, ORDERS));
    assert.equal(model.afterSave(report).saved, 1);
    assert.equal(model.changeSet.isDirty, false);
    model.appendRows(rows.slice(2, 5));
    // Cancel: the read ends with the rows it has; the row it never reached stays, with its saved copy.
    assert.deepEqual(model.finishRows(), []);
    assert.deepEqual(model.layout([]).rowIds, [late, ...ids(rows.slice(0, 5))]);
    assert.equal(model.copyOf(late)?.f11, 'Mine', 'the saved copy, not the older one the read began with');
    await testInterface(portal.emulator, 'POST', 'reset');
  });

  it('after a bulk change, a pinned row the read ended without (the record deleted) stays in sight with its edits, marked deleted on the portal', async () => {
    const model = new GridModel(columns, portal.columns, rows);
    const gone = ids(rows)[3];
    model.history.edit('edit', 'Edit', [{ recordId: gone, field: 'f11', value: 'Mine' }]);
    await portal.client.deleteRecord(ORDERS, gone);
    const { marked } = await readAgainAndMark(
      model.changeSet,
      [gone],
      async (observe) => {
        const after = rows.filter((row) => row.id !== gone);
        model.replaceRows(after.slice(0, 2), { more: true });
        assert.equal(model.hasRow(gone), true, 'in sight while the rows arrive');
        observe(after);
        model.appendRows(after.slice(2));
        model.finishRows();
      },
      (recordId) => appRecords(portal.client, ORDERS).readCurrent(recordId),
    );
    assert.equal(marked, 1);
    assert.equal(model.layout([]).rowIds[0], gone, 'still first');
    assert.equal(model.rowState(gone).changedOnPortal, 'deleted');
    assert.equal(model.changeSet.value(gone, 'f11'), 'Mine');
    await testInterface(portal.emulator, 'POST', 'reset');
  });

  it('a save during the read is newer than the copy the read brings of that row', async () => {
    const model = new GridModel(columns, portal.columns, rows);
    const late = ids(rows)[6];
    model.history.edit('edit', 'Edit', [{ recordId: late, field: 'f11', value: 'Saved' }]);
    model.replaceRows(rows.slice(0, 2), { more: true });
    model.afterSave(await saveChanges(model.changeSet, appRecords(portal.client, ORDERS)));
    model.appendRows(rows.slice(2));
    assert.equal(model.copyOf(late)?.f11, 'Saved');
    assert.deepEqual(model.finishRows(), []);
    await testInterface(portal.emulator, 'POST', 'reset');
  });

  it("a backup's row still to come is in sight, first, from the first rows on, and checked when it arrives: marked when the portal's copy moved on", () => {
    const before = new GridModel(columns, portal.columns, rows);
    const [, , , moved, same] = ids(rows);
    before.history.edit('edit', 'Edit', [
      { recordId: moved, field: 'f18', value: '5' },
      { recordId: same, field: 'f18', value: '6' },
    ]);
    const backup = backupOf(before.changeSet, ORDERS, ALL_ORDERS);
    const model = new GridModel(columns, portal.columns, rows.slice(0, 2));
    model.restoreBackup(backup, { more: true });
    // In sight from the first rows on, first (a reload's restored edits do not vanish while the rows arrive).
    assert.deepEqual(model.layout([]).rowIds, [moved, same, ...ids(rows.slice(0, 2))]);
    assert.equal(model.rowState(moved).values[columns.findIndex((column) => column.key === 'f18')], '5');
    const later = rows.slice(2).map((row) => (row.id === moved ? { ...row, values: { ...row.values, f11: 'Changed by someone' } } : row));
    assert.deepEqual(
      model.appendRows(later),
      ids(later).filter((id) => id !== moved && id !== same),
      'not shown twice',
    );
    assert.equal(model.rowState(moved).changedOnPortal, 'changed');
    assert.equal(model.rowState(same).changedOnPortal, undefined);
    assert.equal(model.changeSet.value(moved, 'f18'), '5', 'the restored edit stays');
    assert.deepEqual(model.finishRows(), []);
    assert.deepEqual(
      model.layout([]).rowIds,
      [moved, same, ...ids(rows).filter((id) => id !== moved && id !== same)],
      'nothing moves at the end',
    );
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

  it('a refresh after a bulk change that a newer read replaces still marks the pending rows the portal changed', async () => {
    const model = new GridModel(columns, portal.columns, rows);
    const edited = ids(rows)[1];
    model.history.edit('edit', 'Edit', [{ recordId: edited, field: 'f11', value: 'Mine' }]);
    const theirs = { ...rows[1].values, f18: '99' };
    const { marked } = await readAgainAndMark(
      model.changeSet,
      [edited],
      () => Promise.reject(new PortalError({ kind: 'cancelled', message: 'A newer read of the view replaced this one.' })),
      async () => theirs,
    );
    assert.equal(marked, 1);
    assert.equal(model.rowState(edited).changedOnPortal, 'changed');
    await assert.rejects(
      readAgainAndMark(
        model.changeSet,
        [edited],
        () => Promise.reject(new Error('Broken')),
        async () => theirs,
      ),
      /Broken/,
      'other failures still fail',
    );
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
          return {
            rows: store,
            rowsRead: from,
            metadata: store.metadata,
            ...(end === 'stopped'
              ? { stopped: true as const }
              : end === 'broken'
                ? { failure: new PortalError({ kind: 'network', message: 'The connection broke off.' }) }
                : {}),
          };
        },
      };
    }

    async function readAll(
      batches: number[],
      end: 'done' | 'stopped' | 'broken',
    ): Promise<{ states: GridLoadState[]; first: number; more: number[]; ended: boolean }> {
      const states: GridLoadState[] = [];
      const seen = { first: -1, more: [] as number[], ended: false };
      const reader = new GridRowsReader(
        () => source(batches, end),
        ORDERS,
        ALL_ORDERS,
        (state) => states.push(state),
      );
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
      const reader = new GridRowsReader(
        () => source([2, 3], 'done'),
        ORDERS,
        ALL_ORDERS,
        (state) => states.push(state),
      );
      let more = 0;
      const outcome = await Promise.race([
        reader
          .read([], {
            first: () => {
              throw new Error('The first rows could not be taken.');
            },
            more: () => (more += 1),
            ended: () => assert.fail('a read whose first step failed does not end as read'),
          })
          .then(
            () => 'resolved',
            (error: unknown) => (error instanceof Error ? error.message : String(error)),
          ),
        new Promise((resolve) => setTimeout(() => resolve('never settled'), 2000)),
      ]);
      assert.equal(outcome, 'The first rows could not be taken.');
      await reader.whenEnded();
      assert.equal(more, 0, 'the read stops');
      assert.equal(reader.loading, false);
    });

    it('Cancel before a newer read has its first rows stops that read and keeps the rows of the one it replaced, marked partial', async () => {
      const states: GridLoadState[] = [];
      const waitFor = (signal: AbortSignal | undefined): Promise<void> =>
        new Promise((resolve) => (signal?.aborted ? resolve() : signal?.addEventListener('abort', () => resolve())));
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
      const again = reader.read([], steps).then(
        () => 'resolved',
        (error: unknown) => (isCancellation(error) ? 'cancelled' : String(error)),
      );
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(reader.stop(), true);
      assert.equal(await again, 'cancelled', 'the newer read gives up quietly');
      await reader.whenEnded();
      assert.deepEqual(firsts, [2], "the newer read never replaced the grid's rows with none");
      assert.deepEqual(states.at(-1), { state: 'partial', count: 2, message: 'Cancelled after 2 rows.' });
    });

    it('a cancelled read and one that broke off keep their rows and say how many were read', async () => {
      assert.deepEqual((await readAll([2, 3], 'stopped')).states.at(-1), {
        state: 'partial',
        count: 5,
        message: 'Cancelled after 5 rows.',
      });
      const broken = (await readAll([2, 3], 'broken')).states.at(-1);
      assert.equal(broken?.state, 'partial');
      assert.match(broken?.message ?? '', /^The connection broke off\. Only 5 rows were read before it broke off\.$/);
    });
  });
});
