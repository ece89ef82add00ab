// The client's local verdict on values (formats.ts) and the portal's must agree: every valid and invalid
// value of every kind goes to the emulator in an update of a real column, and the emulator's answer (200 or
// 400 naming the field) must be what checkRecord() predicted.
import * as assert from 'node:assert/strict';
import type { PortalClient } from '../../../src/api/client';
import { columnKind, type ColumnKind } from '../../../src/api/columnKinds';
import { PortalError } from '../../../src/api/errors';
import { checkRecord, missingRequired } from '../../../src/api/formats';
import type { Column } from '../../../src/api/types';
import { clientFor, startPortal, type Emulator } from './portal';
import { VALUE_CASES } from './valueCases';

const APPS = ['101', '102', '201', '202'];

describe('value formats: the client and the emulator agree', function () {
  let emulator: Emulator;
  let client: PortalClient;
  const columnsOf = new Map<string, Column[]>();

  before(async () => {
    emulator = await startPortal();
    ({ client } = clientFor(emulator));
    for (const appId of APPS) columnsOf.set(appId, await client.listColumns(appId));
  });
  after(() => emulator.close());

  /** A real column of the kind (multi-select or not), preferring one without a unique constraint. */
  function realColumn(kind: ColumnKind, multiSelect: boolean): { appId: string; column: Column } {
    const candidates = APPS.flatMap((appId) =>
      (columnsOf.get(appId) ?? [])
        .filter((column) => columnKind(column) === kind && (kind !== 'choice' || (column.choice_type === '2') === multiSelect))
        .map((column) => ({ appId, column })),
    );
    const found = candidates.find((candidate) => candidate.column.unique_value !== '1') ?? candidates[0];
    assert.ok(found, `the emulator has a ${kind} column`);
    return found;
  }

  /** undefined when the portal took the value, else the field its 400 names. */
  async function portalVerdict(appId: string, field: string, value: string): Promise<string | undefined> {
    try {
      await client.updateRecord(appId, '1', { [field]: value });
      return undefined;
    } catch (error) {
      assert.ok(error instanceof PortalError && error.status === 400, `400 expected for ${JSON.stringify(value)}, got ${String(error)}`);
      return error.field ?? '(no field)';
    }
  }

  for (const { column: sample, valid, invalid } of VALUE_CASES) {
    const kind = columnKind(sample);
    const multi = sample.choice_type === '2';
    it(`${sample.type_name}${multi ? ' (multi-select)' : ''}: ${valid.length} valid and ${invalid.length} invalid values`, async () => {
      const { appId, column } = realColumn(kind, multi);
      const columns = columnsOf.get(appId) ?? [];
      const key = column.field_id_in_data;
      for (const value of [...valid, ...invalid]) {
        const local = checkRecord(columns, { [key]: value }, { creating: false });
        const remote = await portalVerdict(appId, key, value);
        const label = `${key} (${column.type_name}) = ${JSON.stringify(value)}`;
        assert.equal(local.length === 0, valid.includes(value), `the client's verdict on ${label}: ${JSON.stringify(local)}`);
        assert.equal(remote, local[0]?.field, `the emulator's verdict on ${label}`);
      }
    });
  }

  it('read-only and unknown fields: both refuse', async () => {
    for (const appId of APPS) {
      const columns = columnsOf.get(appId) ?? [];
      const readOnly = columns.filter((column) => ['autonumber', 'lookup'].includes(columnKind(column)));
      assert.ok(readOnly.length > 0);
      for (const column of readOnly) {
        const local = checkRecord(columns, { [column.field_id_in_data]: '1' }, { creating: false });
        assert.match(local[0]?.message ?? '', /read-only/);
        assert.equal(await portalVerdict(appId, column.field_id_in_data, '1'), column.field_id_in_data);
      }
      assert.match(checkRecord(columns, { f9999: 'x' }, { creating: false })[0]?.message ?? '', /unknown field/);
      assert.equal(await portalVerdict(appId, 'f9999', 'x'), 'f9999');
    }
  });

  it('creating without the required fields: the portal names one the client found missing', async () => {
    for (const appId of APPS) {
      const columns = columnsOf.get(appId) ?? [];
      const missing = missingRequired(columns, {});
      assert.ok(missing.length > 0, `app ${appId} has required fields`);
      assert.deepEqual(
        checkRecord(columns, {}, { creating: true }).map((problem) => problem.field),
        missing,
      );
      try {
        await client.createRecord(appId, {});
        assert.fail('the create should be refused');
      } catch (error) {
        assert.ok(error instanceof PortalError && error.status === 400 && error.code === 'missing_required_field', String(error));
        assert.ok(error.field && missing.includes(error.field), `${error.field} is one of ${missing.join(', ')}`);
      }
    }
  });

  it('clearing a required field on update: both refuse', async () => {
    const columns = columnsOf.get('101') ?? [];
    const required = columns.find((column) => column.required === '1' && columnKind(column) === 'text');
    assert.ok(required);
    assert.equal(checkRecord(columns, { [required.field_id_in_data]: '' }, { creating: false })[0]?.field, required.field_id_in_data);
    assert.equal(await portalVerdict('101', required.field_id_in_data, ''), required.field_id_in_data);
  });
});
