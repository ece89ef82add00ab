// The notification's sentence for one of the user's records a watched read found changed.
import * as assert from 'node:assert/strict';
import { changeSummary } from '../../../src/watch/summary';

const columns = [
  { field_id_in_data: 'f1', field_name: 'Title' },
  { field_id_in_data: 'f2', field_name: 'Status' },
  { field_id_in_data: 'f3', field_name: 'Notes' },
  { field_id_in_data: 'f4', field_name: 'Owner' },
  { field_id_in_data: 'f5', field_name: 'Due' },
];

describe('watch: the change summary', () => {
  it('names the field that moved, as the user reads it', () => {
    const names: Record<string, string> = { '1': 'Open', '2': 'Done' };
    const text = changeSummary('TCK-1042', { f1: 'a', f2: '1' }, { f1: 'a', f2: '2' }, columns, (column, value) =>
      column.field_id_in_data === 'f2' ? (names[value] ?? value) : value,
    );
    assert.equal(text, 'TCK-1042 changed: Status Open → Done');
  });

  it('names three fields at most, shortens long values and says empty', () => {
    const text = changeSummary(
      'R',
      { f1: 'a', f2: 'b', f3: '', f4: 'x', f5: '1' },
      { f1: 'A', f2: 'B', f3: 'n'.repeat(60), f4: 'y', f5: '2' },
      columns,
    );
    assert.equal(text, `R changed: Title a → A, Status b → B, Notes (empty) → ${'n'.repeat(39)}… and 2 more`);
  });

  it('says only "changed" when the earlier copy is not known', () => {
    assert.equal(changeSummary('Record 7', undefined, { f1: 'a' }, columns), 'Record 7 changed');
  });
});
