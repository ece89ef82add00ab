// Cutting the first rows out of a view's answer: the same rows and metadata as parsing the whole, or
// nothing when the answer is shaped otherwise (then the caller parses the whole).
import * as assert from 'node:assert/strict';
import { firstRowsOf } from '../../../src/webviews/viewQuery/answerSlices';

const metadata = [{ view_id: '1', field_id_in_data: 'f1', field_name: 'A "quoted" [name]', field_description: '', app_id: '1', id: '1', type_name: 'Text Field' }];
const rows = [
  { id: '1', f1: 'plain' },
  { id: '2', f1: 'with } brace and ] bracket' },
  { id: '3', f1: 'escaped \\" quote and \\\\' },
  { id: '4', f1: '"metadata": [ inside a value' },
  { id: '5', f1: '' },
];

describe('firstRowsOf', () => {
  it('reads the first rows and the metadata after them, as JSON.parse does', () => {
    const text = JSON.stringify({ data: rows, metadata });
    assert.deepEqual(firstRowsOf(text, 3), { data: rows.slice(0, 3), metadata });
    assert.deepEqual(firstRowsOf(text, 50), { data: rows, metadata });
  });

  it('reads pretty-printed answers and metadata that comes first', () => {
    assert.deepEqual(firstRowsOf(JSON.stringify({ data: rows, metadata }, null, 2), 2), { data: rows.slice(0, 2), metadata });
    assert.deepEqual(firstRowsOf(JSON.stringify({ metadata, data: rows }), 4), { data: rows.slice(0, 4), metadata });
  });

  it('reads an empty view', () => {
    assert.deepEqual(firstRowsOf(JSON.stringify({ data: [], metadata }), 200), { data: [], metadata });
  });

  it('gives up on answers of another shape', () => {
    assert.equal(firstRowsOf('[1, 2]', 2), undefined);
    assert.equal(firstRowsOf(JSON.stringify({ rows, metadata }), 2), undefined, 'no "data"');
    assert.equal(firstRowsOf(JSON.stringify({ data: rows }), 2), undefined, 'no metadata');
    assert.equal(firstRowsOf('{"data": [{"id": "1", "f1": "trunc', 2), undefined, 'truncated');
    assert.equal(firstRowsOf(JSON.stringify({ data: rows, metadata, more: 1 }).replace('"metadata"', '"metadata"'), 2)?.data.length, 2, 'more keys after metadata are fine');
  });
});
