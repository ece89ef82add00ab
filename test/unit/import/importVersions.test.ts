// An import and a bulk change write through the record store, which offers each record written to the
// history with what brought it: a create's answer as the whole record, an update's fields over the row
// it was decided against (against the emulator).
import * as assert from 'node:assert/strict';
import { runBulkChange } from '../../../src/import/bulkChange';
import { readExisting } from '../../../src/import/importRun';
import type { SeenVersion } from '../../../src/records/versions';
import { importFile } from './portalImport';
import { customersCsv, useImportPortal } from './support';

describe('import: the versions it writes, offered to the history', function () {
  this.timeout(60_000);
  const portal = useImportPortal();
  let offered: SeenVersion[];
  const versions = { offer: (version: SeenVersion): void => void offered.push(version) };
  beforeEach(() => (offered = []));

  it('an import offers each record it created, once, as the portal answered; an upsert its changes over the row read', async () => {
    const path = await portal.file(customersCsv(5, 1, 'Versioned'));
    const created: string[] = [];
    const result = await importFile(path, portal.client, portal.customers, {
      history: { versions, portalId: 'prod', cause: 'import' },
      onRecordChanged: (change) => created.push(change.recordId),
    });
    assert.equal(result.counts.created, 5);
    assert.deepEqual(offered.map((version) => version.record.recordId).sort(), [...created].sort(), 'one version per record created');
    assert.ok(offered.every((version) => version.cause === 'import' && version.whole && version.record.appId === '101'));
    assert.deepEqual(
      offered.map((version) => version.data.f2).sort(),
      [1, 2, 3, 4, 5].map((index) => `Versioned customer ${index}`),
    );

    offered = [];
    const existing = await readExisting(portal.client, '101', '1', 'f2');
    const changed = await portal.file(customersCsv(1, 1, 'Versioned').replace('c1@example.com', 'upserted@example.com'));
    await importFile(changed, portal.client, portal.customers, {
      mode: 'upsert',
      matchField: 'f2',
      existing,
      history: { versions, portalId: 'prod', cause: 'import' },
    });
    assert.equal(offered.length, 1);
    assert.equal(offered[0].whole, false);
    assert.equal(offered[0].data.f3, 'upserted@example.com');
    assert.equal(offered[0].data.f2, 'Versioned customer 1', "the row's other values as read");
  });

  it('Set Field offers each record it updated as a bulk change; an unchanged row offers nothing', async () => {
    const rows = (await portal.client.readView('101', '1')).rows.slice(0, 3);
    const result = await runBulkChange({
      appId: '101',
      change: { kind: 'set-field', field: 'f3', value: rows[0].values.f3 ?? '' },
      rows,
      writer: portal.client,
      journalFolder: portal.folder,
      history: { versions, portalId: 'prod', cause: 'bulk' },
    });
    assert.equal(result.counts.unchanged, 1);
    assert.deepEqual(
      offered.map((version) => `${version.cause} ${version.record.recordId}`).sort(),
      rows
        .slice(1)
        .map((row) => `bulk ${row.id}`)
        .sort(),
    );
    const second = offered.find((version) => version.record.recordId === rows[1].id);
    assert.equal(second?.data.f2, rows[1].values.f2, "the row's other values as read");
  });
});
