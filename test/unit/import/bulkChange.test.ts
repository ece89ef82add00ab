// Set Field and Delete Rows over records of a view, against the emulator: the value checked like any
// other, the preview count, the runner's retries, the journal's resume and the failure report.
import * as assert from 'node:assert/strict';
import type { ViewRow } from '../../../src/api/client';
import { checkValue } from '../../../src/api/formats';
import type { Column } from '../../../src/api/types';
import { bulkFailuresCsv, previewSetField, runBulkChange } from '../../../src/import/bulkChange';
import { injectFault, testInterface } from '../api/portal';
import { requestLog } from './portalImport';
import { useImportPortal } from './support';

describe('import: bulk change', function () {
  this.timeout(60_000);
  const portal = useImportPortal();
  const column = (field: string): Column => portal.customers.find((candidate) => candidate.field_id_in_data === field) as Column;
  const rows = async (): Promise<ViewRow[]> => (await portal.client.readView('101', '1')).rows;

  it('Set Field: checks the value like the form does and counts the rows that change', async () => {
    const all = await rows();
    const gold = all.filter((row) => row.values.f6 === '3').length;
    assert.ok(gold > 0 && gold < all.length);
    assert.deepEqual(previewSetField(column('f6'), portal.customers, 'gold', all), {
      value: '3',
      changes: all.length - gold,
      unchanged: gold,
    });
    const platinum = previewSetField(column('f6'), portal.customers, 'Platinum', all);
    assert.equal(platinum.problem, checkValue(column('f6'), 'Platinum'));
    assert.equal(platinum.changes, 0);
    const cleared = previewSetField(column('f2'), portal.customers, '', all);
    assert.match(cleared.problem ?? '', /required/);
    assert.equal(cleared.expected, 'a value (the column is required)');
    assert.match(previewSetField(column('f1'), portal.customers, '7', all).problem ?? '', /read-only \(Auto Number\)/);
  });

  it('Set Field: updates only the rows that change, through 503s and lost answers; a second run sends nothing', async () => {
    const all = await rows();
    const preview = previewSetField(column('f6'), portal.customers, 'Gold', all);
    await injectFault(portal.emulator, { path: '/record/\\d+$', method: 'PUT', status: 503, count: 2 });
    await injectFault(portal.emulator, { path: '/record/\\d+$', method: 'PUT', lose_answer: true, count: 2 });
    const announced: Array<{ recordId: string; kind: string }> = [];
    const result = await runBulkChange({
      appId: '101',
      change: { kind: 'set-field', field: 'f6', value: preview.value as string },
      rows: all,
      writer: portal.client,
      journalFolder: portal.folder,
      retry: { baseDelayMs: 10 },
      onRecordChanged: (change) => announced.push(change),
    });
    assert.deepEqual([result.counts.updated, result.counts.unchanged, result.counts.failed], [preview.changes, preview.unchanged, 0]);
    const changed = all.filter((row) => row.values.f6 !== '3').map((row) => `updated ${row.id}`);
    assert.deepEqual(
      announced.map((change) => `${change.kind} ${change.recordId}`).sort(),
      changed.sort(),
      'each record updated announced once, the unchanged ones not',
    );
    assert.ok((await rows()).every((row) => row.values.f6 === '3'));
    const puts = (await requestLog(portal.emulator)).filter((entry) => entry.method === 'PUT').length;
    const again = await runBulkChange({
      appId: '101',
      change: { kind: 'set-field', field: 'f6', value: '3' },
      rows: all,
      writer: portal.client,
      journalFolder: portal.folder,
    });
    assert.equal(again.resumed, true);
    assert.equal(again.counts.updated, preview.changes);
    assert.equal(
      (await requestLog(portal.emulator)).filter((entry) => entry.method === 'PUT').length,
      puts,
      'the finished job sends nothing again',
    );
  });

  it('Delete Rows: moves records to trash, a lost answer counts as done, a record already gone is a failure with its reason', async () => {
    const picked = (await rows()).slice(0, 4);
    await portal.client.deleteRecord('101', picked[3].id as string); // someone else was quicker
    await injectFault(portal.emulator, { path: '/record/\\d+$', method: 'DELETE', lose_answer: true, count: 1 });
    const announced: Array<{ recordId: string; kind: string }> = [];
    const result = await runBulkChange({
      appId: '101',
      change: { kind: 'delete' },
      rows: picked,
      writer: portal.client,
      journalFolder: portal.folder,
      retry: { baseDelayMs: 10 },
      onRecordChanged: (change) => announced.push(change),
    });
    assert.deepEqual([result.counts.deleted, result.counts.failed], [3, 1]);
    // Each record moved to trash is announced (open documents and views follow); the one gone already is not.
    assert.deepEqual(
      announced.map((change) => `${change.kind} ${change.recordId}`).sort(),
      picked
        .slice(0, 3)
        .map((row) => `deleted ${row.id}`)
        .sort(),
    );
    for (const row of picked)
      assert.equal(((await testInterface(portal.emulator, 'GET', `records/101/${row.id}`)) as { trashed: boolean }).trashed, true);
    assert.equal(result.failures[0].recordId, picked[3].id);
    const csv = await bulkFailuresCsv(result.failures);
    assert.match(csv, new RegExp(`^\\ufeffRecord id,Problem\\r\\n${picked[3].id},.+`));
  });
});
