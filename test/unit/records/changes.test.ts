import * as assert from 'node:assert/strict';
import type { Column } from '../../../src/api/types';
import { fieldValues } from '../../../src/fs/recordText';
import { createBody, describeProblems, updateBody } from '../../../src/records/changes';
import { choice, column } from '../api/valueCases';

const columns: Column[] = [
  { ...column('Auto Number', '15'), field_id_in_data: 'f10', field_name: 'Order no.' },
  { ...column('Text Field', '0'), field_id_in_data: 'f11', field_name: 'Title', required: '1' },
  { ...column('LookUp', '16'), field_id_in_data: 'f13', field_name: 'Customer' },
  { ...column('Date', '4'), field_id_in_data: 'f15', field_name: 'Order date' },
  { ...choice, field_id_in_data: 'f19', field_name: 'Status' },
];
const read = { f10: '5001', f11: 'Chairs', f13: 'Acme', f15: '02-01-2026', f19: '1' };

describe('what a save sends', () => {
  it('sends only the fields changed against the copy read', () => {
    const body = updateBody({ columns, base: read, server: read, edited: { ...read, f11: 'Desks', f19: '2' } });
    assert.deepEqual(body, { fields: { f11: 'Desks', f19: '2' }, problems: [] });
  });

  it('sends nothing when nothing changed, and does not clear a field removed from the document', () => {
    assert.deepEqual(updateBody({ columns, base: read, server: read, edited: { ...read } }).fields, {});
    assert.deepEqual(updateBody({ columns, base: read, server: read, edited: { f11: 'Chairs' } }).fields, {});
    assert.deepEqual(updateBody({ columns, base: read, server: read, edited: { ...read, f15: '' } }).fields, { f15: '' }, '"" clears');
  });

  it('does not send again what the portal already holds (someone made the same change)', () => {
    const server = { ...read, f11: 'Desks', f15: '03-01-2026' };
    assert.deepEqual(updateBody({ columns, base: read, server, edited: { ...read, f11: 'Desks', f19: '3' } }).fields, { f19: '3' });
  });

  it('never sends read-only fields: unchanged they are ignored, changed they are refused', () => {
    const changed = updateBody({ columns, base: read, server: read, edited: { ...read, f13: 'Globex', f11: 'Desks' } });
    assert.deepEqual(changed.problems, [
      { field: 'f13', message: 'read-only (LookUp): it cannot be changed through the API; put back "Acme"' },
    ]);
    assert.equal(
      describeProblems(columns, changed.problems),
      'f13 (Customer): read-only (LookUp): it cannot be changed through the API; put back "Acme". Nothing was sent.',
    );
  });

  it('refuses unknown fields, bad values and emptied required fields, naming each field', () => {
    const body = updateBody({ columns, base: read, server: read, edited: { ...read, f99: 'x', f15: '31-02-2026', f11: '', f19: '9' } });
    assert.deepEqual(
      body.problems.map((problem) => problem.field),
      ['f99', 'f15', 'f19', 'f11'],
    );
    assert.equal(
      describeProblems(columns, body.problems),
      'f99: unknown field: the app has no column with this field_id_in_data (and 3 more: see the Problems panel). Nothing was sent.',
    );
    assert.match(body.problems[1].message, /not a real date: 31-02-2026/);
    assert.equal(body.problems[3].message, 'required: Title must have a value');
  });

  it('keeps a key that was in the copy read though no column has it, while unchanged', () => {
    assert.deepEqual(updateBody({ columns, base: { ...read, old: 'x' }, server: read, edited: { ...read, old: 'x' } }).problems, []);
  });

  it('takes strings only, and $schema is no field', () => {
    const values = fieldValues({ $schema: 'portal://p/102/schema/record.json', f11: 'Desks', f18: 12 });
    assert.deepEqual(values.fields, { f11: 'Desks' });
    assert.deepEqual(values.problems, [
      { field: 'f18', message: 'must be a string in quotes, like "12" (the portal takes every value as text)' },
    ]);
  });

  it('creates with every writable field that has a value; read-only ones must stay empty', () => {
    assert.deepEqual(createBody(columns, { f10: '', f11: 'Desks', f15: '', f19: '2' }), {
      fields: { f11: 'Desks', f19: '2' },
      problems: [],
    });
    assert.deepEqual(
      createBody(columns, { f10: '7', f15: '' }).problems.map((problem) => `${problem.field}: ${problem.message}`),
      ['f10: read-only (Auto Number): the portal fills it; leave it out', 'f11: required: Title must have a value'],
    );
  });
});
