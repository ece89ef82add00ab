import * as assert from 'node:assert/strict';
import type { Column } from '../../../src/api/types';
import { matchConvention, startEdit } from '../../../src/work/convention';

function column(field: string, name: string, type: string, type_name: string, choices?: Column['choices']): Column {
  return {
    app_id: '201',
    field_id: field,
    field_id_in_data: `f${field}`,
    field_name: name,
    field_description: '',
    type,
    type_name,
    position: field,
    unique_value: '0',
    ...(choices ? { choices } : {}),
  };
}

const COLUMNS: Column[] = [
  column('31', 'Subject', '0', 'Text'),
  column('35', 'State', '2', 'Choice', [
    { id: '1', name: 'Open', order: '1', color: '#66BB6A' },
    { id: '2', name: 'In progress', order: '2', color: '#29B6F6' },
    { id: '4', name: 'Closed', order: '4', color: '#BDBDBD' },
  ]),
  column('40', 'Assignee', '11', 'User'),
];

describe("work: a team's Start Work convention", () => {
  it('matches columns by name or field_id_in_data and values by name or id', () => {
    const convention = matchConvention(COLUMNS, { statusField: 'state', startStatus: 'IN PROGRESS', doneStatus: '4', userField: 'f40' });
    assert.deepEqual(convention.problems, []);
    assert.equal(convention.status?.column.field_id_in_data, 'f35');
    assert.equal(convention.status?.start?.id, '2');
    assert.equal(convention.status?.done?.name, 'Closed');
    assert.equal(convention.user?.field_id_in_data, 'f40');
  });

  it('says what does not match, and never guesses', () => {
    const convention = matchConvention(COLUMNS, { statusField: 'Subject', userField: 'Owner' });
    assert.deepEqual(convention.problems, [
      '"Subject" is not a Choice column (startWork.statusField)',
      'the app has no column "Owner" (startWork.userField)',
    ]);
    assert.equal(convention.status, undefined);
    assert.deepEqual(matchConvention(COLUMNS, { statusField: 'State', startStatus: 'Doing' }).problems, [
      '"State" has no choice "Doing" (startWork.startStatus)',
    ]);
  });

  it('changes only what differs: the status, and me added to the USER column once', () => {
    const convention = matchConvention(COLUMNS, { statusField: 'State', startStatus: 'In progress', userField: 'Assignee' });
    assert.deepEqual(startEdit({ f35: '1', f40: 'bo@example.com' }, convention, 'ana@example.com'), {
      f35: '2',
      f40: 'bo@example.com,ana@example.com',
    });
    assert.deepEqual(startEdit({ f35: '2', f40: 'Ana@Example.com' }, convention, 'ana@example.com'), {});
    assert.deepEqual(startEdit({ f35: '1' }, convention, undefined), { f35: '2' });
  });
});
