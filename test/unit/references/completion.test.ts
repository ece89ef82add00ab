import * as assert from 'node:assert/strict';
import { RecentRecords, typedAfterPrefix } from '../../../src/references/completion';
import type { ReferencePattern } from '../../../src/references/patterns';

const TCK: ReferencePattern = { portalId: 'p', appId: '201', template: 'TCK-{id}' };
const HASH: ReferencePattern = { portalId: 'p', appId: '102', template: '#{id}' };

describe('where a reference is being typed', () => {
  it('finds the prefix before the cursor and the word typed after it', () => {
    assert.deepEqual(typedAfterPrefix('Fixes TCK-', [TCK, HASH]), [{ pattern: TCK, start: 6, typed: '' }]);
    assert.deepEqual(typedAfterPrefix('Fixes TCK-log', [TCK, HASH]), [{ pattern: TCK, start: 6, typed: 'log' }]);
    assert.deepEqual(typedAfterPrefix('#12', [TCK, HASH]), [{ pattern: HASH, start: 0, typed: '12' }]);
  });

  it('takes no prefix that touches a word, and nothing without a prefix', () => {
    assert.deepEqual(typedAfterPrefix('XTCK-1', [TCK]), []);
    assert.deepEqual(typedAfterPrefix('a#', [HASH]), []);
    assert.deepEqual(typedAfterPrefix('Fixes TCK', [TCK]), []);
  });

  it('keeps the records opened lately, newest first, once each, per app', () => {
    const recent = new RecentRecords();
    for (const recordId of ['1', '2', '1']) recent.opened({ portalId: 'p', appId: '201', recordId });
    recent.opened({ portalId: 'p', appId: '102', recordId: '9' });
    assert.deepEqual(
      recent.of('p', '201').map((record) => record.recordId),
      ['1', '2'],
    );
  });
});
