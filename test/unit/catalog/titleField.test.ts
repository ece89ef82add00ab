import * as assert from 'node:assert/strict';
import type { Column } from '../../../src/api/types';
import { chooseTitleField, defaultTitleField, displayValue, recordTitle, TITLE_MAX_LENGTH } from '../../../src/catalog/titleField';

function column(key: string, typeName: string, extra: Partial<Column> = {}): Column {
  return {
    app_id: '1',
    field_id: key.slice(1),
    field_id_in_data: key,
    field_name: `Name of ${key}`,
    field_description: '',
    type: '',
    type_name: typeName,
    position: key.slice(1),
    unique_value: '0',
    ...extra,
  };
}

const number = column('f1', 'Auto Number');
const subject = column('f2', 'Text Field');
const state = column('f3', 'Choice', {
  choices: [
    { id: '1', name: 'Open', color: '#00ff00', order: '1' },
    { id: '2', name: 'Closed', color: '#ff0000', order: '2' },
  ],
});
const body = column('f4', 'Multiline');
const other = column('f5', 'Text Field');
const columns = [number, subject, state, body, other];

describe('the title field of records', () => {
  it('defaults to the first text column in position order', () => {
    assert.equal(defaultTitleField(columns), subject);
    assert.equal(chooseTitleField(columns), subject);
  });

  it('takes the chosen column while the app has it', () => {
    assert.equal(chooseTitleField(columns, 'f3'), state);
    assert.equal(chooseTitleField(columns, 'f99'), subject);
  });

  it('keeps to the columns the view shows', () => {
    assert.equal(chooseTitleField(columns, undefined, new Set(['f1', 'f5'])), other);
    assert.equal(chooseTitleField(columns, 'f2', new Set(['f1', 'f3'])), number, 'no text column shown: the first shown');
    assert.equal(chooseTitleField(columns, 'f3', new Set(['f3', 'f2'])), state);
    assert.equal(chooseTitleField(columns, undefined, new Set(['l9'])), undefined);
    assert.equal(chooseTitleField([]), undefined);
  });

  it('shows values as one line of text', () => {
    assert.equal(displayValue(state, '2'), 'Closed');
    assert.equal(displayValue(state, '1,2,9'), 'Open, Closed, 9');
    assert.equal(displayValue(body, '<p>Line one</p>\n<p>two</p>'), 'Line one two');
    assert.equal(displayValue(subject, '  <b>kept</b>  as\ttyped '), '<b>kept</b> as typed');
    const long = displayValue(subject, 'x'.repeat(500));
    assert.equal(long.length, TITLE_MAX_LENGTH);
    assert.ok(long.endsWith('…'));
  });

  it('names a record by its title, or says what is missing', () => {
    assert.equal(recordTitle('7', { f2: 'Printer on fire' }, subject), 'Printer on fire');
    assert.equal(recordTitle('7', { f2: '' }, subject), '(no Name of f2)');
    assert.equal(recordTitle('7', {}, undefined), 'Record 7');
  });
});
