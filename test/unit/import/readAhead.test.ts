// The runner's read-ahead: how many rows a group of attempt lines carries (one write and one sync each),
// and that a row reaches the workers only once its group is prepared.
import * as assert from 'node:assert/strict';
import type { Operation } from '../../../src/import/plan';
import { groupSize, readAhead } from '../../../src/import/readAhead';

function creates(count: number): AsyncIterator<Operation> {
  let row = 0;
  return {
    next: async () =>
      row < count
        ? { done: false, value: { kind: 'create', row: (row += 1), data: { f1: `row ${row}` } } }
        : { done: true, value: undefined },
  };
}

describe('import: reading rows ahead of the requests', () => {
  it('sizes a group to 50 ms of the rate the rows are taken at, from 48 to 240 rows per request at once', () => {
    assert.equal(groupSize(4, 0, 0), 192, 'no rate yet: the smallest group');
    assert.equal(groupSize(4, 17, 1), 192, 'a portal far away: the smallest group, few rows to look for after a crash');
    assert.equal(groupSize(4, 14_000, 1), 700, '14,000 rows/s: 700 rows, a sync every 50 ms');
    assert.equal(groupSize(4, 100_000, 1), 960, 'the largest group');
    assert.equal(groupSize(1, 14_000, 1), 240, 'one request at once: at most 240 rows');
  });

  it('offers a row only once its group is prepared, the first group of 48 per request at once in one turn', async () => {
    const prepared: number[] = [];
    const ahead = readAhead(creates(1000), 2, { prepare: (operation) => prepared.push(operation.row), stopped: () => false });
    const first = ahead.take();
    const operation = first instanceof Promise ? await first : first;
    assert.equal(operation?.row, 1);
    assert.equal(prepared.length, 96, 'the first group, prepared before its first row was taken');
    const taken: number[] = [operation?.row ?? 0];
    for (;;) {
      const next = ahead.take();
      const value = next instanceof Promise ? await next : next;
      if (!value) break;
      assert.ok(prepared.includes(value.row), `row ${value.row} was taken before it was prepared`);
      taken.push(value.row);
    }
    await ahead.settled();
    assert.deepEqual(
      taken,
      Array.from({ length: 1000 }, (_, index) => index + 1),
      'every row once, in order',
    );
    assert.deepEqual(prepared, taken, 'every row prepared once, in order');
  });
});
