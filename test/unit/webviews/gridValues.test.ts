// Sorting by kind, as the grid and the export do.
import * as assert from 'node:assert/strict';
import type { ColumnKind } from '../../../src/api/columnKinds';
import { choiceText, sortOrder } from '../../../src/grid/values';

function sorted(values: string[], kind: ColumnKind, direction: 'ascending' | 'descending' = 'ascending'): string[] {
  return [...sortOrder(values.length, (index) => values[index], kind, direction)].map((index) => values[index]);
}

describe('sorting grid values', () => {
  it('sorts numbers, amounts and durations by value, empty and unreadable last', () => {
    assert.deepEqual(sorted(['10', '9', '', '-1.5', '100'], 'number'), ['-1.5', '9', '10', '100', '']);
    assert.deepEqual(sorted(['10', '9', '', '-1.5', '100'], 'currency', 'descending'), ['100', '10', '9', '-1.5', '']);
    assert.deepEqual(sorted(['10:00', '02:30', 'x', '00:05'], 'duration'), ['00:05', '02:30', '10:00', 'x']);
  });

  it('sorts dates and date-times as dates, not as text', () => {
    assert.deepEqual(sorted(['02-01-2025', '31-12-2024', '01-02-2025'], 'date'), ['31-12-2024', '02-01-2025', '01-02-2025']);
    assert.deepEqual(sorted(['01-01-2025 10:00', '01-01-2025 09:59', '31-12-2024 23:00'], 'datetime'), [
      '31-12-2024 23:00',
      '01-01-2025 09:59',
      '01-01-2025 10:00',
    ]);
  });

  it('sorts text without regard to case, numbers in it by value, and keeps ties in order', () => {
    assert.deepEqual(sorted(['beta', 'Alpha', 'item 10', 'item 9', '', 'alpha'], 'text'), [
      'Alpha',
      'alpha',
      'beta',
      'item 9',
      'item 10',
      '',
    ]);
  });

  it('shows choice ids as names', () => {
    const choices = [
      { id: '1', name: 'Urgent' },
      { id: '4', name: 'Fragile' },
    ];
    assert.equal(choiceText(choices, '1,4'), 'Urgent, Fragile');
    assert.equal(choiceText(choices, '7'), '7');
    assert.equal(choiceText(undefined, '1'), '1');
  });

  it('sorts 100,000 values', () => {
    const values = Array.from({ length: 100_000 }, (_, index) => String((index * 7919) % 100_000));
    const order = sortOrder(values.length, (index) => values[index], 'number', 'ascending');
    assert.equal(values[order[0]], '0');
    assert.equal(values[order[99_999]], '99999');
  });
});
