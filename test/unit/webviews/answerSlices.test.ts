// Cutting the first rows out of a view's answer: the same rows and metadata as parsing the whole, or
// nothing when the answer is shaped otherwise (then the caller parses the whole).
import * as assert from 'node:assert/strict';
import { answerSlices } from '../../../src/webviews/viewQuery/answerSlices';

/** The first `count` rows and the metadata, as the session takes them; undefined when not in slices. */
function firstRowsOf(text: string, count: number): { data: unknown[]; metadata: unknown[] } | undefined {
  const answer = answerSlices(text);
  if (!answer) return undefined;
  try {
    const first = answer.slices(count, count).next();
    return { data: first.done ? [] : first.value, metadata: answer.metadata };
  } catch {
    return undefined;
  }
}

const metadata = [{ view_id: '1', field_id_in_data: 'f1', field_name: 'A "quoted" [name]', field_description: '', app_id: '1', id: '1', type_name: 'Text Field' }];
const rows = [
  { id: '1', f1: 'plain' },
  { id: '2', f1: 'with } brace and ] bracket' },
  { id: '3', f1: 'escaped \\" quote and \\\\' },
  { id: '4', f1: '"metadata": [ inside a value' },
  { id: '5', f1: '' },
];

describe('answerSlices', () => {
  it('cuts the rows into a first slice and slices of a size, as JSON.parse reads them', () => {
    const answer = answerSlices(JSON.stringify({ data: rows, metadata }));
    assert.deepEqual([...(answer?.slices(2, 2) ?? [])], [rows.slice(0, 2), rows.slice(2, 4), rows.slice(4)]);
    assert.deepEqual([...(answer?.slices(1, 10) ?? [])], [rows.slice(0, 1), rows.slice(1)]);
  });

  it('throws SyntaxError for rows that do not parse', () => {
    const answer = answerSlices('{"data": [{"id": "1"}, {"id": 2x}], "metadata": []}');
    assert.ok(answer);
    assert.throws(() => [...answer.slices(1, 1)], SyntaxError);
  });

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
