// The documents of records not created yet: numbered per app, never reusing a number that is open.
import * as assert from 'node:assert/strict';
import { NewRecords } from '../../../src/fs/newRecords';

describe('new-record documents', () => {
  it('numbers each new document, its path saying the number, and finds it by portal and path', () => {
    const entries = new NewRecords();
    const first = entries.add({ portalId: 'prod', appId: '101' }, '{}', false, 5);
    const second = entries.add({ portalId: 'prod', appId: '101' }, '{}', true, 6);
    assert.deepEqual([first.n, first.path], [1, '/101/new/new-record-1.json']);
    assert.deepEqual([second.n, second.path, second.asDraft, second.mtime], [2, '/101/new/new-record-2.json', true, 6]);
    assert.equal(entries.get('prod', '/101/new/new-record-2.json'), second);
    assert.equal(entries.get('test', '/101/new/new-record-2.json'), undefined, 'another portal');
    entries.delete('prod', first.path);
    assert.equal(entries.get('prod', first.path), undefined);
    assert.equal(entries.add({ portalId: 'prod', appId: '101' }, '{}', false, 7).n, 3, 'a closed number is not given again');
  });
});
