// Every source of Problems in a record document checked against what the save refuses: anything that
// blocks the save is an Error (ours: the JSON language reports schema violations as Warnings, so the
// schema served to it carries no rule that can fail), and a Warning never stands for a refused save.
import * as assert from 'node:assert/strict';
import type { Column, RecordData } from '../../../src/api/types';
import { documentFields } from '../../../src/fs/documentFields';
import { documentProblems } from '../../../src/fs/documentProblems';
import { fieldValues, parseDocument } from '../../../src/fs/recordText';
import { createBody, updateBody } from '../../../src/records/changes';
import { buildRecordSchema, type JsonSchema } from '../../../src/schema/recordSchema';
import { column, VALUE_CASES } from '../api/valueCases';

const number = { ...column('Auto Number', '15'), field_id_in_data: 'f1', field_name: 'No.' };
const name = { ...column('Text Field', '0'), field_id_in_data: 'f2', field_name: 'Name', required: '1' };
const email = { ...column('Email', '6'), field_id_in_data: 'f3', field_name: 'E-mail' };
const columns: Column[] = [number, name, email];

/** What the save does with this text (src/fs/recordFileSystem.ts: parse, fieldValues, then the body). */
function saveRefuses(text: string, cols: readonly Column[], base: RecordData | undefined): boolean {
  const parsed = parseDocument(text);
  if (!parsed.ok) return true;
  const values = fieldValues(parsed.values);
  if (values.problems.length > 0) return true;
  const body = base ? updateBody({ columns: cols, base, server: base, edited: values.fields }) : createBody(cols, values.fields);
  return body.problems.length > 0;
}

function check(label: string, text: string, cols: readonly Column[], base: RecordData | undefined): void {
  const problems = documentProblems(documentFields(text), cols, { creating: base === undefined, ...(base ? { base } : {}) });
  const refused = saveRefuses(text, cols, base);
  const errors = problems.filter((problem) => problem.severity === 'error');
  assert.equal(
    errors.length > 0,
    refused,
    `${label}: the save ${refused ? 'refuses it, and no Error says so' : 'goes through, yet an Error is shown'} (${JSON.stringify(problems)})`,
  );
}

const doc = (fields: Record<string, unknown>): string => JSON.stringify({ $schema: 'portal://p/1/schema/record.json', ...fields }, null, 2);

/** The keywords with which the JSON language would report a Warning. */
const VALIDATING = ['type', 'pattern', 'additionalProperties', 'enum', 'const', 'required', 'minLength', 'maxLength', 'format'];

function validating(schema: JsonSchema, path = '#'): string[] {
  const own = VALIDATING.filter((keyword) => (schema as Record<string, unknown>)[keyword] !== undefined).map(
    (keyword) => `${path}/${keyword}`,
  );
  return [...own, ...Object.entries(schema.properties ?? {}).flatMap(([key, property]) => validating(property, `${path}/${key}`))];
}

describe('the Problems of a record document against what blocks its save', () => {
  it('an Error for every value the save refuses, none for what it sends, when updating and creating', () => {
    for (const { column: sample, valid, invalid } of VALUE_CASES) {
      for (const value of [...valid, ...invalid]) {
        check(`${sample.type_name} ${JSON.stringify(value)} changed`, doc({ f7: value }), [sample], { f7: '' });
        check(`${sample.type_name} ${JSON.stringify(value)} in a new record`, doc({ f7: value }), [sample], undefined);
      }
    }
  });

  it('a bad e-mail is an Error', () => {
    check('a bad e-mail', doc({ f2: 'Acme', f3: 'ann@example' }), columns, { f2: 'Acme', f3: '' });
    const [problem] = documentProblems(documentFields(doc({ f2: 'Acme', f3: 'ann@example' })), columns, {
      creating: false,
      base: { f2: 'Acme', f3: '' },
    });
    assert.equal(problem?.severity, 'error');
    assert.equal(problem?.field, 'f3');
  });

  it('an Error for a non-string, an unknown field, a required field emptied or left out, a key twice', () => {
    check('a number', doc({ f2: 'Acme', f3: 12 }), columns, { f2: 'Acme', f3: '' });
    check('an unknown field', doc({ f2: 'Acme', f99: 'x' }), columns, { f2: 'Acme' });
    check('an unknown field in a new record', doc({ f2: 'Acme', f99: 'x' }), columns, undefined);
    check('a required field emptied', doc({ f2: '' }), columns, { f2: 'Acme' });
    check('a required field left out of a new record', doc({ f3: 'ann@example.com' }), columns, undefined);
    check('a read-only field changed', doc({ f1: '9', f2: 'Acme' }), columns, { f1: '1', f2: 'Acme' });
    check('a key twice', '{ "f2": "Acme", "f2": "Globex" }', columns, { f2: 'Acme' });
    check('not an object', '["f2"]', columns, { f2: 'Acme' });
  });

  it('no Error for a value the save does not send: unchanged, though the portal holds a bad one', () => {
    check('an unchanged bad e-mail', doc({ f2: 'Acme', f3: 'ann@example' }), columns, { f2: 'Acme', f3: 'ann@example' });
    check('an unchanged unknown field', doc({ f2: 'Acme', f99: 'x' }), columns, { f2: 'Acme', f99: 'x' });
  });

  it('serves the JSON language a schema with nothing that can fail (it would show a Warning)', () => {
    assert.deepEqual(
      validating(
        buildRecordSchema([
          number,
          name,
          email,
          ...VALUE_CASES.map((sample, index) => ({ ...sample.column, field_id_in_data: `f${20 + index}` })),
        ]),
      ),
      [],
    );
  });
});
