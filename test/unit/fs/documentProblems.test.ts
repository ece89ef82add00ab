import * as assert from 'node:assert/strict';
import type { Column } from '../../../src/api/types';
import { documentFields } from '../../../src/fs/documentFields';
import { documentProblems } from '../../../src/fs/documentProblems';
import { matchesFieldPattern } from '../../../src/schema/fieldPatterns';
import { column, VALUE_CASES } from '../api/valueCases';

function text(fields: Record<string, unknown>): string {
  return JSON.stringify({ $schema: 'portal://p/1/schema/record.json', ...fields }, null, 2);
}

const number = { ...column('Auto Number', '15'), field_id_in_data: 'f1', field_name: 'No.' };
const name = { ...column('Text Field', '0'), field_id_in_data: 'f2', field_name: 'Name', required: '1' };
const since = { ...column('Date', '4'), field_id_in_data: 'f9', field_name: 'Customer since' };
const columns: Column[] = [number, name, since];

describe('the problems of a record document', () => {
  it('reports each invalid value exactly once, as an Error: by its shape or by the formats table', () => {
    for (const { column: sample, invalid } of VALUE_CASES) {
      for (const value of invalid) {
        const byPattern = !matchesFieldPattern(sample, false, value);
        const problems = documentProblems(documentFields(text({ f7: value })), [sample], { creating: false, base: {} });
        assert.deepEqual(
          problems.map((problem) => problem.severity),
          ['error'],
          `${sample.type_name} ${JSON.stringify(value)}: ${byPattern ? 'the pattern' : 'formats'} reports it (got ${JSON.stringify(problems)})`,
        );
        if (byPattern) assert.match(problems[0].message, /expected/);
      }
    }
  });

  it('says nothing about valid values', () => {
    for (const { column: sample, valid } of VALUE_CASES) {
      for (const value of valid)
        assert.deepEqual(
          documentProblems(documentFields(text({ f7: value })), [sample], { creating: false, base: {} }),
          [],
          `${sample.type_name} ${value}`,
        );
    }
  });

  it('points at the value and names the field: 31-02-2026 is no date', () => {
    const document = text({ f1: '1001', f2: 'Acme', f9: '31-02-2026' });
    const [problem, ...rest] = documentProblems(documentFields(document), columns, {
      creating: false,
      base: { f1: '1001', f2: 'Acme', f9: '' },
    });
    assert.equal(rest.length, 0);
    assert.equal(problem.field, 'f9');
    assert.equal(document.slice(problem.offset, problem.offset + problem.length), '"31-02-2026"');
    assert.match(problem.message, /^Customer since: not a real date: 31-02-2026/);
    assert.equal(problem.severity, 'error');
  });

  it('refuses a read-only field changed from the copy read, and says what to put back', () => {
    const problems = documentProblems(documentFields(text({ f1: '9999', f2: 'Acme' })), columns, {
      creating: false,
      base: { f1: '1001', f2: 'Acme' },
    });
    assert.deepEqual(
      problems.map((problem) => problem.message),
      ['No. is read-only (Auto Number): a change is never sent; put back "1001".'],
    );
    assert.deepEqual(
      documentProblems(documentFields(text({ f1: '1001' })), columns, { creating: false, base: { f1: '1001' } }),
      [],
      'unchanged is fine',
    );
  });

  it('in a new record: read-only fields stay empty, required fields left out are errors', () => {
    const problems = documentProblems(documentFields(text({ f1: '5' })), columns, { creating: true });
    assert.deepEqual(
      problems.map((problem) => [problem.field, problem.severity, problem.message]),
      [
        ['f1', 'error', 'No. is read-only (Auto Number): the portal fills it; leave it empty.'],
        ['f2', 'error', 'f2 (Name) is required: add it.'],
      ],
    );
  });

  it('reports unknown keys and non-strings, and leaves half-typed documents to the JSON language', () => {
    assert.deepEqual(
      documentProblems(documentFields(text({ f99: 'x', f9: 12 })), columns, { creating: false, base: {} }).map((problem) => [
        problem.field,
        problem.severity,
      ]),
      [
        ['f99', 'error'],
        ['f9', 'error'],
      ],
    );
    assert.deepEqual(
      documentProblems(documentFields('{ "f9": "31-02-2026", "f2": '), columns, { creating: false, base: {} }).map(
        (problem) => problem.field,
      ),
      ['f9'],
    );
    assert.deepEqual(documentProblems(documentFields('not json'), columns, { creating: false }), []);
  });
});
