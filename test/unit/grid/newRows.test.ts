// Rows added in the grid: a pending row checked with the rules of creating a record (a required field
// left empty is marked on its cell and blocks only that row), undone and redone as one step, taken out by
// Discard, kept by a backup, and created at save with one POST of its fields (a draft where asked), after
// which it is the record it became: its placeholder names the record, and an undo reaches it.
import * as assert from 'node:assert/strict';
import { PortalError } from '../../../src/api/errors';
import { checkRecord } from '../../../src/api/formats';
import { backupOf, parseBackup, restoreBackup, serializeBackup } from '../../../src/grid/model/backup';
import { GridModel } from '../../../src/grid/model/gridModel';
import { appRecords, type AppRecords } from '../../../src/records/store';
import { saveChanges } from '../../../src/grid/model/saveRunner';
import { gridEditColumns } from '../../../src/grid/model/viewColumns';
import { testInterface } from '../api/portal';
import { ALL_ORDERS, ORDERS, requestLog, startGridPortal, type GridPortal } from './gridPortal';

/** Orders' required fields: Title, Order date, Amount (the emulator's seed). */
const REQUIRED = { f11: 'Plants for the lobby', f15: '03-03-2026', f17: '120.50' };

describe('grid: new rows', function () {
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
    await testInterface(portal.emulator, 'DELETE', 'requests');
    portal.sent.length = 0;
  });

  const rowIds = (): readonly string[] => model.layout([]).rowIds;
  const fill = (recordId: string, fields: Record<string, string>): void => {
    model.history.edit(
      'edit',
      'Edit',
      Object.entries(fields).map(([field, value]) => ({ recordId, field, value })),
    );
  };

  it('adds an empty row at the end, marked with the rules of a create: each required field empty blocks only that row', () => {
    fill('1', { f18: '3' });
    const { recordId, transaction } = model.history.addRow();
    assert.ok(transaction, 'one step on the undo stack');
    assert.equal(rowIds().at(-1), recordId, 'the row is last');
    assert.equal(rowIds().length, 9);
    assert.equal(model.changeSet.row(recordId)?.isNew, true);
    assert.equal(model.changeSet.isDirty, true);
    const expected = checkRecord(portal.columns, {}, { creating: true });
    assert.deepEqual(
      [...(model.changeSet.row(recordId)?.problems.keys() ?? [])].sort(),
      expected.map((problem) => problem.field).sort(),
      'the required fields are marked, as a create checks them',
    );
    assert.deepEqual(Object.keys(REQUIRED).sort(), expected.map((problem) => problem.field).sort());
    assert.equal(model.changeSet.problem(recordId, 'f11'), expected.find((problem) => problem.field === 'f11')?.message);
    assert.deepEqual(
      model.changeSet.savableRows().map((row) => row.recordId),
      ['1'],
      'only the new row is blocked',
    );
    const state = model.rowState(recordId);
    assert.equal(state.isNew, true);
    assert.equal(state.problems.length, 3);

    fill(recordId, { ...REQUIRED, f15: '31-02-2026' });
    assert.match(model.changeSet.problem(recordId, 'f15') ?? '', /not a real date/, 'a bad value is marked with the rule of documents');
    fill(recordId, { f15: REQUIRED.f15 });
    assert.equal(model.changeSet.row(recordId)?.problems.size, 0);
    assert.deepEqual(
      model.changeSet
        .savableRows()
        .map((row) => row.recordId)
        .sort(),
      ['1', recordId].sort(),
    );
    // Emptied again, it stays (a new row is pending without any value), marked again.
    fill(recordId, { f11: '', f15: '', f17: '' });
    assert.equal(model.changeSet.row(recordId)?.isNew, true);
    assert.equal(model.changeSet.row(recordId)?.problems.size, 3);
  });

  it('undo takes the row out and redo puts it back; Discard takes it out as one step that undo reverses', () => {
    const { recordId, transaction } = model.history.addRow();
    fill(recordId, { f11: 'Typed' });
    model.history.undo();
    assert.equal(model.changeSet.value(recordId, 'f11'), '');
    model.history.undo(transaction);
    assert.equal(model.changeSet.row(recordId), undefined);
    assert.equal(rowIds().includes(recordId), false, 'the grid has its rows as read');
    assert.equal(model.changeSet.isDirty, false);
    assert.deepEqual(model.takeRowEvents(), [{ added: recordId }, { removed: recordId }]);

    model.history.redo(transaction);
    model.history.redo();
    assert.equal(rowIds().at(-1), recordId);
    assert.equal(model.changeSet.value(recordId, 'f11'), 'Typed');

    fill('2', { f18: '9' });
    const discard = model.history.discardAll();
    assert.deepEqual(discard.transaction?.removedRows, [recordId]);
    assert.equal(model.changeSet.isDirty, false);
    assert.equal(rowIds().length, 8);
    model.history.undo(discard.transaction);
    assert.equal(rowIds().at(-1), recordId);
    assert.equal(model.changeSet.value(recordId, 'f11'), 'Typed', 'undoing Discard puts the new row back with what was typed');
    assert.equal(model.changeSet.value('2', 'f18'), '9');
  });

  it('a backup keeps new rows with what was typed in them', () => {
    const { recordId } = model.history.addRow();
    fill(recordId, { f11: 'From the backup' });
    const text = serializeBackup(backupOf(model.changeSet, ORDERS, ALL_ORDERS));
    const restored = new GridModel(model.columns, portal.columns, []);
    assert.deepEqual(restoreBackup(restored.changeSet, parseBackup(text)), []);
    assert.equal(restored.changeSet.row(recordId)?.isNew, true);
    assert.deepEqual(restored.layout([]).rowIds, [recordId]);
    assert.equal(restored.changeSet.value(recordId, 'f11'), 'From the backup');
    assert.equal(restored.changeSet.row(recordId)?.problems.size, 2, 'checked again as a create');
    assert.notEqual(restored.history.addRow().recordId, recordId, 'the next new row gets an id of its own');
  });

  it('saving creates the record with one POST of its fields, as a draft where asked; the placeholder then names the record', async () => {
    const { recordId } = model.history.addRow();
    fill(recordId, { ...REQUIRED, f19: '2' });
    fill('1', { f18: '4' });
    const edit = model.history.edit('edit', 'Edit', [{ recordId, field: 'f18', value: '7' }]).transaction;
    const report = await saveChanges(model.changeSet, appRecords(portal.client, ORDERS, { draft: true }));
    const summary = model.afterSave(report);
    assert.equal(summary.created, 1);
    assert.equal(summary.saved, 2, 'the new row and record 1');
    const created = report.outcomes.find((outcome) => outcome.kind === 'created');
    assert.ok(created?.kind === 'created');
    const posts = (await requestLog(portal.emulator)).filter((entry) => entry.method === 'POST');
    assert.deepEqual(
      posts.map((entry) => `${entry.path} ${entry.status}`),
      [`/api/v1/app/${ORDERS}/record/ 200`],
    );
    const body = Object.fromEntries(new URLSearchParams(portal.sent.find((request) => request.method === 'POST')?.body ?? ''));
    assert.deepEqual(body, { ...REQUIRED, f19: '2', f18: '7', draft: '1' }, 'only the fields typed, as a draft');
    const state = (await testInterface(portal.emulator, 'GET', `records/${ORDERS}/${created.created}`)) as {
      draft: boolean;
      data: Record<string, string>;
    };
    assert.equal(state.draft, true);

    assert.equal(rowIds().at(-1), created.created, 'the row is the record now, where it was');
    assert.equal(model.changeSet.isDirty, false);
    assert.equal(model.changeSet.resolve(recordId), created.created);
    assert.equal(model.changeSet.value(created.created, 'f11'), REQUIRED.f11);
    assert.ok(model.copyOf(created.created)?.f10, "the portal's copy, with its Auto Number, is the row's copy");
    assert.deepEqual(model.takeRowEvents().at(-1), { created: recordId, recordId: created.created });

    // Undo of an edit made before the save reaches the record: pending again, against it.
    model.history.undo(edit);
    assert.equal(model.changeSet.isPending(created.created, 'f18'), true);
    assert.equal(model.changeSet.value(created.created, 'f18'), '');
  });

  it('saving as a published record where the app has no Draft mode sends no draft flag', async () => {
    const { recordId } = model.history.addRow();
    fill(recordId, REQUIRED);
    await saveChanges(model.changeSet, appRecords(portal.client, ORDERS));
    const body = Object.fromEntries(new URLSearchParams(portal.sent.find((request) => request.method === 'POST')?.body ?? ''));
    assert.deepEqual(body, REQUIRED);
  });

  it('a save cancelled while its create is on the way does not create the record twice', async () => {
    const { recordId } = model.history.addRow();
    fill(recordId, REQUIRED);
    const real = appRecords(portal.client, ORDERS);
    let posts = 0;
    let sent: () => void = () => undefined;
    const posted = new Promise<void>((resolve) => (sent = resolve));
    // The portal takes the create; the answer is on its way when the save is cancelled (as fetch does, an
    // abort rejects the wait for it).
    const slowAnswer: AppRecords = {
      ...real,
      create: (fields, signal) => {
        posts += 1;
        sent();
        const done = real.create(fields);
        if (!signal) return done;
        return new Promise((resolve, reject) => {
          signal.addEventListener('abort', () => reject(new PortalError({ kind: 'cancelled', message: 'cancelled' })), { once: true });
          // Settled by the create's answer or by the abort, whichever comes first.
          void done.then(resolve, reject);
        });
      },
    };
    const controller = new AbortController();
    const saving = saveChanges(model.changeSet, slowAnswer, { signal: controller.signal });
    await posted;
    controller.abort();
    model.afterSave(await saving);
    await saveChanges(model.changeSet, slowAnswer);
    assert.equal(posts, 1, 'one create sent');
    const created = (await requestLog(portal.emulator)).filter((entry) => entry.method === 'POST' && entry.status === 200);
    assert.equal(created.length, 1, 'one record created');
    assert.equal(model.changeSet.row(recordId), undefined, 'the new row is the record now');
    assert.notEqual(model.changeSet.resolve(recordId), recordId);
  });

  it('a create whose answer cannot be read fails the row and says the record may exist', async () => {
    const { recordId } = model.history.addRow();
    fill(recordId, REQUIRED);
    const real = appRecords(portal.client, ORDERS);
    const unreadable: AppRecords = {
      ...real,
      create: async (fields) => {
        await real.create(fields);
        throw new PortalError({ kind: 'invalid-response', message: 'The portal answered with a body that is not JSON.' });
      },
    };
    const report = await saveChanges(model.changeSet, unreadable);
    assert.deepEqual(
      report.outcomes.map((outcome) => outcome.kind),
      ['failed'],
    );
    assert.match(model.changeSet.row(recordId)?.saveFailure ?? '', /not JSON\. The portal may have created the record all the same/);
  });

  it('a new row whose Add Row is undone while its create is on the way stays in the grid as the record created', async () => {
    const { recordId, transaction } = model.history.addRow();
    fill(recordId, REQUIRED);
    const real = appRecords(portal.client, ORDERS);
    const report = await saveChanges(model.changeSet, {
      ...real,
      create: async (fields) => {
        const created = await real.create(fields);
        // Ctrl+Z twice while the answer is not back yet: the cells typed, then Add Row.
        model.history.undo();
        assert.ok(model.history.undo(transaction), 'Add Row undone');
        return created;
      },
    });
    model.afterSave(report);
    const created = report.outcomes.find((outcome) => outcome.kind === 'created');
    assert.ok(created?.kind === 'created');
    assert.equal(model.changeSet.resolve(recordId), created.created, 'the placeholder names the record');
    assert.equal(rowIds().at(-1), created.created, 'the record the portal holds now is in sight');
    assert.equal(model.changeSet.value(created.created, 'f11'), REQUIRED.f11);
    assert.deepEqual(model.takeRowEvents().slice(-2), [{ removed: recordId }, { created: recordId, recordId: created.created }]);
  });
});
