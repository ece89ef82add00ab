import * as assert from 'node:assert/strict';
import type { Column } from '../../../src/api/types';
import { fieldPattern, matchesFieldPattern } from '../../../src/schema/fieldPatterns';
import { buildRecordSchema, fieldHoverMarkdown, patternMessage, type JsonSchema } from '../../../src/schema/recordSchema';
import { readableText } from '../support/markdownText';
import { choice, column, multiChoice, VALUE_CASES } from '../api/valueCases';

function keyed(key: string, base: Column, extra: Partial<Column> = {}): Column {
  return { ...base, field_id_in_data: key, field_id: key.slice(1), ...extra };
}

const orderNo = keyed('f10', column('Auto Number', '15'), { field_name: 'Order no.' });
const title = keyed('f11', column('Text Field', '0'), { field_name: 'Title', required: '1', field_description: 'What was ordered' });
const customer = keyed('f13', column('LookUp', '16'), { field_name: 'Customer' });
const orderDate = keyed('f15', column('Date', '4'), { field_name: 'Order date', required: '1' });
const status = keyed('f19', choice, { field_name: 'Status' });
const tags = keyed('f20', multiChoice, { field_name: 'Tags' });
const columns = [orderNo, title, customer, orderDate, status, tags];

function property(schema: JsonSchema, key: string): JsonSchema {
  const found = schema.properties?.[key];
  assert.ok(found, `the schema has ${key}`);
  return found;
}

/** The JSON language compiles patterns in Unicode mode; so do these tests. */
function accepts(pattern: string | undefined, value: string): boolean {
  return pattern === undefined || new RegExp(pattern, 'u').test(value);
}

describe("the JSON Schema of an app's records", () => {
  const schema = buildRecordSchema(columns, { appName: 'Orders' });

  it('lists the fields keyed by field_id_in_data and $schema; writable ones complete with their quotes', () => {
    assert.equal(schema.title, 'Record of Orders');
    assert.deepEqual(Object.keys(schema.properties ?? {}), ['$schema', 'f10', 'f11', 'f13', 'f15', 'f19', 'f20']);
    assert.equal(property(schema, '$schema').doNotSuggest, true);
    for (const key of ['f11', 'f15']) assert.equal(property(schema, key).default, '');
  });

  it('names each field for completion and hover: title, detail, kind, format and description', () => {
    const f11 = property(schema, 'f11');
    assert.equal(f11.title, 'Title');
    assert.equal(f11.completionDetail, 'Title');
    assert.match(f11.markdownDescription ?? '', /\*\*Title\*\* · Text Field · `f11` · required/);
    assert.match(f11.markdownDescription ?? '', /Format\\: any text/, 'punctuation escaped');
    assert.match(f11.markdownDescription ?? '', /What was ordered/);
    assert.match(f11.description ?? '', /^Title \(Text Field, required\)\nFormat: any text\nWhat was ordered$/);
    assert.match(property(schema, 'f15').description ?? '', /Format: DD-MM-YYYY/);
    // Completion lists the fields in column position order.
    assert.deepEqual(
      ['f10', 'f11', 'f13', 'f15'].map((key) => property(schema, key).suggestSortText),
      ['0000', '0001', '0002', '0003'],
    );
  });

  it('marks read-only fields and keeps them out of completion', () => {
    for (const key of ['f10', 'f13']) {
      const field = property(schema, key);
      assert.equal(field.readOnly, true);
      assert.equal(field.doNotSuggest, true);
      assert.match(field.description ?? '', /read-only: shown, never sent/);
    }
  });

  it('offers single choices by name, inserting their ids, with "" to clear; the pattern checks the id', () => {
    const pattern = (col: Column): string | undefined => fieldPattern(col, col.required === '1');
    const f19 = property(schema, 'f19');
    assert.deepEqual(
      f19.defaultSnippets?.map((snippet) => [snippet.label, snippet.body, snippet.description]),
      [
        ['Open', '1', 'choice id 1 · #ff0000'],
        ['Closed', '2', 'choice id 2 · #00ff00'],
        ['(none)', '', 'No choice: clears the field'],
      ],
    );
    for (const value of ['', '1', '2']) assert.ok(accepts(pattern(status), value), value);
    for (const value of ['3', 'Open', '1,2', ' 1']) assert.ok(!accepts(pattern(status), value), value);
    assert.match(patternMessage(status, false), /^Status: expected a choice id: 1 Open, 2 Closed\. Or "" to clear it\.$/);
    const required = property(buildRecordSchema([keyed('f19', choice, { required: '1' })]), 'f19');
    assert.deepEqual(
      required.defaultSnippets?.map((snippet) => snippet.body),
      ['1', '2'],
      'a required choice cannot be cleared',
    );
    assert.ok(!accepts(pattern(keyed('f19', choice, { required: '1' })), ''));
  });

  it('offers multi-select choices by name, inserting the id, and checks the comma-separated list', () => {
    const f20 = property(schema, 'f20');
    assert.deepEqual(
      f20.defaultSnippets?.map((snippet) => [snippet.label, snippet.body]),
      [
        ['Open', '1'],
        ['Closed', '2'],
        ['(none)', ''],
      ],
    );
    for (const value of ['', '1', '1,2', '2,1']) assert.ok(accepts(fieldPattern(tags, false), value), value);
    for (const value of ['3', '1, 2', '1,', 'Open']) assert.ok(!accepts(fieldPattern(tags, false), value), value);
  });

  it('gives every format a pattern with a message that names the field and the format', () => {
    assert.equal(patternMessage(orderDate, true), 'Order date: expected DD-MM-YYYY. Order date is required.');
    assert.ok(!accepts(fieldPattern(orderDate, true), ''), 'a required field cannot be emptied');
    const optional = keyed('f15', column('Date', '4'), { field_name: 'Due' });
    assert.ok(accepts(fieldPattern(optional, false), ''), 'an optional field can be cleared');
    assert.match(patternMessage(optional, false), /Or "" to clear it/);
    assert.ok(!accepts(fieldPattern(title, true), ''), 'a required text field cannot be emptied');
    assert.equal(fieldPattern(column('Text Field', '0'), false), undefined, 'an optional text field takes anything');
  });

  it('never refuses a value the portal accepts, and compiles in Unicode mode', () => {
    for (const { column: sample, valid } of VALUE_CASES) {
      for (const required of [false, true]) {
        const pattern = fieldPattern(sample, required);
        if (pattern !== undefined) assert.doesNotThrow(() => new RegExp(pattern, 'u'), `${sample.type_name}: ${pattern}`);
        for (const value of valid)
          assert.ok(matchesFieldPattern(sample, required, value), `${sample.type_name} accepts ${JSON.stringify(value)}`);
      }
    }
  });

  it('escapes choice ids that are not plain digits', () => {
    const odd = {
      ...choice,
      choices: [
        { id: 'a.b', name: 'Dotted', color: '', order: '1' },
        { id: 'x-y', name: 'Dashed', color: '', order: '2' },
      ],
    };
    const multi = { ...odd, choice_type: '2' };
    assert.ok(matchesFieldPattern(multi, false, 'a.b,x-y'));
    assert.ok(!matchesFieldPattern(multi, false, 'axb'));
  });

  it("shows a field's name and description in its hover as they are, whatever Markdown they hold", () => {
    const notes = keyed('f30', column('Multiline', '1'), {
      field_name: '[Approved](https://e) *notes*',
      field_description: 'Kept <!-- hidden --> here\nsecond `line` & <b>more</b>',
    });
    const shown = readableText(fieldHoverMarkdown(notes));
    assert.ok(shown.includes('[Approved](https://e) *notes*'), shown);
    assert.ok(shown.includes('Kept <!-- hidden --> here\nsecond `line` & <b>more</b>'), shown);
    assert.ok(shown.includes('f30'), shown);
  });
});
