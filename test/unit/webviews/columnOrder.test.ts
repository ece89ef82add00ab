// The one column order the catalog, the Query View's filters and the record form share.
import * as assert from 'node:assert/strict';
import type { Column } from '../../../src/api/types';
import { byPosition } from '../../../src/shared/columnOrder';

const column = (key: string, position: string): Column => ({ field_id_in_data: key, field_id: key, position }) as Column;
const keys = (columns: readonly Column[]): string[] => columns.map((entry) => entry.field_id_in_data);

describe('byPosition', () => {
  it('sorts by position as a number, ties in the portal order', () => {
    assert.deepEqual(keys(byPosition([column('a', '3'), column('c', '1'), column('e', '1'), column('f', '10')])), ['c', 'e', 'a', 'f']);
  });

  it('puts an empty, blank or non-number position last, in the portal order', () => {
    const sorted = byPosition([column('b', ''), column('a', '3'), column('d', 'x'), column('g', ' '), column('z', '0'), column('c', '1')]);
    assert.deepEqual(keys(sorted), ['z', 'c', 'a', 'b', 'd', 'g']);
  });

  it('leaves the list it is given alone', () => {
    const given = [column('a', '2'), column('b', '1')];
    byPosition(given);
    assert.deepEqual(keys(given), ['a', 'b']);
  });
});
