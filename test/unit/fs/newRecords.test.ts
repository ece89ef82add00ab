// The documents of records not created yet: numbered per app, never reusing a number that is open, and
// known by their own address (a document restored after a reload included).
import * as assert from 'node:assert/strict';
import { NewRecords } from '../../../src/fs/newRecords';

describe('new-record documents', () => {
  it('numbers each new document, its path saying the number and whether it is a draft, and finds it by portal and path', () => {
    const entries = new NewRecords();
    const first = entries.add({ portalId: 'prod', appId: '101' }, '{}', false, 5);
    const second = entries.add({ portalId: 'prod', appId: '101' }, '{}', true, 6);
    assert.deepEqual([first.n, first.path], [1, '/101/new/new-record-1.json']);
    assert.deepEqual([second.n, second.path, second.asDraft, second.mtime], [2, '/101/new/new-draft-2.json', true, 6]);
    assert.equal(entries.get('prod', '/101/new/new-draft-2.json'), second);
    assert.equal(entries.get('test', '/101/new/new-draft-2.json'), undefined, 'another portal');
    entries.delete('prod', first.path);
    assert.equal(entries.get('prod', first.path), undefined);
    assert.equal(entries.add({ portalId: 'prod', appId: '101' }, '{}', false, 7).n, 3, 'a closed number is not given again');
  });

  it('knows a document it never opened (restored after a reload) by its own address, as a draft when its name says so', () => {
    const entries = new NewRecords();
    const restored = entries.at('prod', '/102/new/new-draft-4.json');
    assert.deepEqual(
      restored,
      { portalId: 'prod', appId: '102', n: 4, path: '/102/new/new-draft-4.json', asDraft: true, mtime: 0 },
      'no text: VS Code holds it',
    );
    assert.equal(entries.at('prod', '/102/new/new-draft-4.json'), restored, 'one entry per address');
    assert.equal(entries.get('prod', '/102/new/new-draft-4.json'), restored);
    assert.equal(entries.at('prod', '/102/new/new-record-4.json')?.asDraft, false);
    assert.equal(entries.at('prod', '/102/7.json'), undefined, 'a record is no new record');
    assert.equal(entries.at('prod', '/102/new/other.json'), undefined);
  });

  it('gives no number that a document still open has, under either name', () => {
    const entries = new NewRecords();
    entries.at('prod', '/101/new/new-record-1.json');
    const open = new Set(['/101/new/new-draft-2.json', '/101/new/new-record-3.json']);
    const added = entries.add({ portalId: 'prod', appId: '101' }, '{}', false, 1, (path) => open.has(path));
    assert.equal(added.path, '/101/new/new-record-4.json');
  });
});
