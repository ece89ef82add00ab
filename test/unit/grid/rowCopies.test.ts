// The editable grid's rows kept compactly (issue 19): the copies are parsed from the read's RowStore when
// asked for, only copies that differ from the read are objects, a new read releases the old store (pending
// rows and conflicts keep their own copies), closing the grid releases it, and the reader hands the store
// over to the grid instead of releasing it (a newer read stops the old one rather than aborting it, since
// the client releases an aborted read's store).
import * as assert from 'node:assert/strict';
import type { ViewRow } from '../../../src/api/answers';
import { PortalError } from '../../../src/api/errors';
import { RowStore } from '../../../src/api/rowStore';
import type { ViewStreamOptions, ViewStreamResult } from '../../../src/api/viewStream';
import { GridModel } from '../../../src/grid/model/gridModel';
import { RowCopies } from '../../../src/grid/model/rowCopies';
import type { RowsSource } from '../../../src/grid/model/rowCopies';
import { GridRowsReader } from '../../../src/grid/host/rowsReader';
import type { gridEditColumns } from '../../../src/grid/model/viewColumns';
import { ALL_ORDERS, ORDERS, ordersView, startGridPortal, type GridPortal } from './gridPortal';

/** A store holding `rows` as the portal sends them (id among the keys), and the rows as the store reads them. */
function storeOf(rows: readonly ViewRow[]): { store: RowStore; read: ViewRow[] } {
  const store = new RowStore();
  for (const row of rows) {
    const bytes = Buffer.from(JSON.stringify({ id: row.id, ...row.values }));
    const at = store.receivedBytes;
    store.appendBytes(bytes);
    store.addRow(at, at + bytes.length);
  }
  return { store, read: [...store.rows()] };
}

const row = (id: string, values: Record<string, string>): ViewRow => ({ id, draft: undefined, values });

describe('grid: rows kept in the read’s store', function () {
  describe('RowCopies', () => {
    const rows = [row('1', { f1: 'a' }), row('2', { f1: 'b' }), row('3', { f1: 'c' })];

    it('parses a copy from the store when asked, keeping no object per row', () => {
      const { store, read } = storeOf(rows);
      const copies = new RowCopies();
      copies.replace(store);
      read.forEach((each, position) => copies.add(each.id ?? '', each, position, { store, from: 0 }));
      assert.equal(copies.overridden, 0, 'no copy is an object');
      assert.deepEqual(copies.get('2'), { f1: 'b' });
      assert.equal(copies.has('3'), true);
      assert.equal(copies.get('4'), undefined);
    });

    it('a copy that differs from the read is an override; a row arriving later keeps it', () => {
      const { store, read } = storeOf(rows);
      const copies = new RowCopies();
      copies.replace(store);
      copies.set('3', { f1: 'saved' });
      read.forEach((each, position) => copies.add(each.id ?? '', each, position, { store, from: 0 }));
      assert.deepEqual(copies.get('3'), { f1: 'saved' }, 'a save before the row arrived is newer than the read');
      copies.set('1', { f1: 'refreshed' });
      assert.deepEqual(copies.get('1'), { f1: 'refreshed' });
      copies.delete('2');
      assert.equal(copies.has('2'), false);
      assert.equal(copies.overridden, 2);
    });

    it('a pinned copy (a pending row kept in sight while a read runs) is an object only until the read brings the row', () => {
      const { store, read } = storeOf(rows);
      const copies = new RowCopies();
      copies.replace(store);
      copies.pin('2', { f1: 'as read before' });
      copies.pin('3', { f1: 'as read before' });
      copies.set('3', { f1: 'saved meanwhile' });
      assert.deepEqual(copies.get('2'), { f1: 'as read before' }, 'shown until the read reaches it');
      read.forEach((each, position) => copies.add(each.id ?? '', each, position, { store, from: 0 }));
      assert.deepEqual(copies.get('2'), { f1: 'b' }, "the read's copy, in place of the pinned one");
      assert.deepEqual(copies.get('3'), { f1: 'saved meanwhile' }, 'a save during the read is newer than it');
      assert.equal(copies.overridden, 1, 'only the saved copy is still an object');
    });

    it('a new read releases the old store and drops every copy; dispose releases the last', () => {
      const old = storeOf(rows);
      const copies = new RowCopies();
      copies.replace(old.store);
      old.read.forEach((each, position) => copies.add(each.id ?? '', each, position, { store: old.store, from: 0 }));
      copies.set('1', { f1: 'saved' });
      const next = storeOf([row('9', { f1: 'z' })]);
      copies.replace(next.store);
      assert.equal(old.store.isReleased, true);
      assert.equal(copies.has('1'), false);
      copies.add('9', next.read[0], 0, { store: next.store, from: 0 });
      assert.deepEqual(copies.get('9'), { f1: 'z' });
      copies.dispose();
      assert.equal(next.store.isReleased, true);
      assert.equal(copies.has('9'), false, 'a closed grid has no copies (and does not read a released store)');
    });

    it('parses a row once per task (a fill asks it once per column), not kept past it, nor over an override', async () => {
      const { store, read } = storeOf(rows);
      const copies = new RowCopies();
      copies.replace(store);
      read.forEach((each, position) => copies.add(each.id ?? '', each, position, { store, from: 0 }));
      const first = copies.get('1');
      assert.equal(copies.get('1'), first, 'the same task: parsed once');
      assert.notEqual(copies.get('3', true), copies.get('3', true), '`once`: parsed for the caller alone, not kept');
      copies.set('1', { f1: 'saved' });
      assert.deepEqual(copies.get('1'), { f1: 'saved' });
      const second = copies.get('2');
      await Promise.resolve();
      assert.notEqual(copies.get('2'), second, 'a later task parses it again');
    });

    it('refuses rows of a store it does not hold', () => {
      const { store, read } = storeOf(rows);
      const copies = new RowCopies();
      assert.throws(() => copies.add('1', read[0], 0, { store, from: 0 }), /read the grid does not hold/);
    });
  });

  describe('the grid’s model over the store', () => {
    let portal: GridPortal;
    let rows: ViewRow[];
    let columns: ReturnType<typeof gridEditColumns>;

    before(async () => {
      portal = await startGridPortal();
      ({ rows, columns } = await ordersView(portal));
    });
    after(() => portal.emulator.close());

    const ids = (list: readonly ViewRow[]): string[] => list.map((each) => each.id ?? '');

    it('shows, edits and saves the rows as a grid of objects does, every copy parsed from the store', () => {
      const objects = new GridModel(columns, portal.columns, rows);
      const { store, read } = storeOf(rows);
      const model = new GridModel(columns, portal.columns, read.slice(0, 2), { store, from: 0 });
      model.appendRows(read.slice(2), { store, from: 2 });
      assert.deepEqual(model.initialRows(), objects.initialRows());
      const edited = ids(rows)[1];
      const edit = [{ recordId: edited, field: 'f11', value: 'Mine' }];
      model.history.edit('edit', 'Edit', edit);
      objects.history.edit('edit', 'Edit', edit);
      assert.deepEqual(model.rowState(edited), objects.rowState(edited));
      assert.deepEqual(
        model.rowState(edited).values,
        model.columns.map((column) => model.changeSet.value(edited, column.key)),
        'the page shows what the change set says',
      );
      assert.deepEqual(model.copyOf(ids(rows)[2]), rows[2].values);
    });

    it('a new read releases the old store; a pending row it leaves out keeps its edits and its copy as read', () => {
      const first = storeOf(rows);
      const model = new GridModel(columns, portal.columns, first.read, { store: first.store, from: 0 });
      const edited = ids(rows)[0];
      const asRead = rows[0].values;
      model.history.edit('edit', 'Edit', [{ recordId: edited, field: 'f11', value: 'Mine' }]);
      const second = storeOf(rows.slice(1));
      model.replaceRows(second.read, { source: { store: second.store, from: 0 } });
      assert.equal(first.store.isReleased, true, 'the old read’s bytes go');
      assert.equal(second.store.isReleased, false);
      assert.equal(model.layout([]).rowIds[0], edited, 'the pending row stays in sight, first');
      assert.deepEqual(model.copyOf(edited), asRead);
      assert.equal(model.changeSet.value(edited, 'f11'), 'Mine');
      model.dispose();
      assert.equal(second.store.isReleased, true, 'closing the grid releases its rows');
    });
  });

  describe('the reader', () => {
    it('hands the store over instead of releasing it at the end of the read', async () => {
      const { store } = storeOf([row('1', { f1: 'a' }), row('2', { f1: 'b' })]);
      const reader = new GridRowsReader(
        () => ({
          streamView: async (_appId: string, _viewId: string, _filters: unknown, options: ViewStreamOptions): Promise<ViewStreamResult> => {
            await options.onBatch?.({ rows: store, from: 0, to: 2 });
            store.metadata = [];
            return { rows: store, rowsRead: 2, metadata: [] };
          },
        }),
        ORDERS,
        ALL_ORDERS,
        () => undefined,
      );
      let handed: RowStore | undefined;
      await reader.read([], {
        first: (_rows, _metadata, _live, source) => void (handed = source.store),
        more: () => undefined,
        ended: () => undefined,
      });
      await reader.whenEnded();
      assert.equal(handed, store);
      assert.equal(store.isReleased, false, 'the grid parses its copies from it');
    });

    it('a newer read leaves the copy whose rows the grid shows to the grid, which lets it go when newer rows replace them', async () => {
      const stores: RowStore[] = [];
      const ends: string[] = [];
      const reader = new GridRowsReader(
        () => ({
          streamView: async (_appId: string, _viewId: string, _filters: unknown, options: ViewStreamOptions): Promise<ViewStreamResult> => {
            const { store } = storeOf([row(`${stores.length + 1}`, { f1: 'a' })]);
            stores.push(store);
            await options.onBatch?.({ rows: store, from: 0, to: 1 });
            // As the client does: an aborted read's store is released, a stopped one is kept.
            await new Promise<void>((resolve) => {
              if (options.signal?.aborted || options.stop?.aborted) resolve();
              options.signal?.addEventListener('abort', () => resolve());
              options.stop?.addEventListener('abort', () => resolve());
            });
            if (options.signal?.aborted) {
              ends.push('aborted');
              store.release();
              throw new PortalError({ kind: 'cancelled', message: 'Replaced.' });
            }
            ends.push('stopped');
            return { rows: store, rowsRead: 1, metadata: undefined, stopped: true };
          },
        }),
        ORDERS,
        ALL_ORDERS,
        () => undefined,
      );
      const held: RowsSource[] = [];
      const steps = {
        first: (...[, , , source]: [unknown, unknown, unknown, RowsSource]) => void held.push(source),
        more: () => undefined,
        ended: () => undefined,
      };
      await reader.read([], steps);
      await reader.read([], steps);
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(ends, [], 'the older read is neither stopped nor aborted: the grid (or another place) still shows it');
      assert.equal(stores[0].isReleased, false, 'the grid releases it when the newer rows replace them');
      held[0].release?.(); // the newer rows replaced them (RowCopies.replace)
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(ends, ['aborted'], 'nothing shows the older copy: its read ends');
      assert.equal(stores[0].isReleased, true);
      reader.stop();
      await reader.whenEnded();
      held[1].release?.();
    });
  });
});
