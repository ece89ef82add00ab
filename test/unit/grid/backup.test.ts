// The pending changes written for the custom editor's backup and read back: everything survives (invalid
// cells, marks), a damaged or newer backup is refused with a message and restores nothing.
import * as assert from 'node:assert/strict';
import { backupOf, droppedEditsMessage, parseBackup, restoreBackup, serializeBackup } from '../../../src/grid/model/backup';
import { ChangeSet } from '../../../src/grid/model/changeSet';
import { EditHistory } from '../../../src/grid/model/editHistory';
import { freshGrid, startGridPortal, type GridPortal } from './gridPortal';

describe('grid: backup of pending changes', function () {
  let portal: GridPortal;

  before(async () => {
    portal = await startGridPortal();
  });
  after(() => portal.emulator.close());

  it('restores edits, invalid cells and rows changed on the portal into a new change set', async () => {
    const { changeSet, rows } = await freshGrid(portal);
    const history = new EditHistory(changeSet);
    history.edit('edit', 'Edit', [
      { recordId: '1', field: 'f11', value: 'Chairs' },
      { recordId: '2', field: 'f15', value: '32-01-2026' },
      { recordId: '3', field: 'f18', value: '4' },
    ]);
    changeSet.portalChanged('3', { ...rows.get('3'), f11: 'theirs' });
    const text = serializeBackup(backupOf(changeSet, '102', '3'));

    // After a reload the grid reads the view again: the portal's copy may have moved on since.
    const reread = new Map(rows);
    reread.set('1', { ...rows.get('1'), f11: 'Changed meanwhile' });
    const restored = new ChangeSet(portal.columns, (recordId) => reread.get(recordId));
    const backup = parseBackup(text);
    assert.deepEqual([backup.version, backup.appId, backup.viewId], [1, '102', '3']);
    assert.deepEqual(restoreBackup(restored, backup), []);
    assert.equal(restored.value('1', 'f11'), 'Chairs');
    assert.equal(restored.row('1')?.asRead.f11, rows.get('1')?.f11, 'the copy as read stays the base of the conflict check');
    assert.match(restored.problem('2', 'f15') ?? '', /not a real date/);
    assert.equal((restored.row('3')?.changedOnPortal as Record<string, string>).f11, 'theirs');
    assert.deepEqual(
      restored.rows().map((row) => row.recordId),
      ['1', '2', '3'],
    );
  });

  it('hands back edits the columns no longer allow instead of restoring them', async () => {
    const { changeSet } = await freshGrid(portal);
    const text = JSON.stringify({
      version: 1,
      appId: '102',
      viewId: '3',
      rows: [{ recordId: '1', asRead: { f10: '5001' }, edits: { f10: '1', f18: '3' }, changedOnPortal: null }],
    });
    const refused = restoreBackup(changeSet, parseBackup(text));
    assert.deepEqual(
      refused.map((cell) => [cell.field, cell.message]),
      [['f10', 'read-only (Auto Number): it cannot be set through the API']],
    );
    assert.deepEqual(Object.fromEntries(changeSet.row('1')?.edits ?? []), { f18: '3' });
  });

  it('says which restored edits were left out, with their values, so the user can enter them again', async () => {
    const { changeSet } = await freshGrid(portal);
    const text = JSON.stringify({
      version: 1,
      appId: '102',
      viewId: '3',
      rows: [
        { recordId: '1', asRead: { f10: '5001' }, edits: { f10: '1', f18: '3' }, changedOnPortal: null },
        { recordId: '2', asRead: { f10: '5002' }, edits: { f10: 'seven\nlines' }, changedOnPortal: null },
      ],
    });
    const refused = restoreBackup(changeSet, parseBackup(text));
    assert.equal(
      droppedEditsMessage(refused, portal.columns, 'All orders'),
      'Restoring the unsaved changes of All orders left out 2 edits that the app\'s columns no longer allow: record 1, Order no. (f10): "1" (read-only (Auto Number): it cannot be set through the API); record 2, Order no. (f10): "seven\\nlines" (read-only (Auto Number): it cannot be set through the API).',
    );
    assert.equal(droppedEditsMessage([], portal.columns, 'All orders'), undefined, 'nothing to say when every edit was restored');
  });

  it('refuses a backup of another version or a damaged one, saying why', () => {
    assert.throws(
      () => parseBackup('{"version": 2, "appId": "1", "viewId": "1", "rows": []}'),
      /has version 2; this version of Portal Explorer reads version 1/,
    );
    assert.throws(() => parseBackup('{"version": 1'), /not JSON/);
    assert.throws(
      () => parseBackup('{"version": 1, "appId": "1", "viewId": "1", "rows": [{"recordId": "1", "asRead": {}, "edits": {"f1": 3}}]}'),
      /row 1: edits\.f1 is not a string/,
    );
  });
});
