// The operations the runner reads: rows planned in order as it asks for them, finished rows left out,
// and the source closed when the runner stops early. (Runs against the portal: importRun.test.ts.)
import * as assert from 'node:assert/strict';
import { PlannedRows, RowPlanner } from '../../../src/import/plan';
import type { SourceRow } from '../../../src/import/sourceFile';
import { column } from '../api/valueCases';

const title = column('Text Field', '0', { field_id_in_data: 'f1', field_name: 'Title' });
const settings = {
  appId: '1',
  mode: 'create' as const,
  matchField: 'f1',
  mapping: { columns: [{ source: 'Title', target: { kind: 'field' as const, field: 'f1' } }] },
};

/** Rows 2.. with the given titles, as an iterator that counts its return() calls. */
function rowsOf(titles: string[]): AsyncIterableIterator<SourceRow> & { returned: number } {
  let next = 0;
  const rows = {
    returned: 0,
    async next(): Promise<IteratorResult<SourceRow, undefined>> {
      await new Promise((resolve) => setImmediate(resolve)); // a row arrives later, as from a file
      if (next >= titles.length) return { value: undefined, done: true };
      next += 1;
      return { value: { row: next + 1, values: { Title: titles[next - 1] } }, done: false };
    },
    async return(): Promise<IteratorResult<SourceRow, undefined>> {
      rows.returned += 1;
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]() {
      return rows;
    },
  };
  return rows;
}

describe('import: planned rows', () => {
  it('plans rows in order, leaves out the rows skip takes, and serves overlapping calls in turn', async () => {
    const titles = ['a', 'b', 'a', 'c', 'd', 'b', 'e'];
    const skipped = new Set([3, 6]); // rows 3 and 6 ('b' and 'c') an earlier run finished
    const planned = new PlannedRows(rowsOf(titles), new RowPlanner(settings, [title], undefined), (row) => skipped.has(row.row));
    const got = await Promise.all(Array.from({ length: 7 }, () => planned.next()));
    // As a generator's: each call gets the next operation, the calls after the last one the end.
    assert.deepEqual(
      got.map((next) => (next.done ? 'done' : [next.value.row, next.value.kind])),
      [[2, 'create'], [4, 'invalid'], [5, 'create'], [7, 'create'], [8, 'create'], 'done', 'done'],
    );
    assert.match(JSON.stringify(got[1].value), /row 2 has the same value/);
  });

  it('closes the source when the runner stops early', async () => {
    const rows = rowsOf(['a', 'b', 'c']);
    const planned = new PlannedRows(rows, new RowPlanner(settings, [title], undefined), () => false);
    for await (const operation of planned) {
      assert.equal(operation.row, 2);
      break;
    }
    assert.equal(rows.returned, 1);
  });
});
