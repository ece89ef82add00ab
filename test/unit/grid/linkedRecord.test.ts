// Following a LookUp cell to its record, over the emulator: the linked app and column from the LookUp
// column, the filter a view of the linked app is read with, and only exact matches kept.
import * as assert from 'node:assert/strict';
import type { ViewRow } from '../../../src/api/answers';
import { linkedFilter, linkedLookup, linkedRows, lookupSource } from '../../../src/grid/model/linkedRecord';
import { startGridPortal, type GridPortal } from './gridPortal';

describe('grid: the record a LookUp cell links to', function () {
  let portal: GridPortal;

  before(async () => {
    portal = await startGridPortal();
  });
  after(() => portal.emulator.close());

  const column = (field: string) => {
    const found = portal.columns.find((candidate) => candidate.field_id_in_data === field);
    assert.ok(found, field);
    return found;
  };

  it('finds the linked record through a view of the linked app, by the value the cell shows', async () => {
    const customers = await portal.client.listColumns('101');
    const lookup = linkedLookup(column('f14'), customers, 'hello@hooli.example.com');
    assert.ok(!('problem' in lookup), JSON.stringify(lookup));
    assert.equal(lookup.appId, '101');
    assert.equal(lookup.shown.field_id_in_data, 'f3');
    assert.deepEqual(linkedFilter(lookup), { column: lookup.shown.field_id, operator: 'equals', value: 'hello@hooli.example.com' });
    const read = await portal.client.readView('101', '1', [linkedFilter(lookup)]);
    assert.deepEqual(
      linkedRows(lookup, read.rows).map((row) => row.id),
      ['5'],
    );
  });

  it('keeps only exact matches, and says why a cell cannot be followed', async () => {
    const customers = await portal.client.listColumns('101');
    const lookup = linkedLookup(column('f13'), customers, 'Hooli');
    assert.ok(!('problem' in lookup));
    const row = (id: string, name: string): ViewRow => ({ id, draft: false, values: { f2: name } });
    assert.deepEqual(
      linkedRows(lookup, [row('5', 'Hooli'), row('9', 'hooli'), row('10', 'Hooli Inc')]).map((found) => found.id),
      ['5'],
    );
    assert.match((linkedLookup(column('f13'), customers, '') as { problem: string }).problem, /empty: it links to no record/);
    assert.match((lookupSource(column('f11')) as { problem: string }).problem, /Title is not a LookUp column/);
    assert.match(
      (lookupSource({ ...column('f13'), lookup_app_id: undefined }) as { problem: string }).problem,
      /does not say which app Customer shows/,
    );
  });
});
