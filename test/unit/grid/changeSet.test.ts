// The change set and its undo stack over the real rows and columns of the emulator's Orders app: diffs,
// the rules and messages of documents and the form, read-only refusals, webhook marks, undo and redo.
import * as assert from 'node:assert/strict';
import { checkValue } from '../../../src/api/formats';
import type { ChangeSet } from '../../../src/grid/model/changeSet';
import { EditHistory } from '../../../src/grid/model/editHistory';
import { freshGrid, startGridPortal, type GridPortal } from './gridPortal';

describe('grid: the change set', function () {
  let portal: GridPortal;
  let changeSet: ChangeSet;
  let history: EditHistory;

  before(async () => {
    portal = await startGridPortal();
  });
  after(() => portal.emulator.close());
  beforeEach(async () => {
    ({ changeSet } = await freshGrid(portal));
    history = new EditHistory(changeSet);
  });

  const column = (field: string) => {
    const found = portal.columns.find((candidate) => candidate.field_id_in_data === field);
    assert.ok(found, field);
    return found;
  };

  it('keeps only changed fields, and an edit back to the value as read removes the pending change', () => {
    const title = changeSet.value('1', 'f11');
    assert.notEqual(title, '');
    history.edit('edit', 'Edit', [{ recordId: '1', field: 'f11', value: 'New title' }]);
    assert.equal(changeSet.value('1', 'f11'), 'New title');
    assert.deepEqual(Object.fromEntries(changeSet.row('1')?.edits ?? []), { f11: 'New title' });
    assert.equal(changeSet.isDirty, true);
    history.edit('edit', 'Edit', [{ recordId: '1', field: 'f11', value: title }]);
    assert.equal(changeSet.isPending('1', 'f11'), false);
    assert.equal(changeSet.isDirty, false);
    assert.equal(changeSet.row('1'), undefined);
  });

  it('marks an invalid cell with the message of documents and the form, blocking only its own row', () => {
    history.edit('edit', 'Edit', [
      { recordId: '1', field: 'f15', value: '31-02-2026' },
      { recordId: '2', field: 'f18', value: '7' },
    ]);
    assert.equal(changeSet.problem('1', 'f15'), checkValue(column('f15'), '31-02-2026'));
    assert.match(changeSet.problem('1', 'f15') ?? '', /not a real date/);
    assert.deepEqual(
      changeSet.savableRows().map((row) => row.recordId),
      ['2'],
    );
    // The invalid value is kept (nothing typed is lost) and fixing it unblocks the row.
    assert.equal(changeSet.value('1', 'f15'), '31-02-2026');
    history.edit('edit', 'Edit', [{ recordId: '1', field: 'f15', value: '28-02-2026' }]);
    assert.equal(changeSet.problem('1', 'f15'), undefined);
    assert.deepEqual(
      changeSet
        .savableRows()
        .map((row) => row.recordId)
        .sort(),
      ['1', '2'],
    );
  });

  it('says a required field cannot be emptied, as documents do', () => {
    history.edit('clear', 'Clear', [{ recordId: '3', field: 'f11', value: '' }]);
    assert.equal(changeSet.problem('3', 'f11'), 'required: Title must have a value');
  });

  it("refuses read-only kinds and Lookup apps' columns with a clear message, and keeps nothing of them", () => {
    const outcome = history.edit('paste', 'Paste', [
      { recordId: '1', field: 'f10', value: '9999' },
      { recordId: '1', field: 'f13', value: 'Someone' },
      { recordId: '1', field: 'l3', value: 'x@example.com' },
      { recordId: '1', field: 'f18', value: '12' },
    ]);
    assert.deepEqual(
      outcome.refused.map((cell) => [cell.field, cell.message]),
      [
        ['f10', 'read-only (Auto Number): it cannot be set through the API'],
        ['f13', 'read-only (LookUp): it cannot be set through the API'],
        ['l3', 'read-only: l3 is not a column of this app (it is shown from a linked app) and cannot be set through the API'],
      ],
    );
    assert.deepEqual(Object.fromEntries(changeSet.row('1')?.edits ?? []), { f18: '12' });
    assert.equal(changeSet.refusal('f11'), undefined);
  });

  it('refuses a row that is not in the grid', () => {
    const outcome = history.edit('edit', 'Edit', [{ recordId: '999', field: 'f11', value: 'x' }]);
    assert.equal(outcome.transaction, undefined);
    assert.match(outcome.refused[0].message, /record 999 is not in this grid/);
  });

  it('a webhook event marks a row with pending edits and never touches them; a row without takes the copy', () => {
    history.edit('edit', 'Edit', [{ recordId: '2', field: 'f18', value: '40' }]);
    const theirs = { ...changeSet.row('2')?.asRead, f11: 'Changed by someone else' };
    assert.equal(changeSet.portalChanged('2', theirs), 'marked');
    assert.equal(changeSet.value('2', 'f18'), '40');
    assert.equal(changeSet.value('2', 'f11'), changeSet.row('2')?.asRead.f11, 'the copy as read stays the base');
    assert.deepEqual(changeSet.row('2')?.changedOnPortal, theirs);
    assert.equal(changeSet.portalChanged('3', { f11: 'x' }), 'take');
    assert.equal(changeSet.row('3'), undefined);
    // Undoing the last edit of the marked row releases it: the grid then takes the portal's copy.
    const undone = history.undo();
    assert.equal(undone?.transaction.label, 'Edit');
    assert.deepEqual(undone?.released, [{ recordId: '2', copy: theirs }]);
    assert.equal(changeSet.row('2'), undefined);
  });

  it("hands back the portal's copy when the last edit of a marked row is edited away", () => {
    const original = changeSet.value('2', 'f18');
    history.edit('edit', 'Edit', [{ recordId: '2', field: 'f18', value: '40' }]);
    changeSet.portalChanged('2', 'deleted');
    const outcome = history.edit('edit', 'Edit', [{ recordId: '2', field: 'f18', value: original }]);
    assert.deepEqual(outcome.released, [{ recordId: '2', copy: 'deleted' }]);
  });

  it('undoes and redoes a paste block as one step, and a new edit clears redo', () => {
    const before = ['f11', 'f18'].map((field) => changeSet.value('4', field));
    history.edit('paste', 'Paste 2 × 2 cells', [
      { recordId: '4', field: 'f11', value: 'A' },
      { recordId: '4', field: 'f18', value: '1' },
      { recordId: '5', field: 'f11', value: 'B' },
      { recordId: '5', field: 'f18', value: '2' },
    ]);
    history.edit('edit', 'Edit', [{ recordId: '6', field: 'f11', value: 'C' }]);
    assert.equal(history.undo()?.transaction.kind, 'edit');
    assert.equal(changeSet.row('6'), undefined);
    assert.equal(history.undo()?.transaction.kind, 'paste');
    assert.deepEqual(
      ['f11', 'f18'].map((field) => changeSet.value('4', field)),
      before,
    );
    assert.equal(changeSet.isDirty, false);
    assert.equal(history.redo()?.transaction.label, 'Paste 2 × 2 cells');
    assert.equal(changeSet.value('5', 'f18'), '2');
    assert.equal(history.canRedo, true);
    history.edit('fill', 'Fill down', [{ recordId: '7', field: 'f18', value: '3' }]);
    assert.equal(history.canRedo, false);
    assert.equal(history.undo()?.transaction.kind, 'fill');
    assert.equal(history.undo()?.transaction.kind, 'paste');
    assert.equal(history.undo(), undefined);
  });

  it("undoes only the transaction it is asked for, as VS Code's stack calls back, and can forget the oldest", () => {
    const first = history.edit('edit', 'Edit', [{ recordId: '1', field: 'f11', value: 'A' }]).transaction;
    const second = history.edit('edit', 'Edit', [{ recordId: '1', field: 'f11', value: 'B' }]).transaction;
    assert.ok(first && second);
    assert.equal(history.undo(first), undefined, 'not on top: nothing happens');
    assert.equal(changeSet.value('1', 'f11'), 'B');
    assert.equal(history.undo(second)?.transaction, second);
    assert.equal(history.redo(first), undefined);
    assert.equal(history.redo(second)?.transaction, second);
    const short = new EditHistory(changeSet, 1);
    short.edit('edit', 'Edit', [{ recordId: '2', field: 'f11', value: 'C' }]);
    short.edit('edit', 'Edit', [{ recordId: '2', field: 'f11', value: 'D' }]);
    assert.ok(short.undo());
    assert.equal(short.undo(), undefined);
    assert.equal(changeSet.value('2', 'f11'), 'C');
  });

  it('discards everything as one step that can be undone', () => {
    history.edit('edit', 'Edit', [{ recordId: '1', field: 'f11', value: 'A' }]);
    history.edit('edit', 'Edit', [{ recordId: '2', field: 'f15', value: 'not a date' }]);
    const discard = history.discardAll();
    assert.equal(discard.transaction?.changes.length, 2);
    assert.equal(changeSet.isDirty, false);
    history.undo();
    assert.equal(changeSet.value('1', 'f11'), 'A');
    assert.match(changeSet.problem('2', 'f15') ?? '', /expected DD-MM-YYYY/, 'the invalid value comes back with its message');
  });

  it('tells its listeners which rows changed', () => {
    const seen: string[][] = [];
    const subscription = changeSet.onDidChange((ids) => seen.push([...ids]));
    history.edit('edit', 'Edit', [
      { recordId: '1', field: 'f11', value: 'A' },
      { recordId: '3', field: 'f11', value: 'B' },
    ]);
    subscription.dispose();
    history.undo();
    assert.deepEqual(seen, [['1', '3']]);
  });
});
