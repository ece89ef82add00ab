// One open grid's model over the emulator's Orders view: locked columns, row states with their marks, a
// webhook's newer copy taken by a row without edits and only marked on a row with edits, a save's
// outcomes, and Take theirs.
import * as assert from 'node:assert/strict';
import { backupOf, parseBackup, serializeBackup } from '../../../src/grid/model/backup';
import { GridModel } from '../../../src/grid/model/gridModel';
import { appRecords } from '../../../src/records/store';
import { saveChanges } from '../../../src/grid/model/saveRunner';
import { gridEditColumns } from '../../../src/grid/model/viewColumns';
import { testInterface } from '../api/portal';
import { ALL_ORDERS, ORDERS, startGridPortal, type GridPortal } from './gridPortal';

describe('grid: the model of an open grid', function () {
  let portal: GridPortal;
  let model: GridModel;

  before(async () => {
    portal = await startGridPortal();
  });
  after(() => portal.emulator.close());
  beforeEach(async () => {
    await testInterface(portal.emulator, 'POST', 'reset');
    const view = await portal.client.readView(ORDERS, ALL_ORDERS);
    model = new GridModel(
      gridEditColumns(ORDERS, view.metadata, () => portal.columns),
      portal.columns,
      view.rows,
    );
  });

  const index = (key: string): number => model.columns.findIndex((column) => column.key === key);

  it('locks the columns the API cannot set and marks pending and invalid cells in the row state', () => {
    assert.match(model.columns[index('f10')].locked ?? '', /read-only \(Auto Number\)/);
    assert.equal(model.columns[index('f11')].locked, undefined);
    model.history.edit('edit', 'Edit', [
      { recordId: '1', field: 'f11', value: 'Desks' },
      { recordId: '1', field: 'f17', value: 'lots' },
    ]);
    const state = model.rowState('1');
    assert.deepEqual(state.pending, [index('f11'), index('f17')]);
    assert.equal(state.problems.length, 1);
    assert.equal(state.problems[0][0], index('f17'));
    assert.equal(state.values[index('f11')], 'Desks');
    assert.deepEqual(model.markedRowIds(), ['1']);
  });

  it("takes a webhook's newer copy for a row without edits, and only marks a row with edits", () => {
    model.history.edit('edit', 'Edit', [{ recordId: '2', field: 'f11', value: 'Mine' }]);
    const fresh = { ...model.copyOf('1'), f11: 'Theirs' };
    assert.deepEqual(model.portalChanged('1', fresh), { changed: ['1'], removed: [] });
    assert.equal(model.rowState('1').values[index('f11')], 'Theirs');
    assert.deepEqual(model.portalChanged('2', { ...model.copyOf('2'), f11: 'Theirs' }), { changed: ['2'], removed: [] });
    assert.equal(model.rowState('2').values[index('f11')], 'Mine', 'the pending edit is never touched');
    assert.equal(model.rowState('2').changedOnPortal, 'changed');
    assert.deepEqual(model.portalChanged('3', 'deleted'), { changed: [], removed: ['3'] });
    assert.equal(model.hasRow('3'), false);
  });

  it("does not mark a row with edits when the webhook's copy is the one it was read as (the echo of an earlier save)", () => {
    model.history.edit('edit', 'Edit', [{ recordId: '2', field: 'f11', value: 'Mine' }]);
    assert.deepEqual(model.portalChanged('2', { ...model.copyOf('2') }), { changed: [], removed: [] });
    assert.equal(model.rowState('2').changedOnPortal, undefined, 'no "changed on the portal" mark');
    assert.equal(model.changeSet.row('2')?.changedOnPortal, undefined);
    assert.equal(model.rowState('2').values[index('f11')], 'Mine');
  });

  it('a restored backup keeps every pending row in sight and marks a row the portal changed since', async () => {
    model.history.edit('edit', 'Edit', [
      { recordId: '1', field: 'f11', value: 'Chairs' },
      { recordId: '2', field: 'f18', value: '4' },
    ]);
    const text = serializeBackup(backupOf(model.changeSet, ORDERS, ALL_ORDERS));
    // Until the grid opens again: record 1 leaves the view's rows, someone else renames record 2.
    await portal.client.updateRecord(ORDERS, '2', { f11: 'Theirs' });
    const view = await portal.client.readView(ORDERS, ALL_ORDERS);
    const restored = new GridModel(
      model.columns,
      portal.columns,
      view.rows.filter((row) => row.id !== '1'),
    );
    assert.deepEqual(restored.restoreBackup(parseBackup(text)), []);
    assert.equal(restored.layout([]).rowIds.at(-1), '1', 'the pending row the view left out is in sight, last');
    assert.equal(restored.rowState('1').values[index('f11')], 'Chairs');
    assert.equal(restored.rowState('2').changedOnPortal, 'changed', "marked, as a webhook marks it: its Title as read is not the portal's");
    assert.equal((restored.changeSet.row('2')?.changedOnPortal as Record<string, string>).f11, 'Theirs');
    assert.equal(restored.rowState('3').changedOnPortal, undefined);
  });

  it('after a save, saved rows take what was sent and a conflict is kept until Take theirs', async () => {
    model.history.edit('edit', 'Edit', [
      { recordId: '1', field: 'f11', value: 'Desks' },
      { recordId: '2', field: 'f11', value: 'Chairs' },
    ]);
    await portal.client.updateRecord(ORDERS, '2', { f18: '99' });
    const report = await saveChanges(model.changeSet, appRecords(portal.client, ORDERS));
    const summary = model.afterSave(report);
    assert.deepEqual([summary.saved, summary.conflicts], [1, 1]);
    assert.equal(model.rowState('1').pending.length, 0);
    assert.equal(model.rowState('1').values[index('f11')], 'Desks', 'the saved value stays shown');
    assert.match(model.rowState('2').conflict ?? '', /Someone else changed this record/);
    const conflict = model.conflicts.get('2');
    assert.ok(conflict);
    model.take('2', conflict.portalCopy);
    assert.equal(model.conflicts.has('2'), false);
  });

  it('counts the rows typed into while the save ran as not sent yet', async () => {
    model.history.edit('edit', 'Edit', [{ recordId: '1', field: 'f11', value: 'Desks' }]);
    const real = appRecords(portal.client, ORDERS);
    const saving = saveChanges(model.changeSet, {
      ...real,
      update: async (recordId, fields, signal) => {
        // Typed while the update is on its way: a cell of the row being saved and one of another row.
        model.history.edit('edit', 'Edit', [
          { recordId: '1', field: 'f18', value: '5' },
          { recordId: '2', field: 'f11', value: 'Chairs' },
        ]);
        await real.update(recordId, fields, signal);
      },
    });
    const summary = model.afterSave(await saving);
    assert.deepEqual([summary.saved, summary.unsent], [1, 2]);
    assert.deepEqual(model.markedRowIds().sort(), ['1', '2']);
  });

  it('does not count held-back, failed or blocked rows as not sent yet', async () => {
    model.history.edit('edit', 'Edit', [
      { recordId: '1', field: 'f11', value: 'Desks' },
      { recordId: '2', field: 'f11', value: 'Chairs' },
      { recordId: '3', field: 'f17', value: 'lots' },
    ]);
    await portal.client.updateRecord(ORDERS, '2', { f18: '99' });
    const summary = model.afterSave(await saveChanges(model.changeSet, appRecords(portal.client, ORDERS)));
    assert.deepEqual([summary.saved, summary.conflicts, summary.blocked, summary.unsent], [1, 1, 1, 0]);
  });
});
