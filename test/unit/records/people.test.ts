import * as assert from 'node:assert/strict';
import { holdsUser, myEmail, portalKey, usersIn, withUser } from '../../../src/records/people';

describe('people: me and USER cells', () => {
  it('finds my address by the portal base URL, with or without a trailing slash', () => {
    const byPortal = { 'https://portal.example.com/': 'ana@example.com', 'http://127.0.0.1:4000': 'bo@example.com' };
    assert.equal(myEmail(byPortal, 'https://portal.example.com'), 'ana@example.com');
    assert.equal(myEmail(byPortal, 'http://127.0.0.1:4000/'), 'bo@example.com');
    assert.equal(myEmail(byPortal, 'https://other.example.com'), undefined);
    assert.equal(portalKey('https://a.example/base//'), 'https://a.example/base');
  });

  it('reads the addresses of a USER cell, ignoring spaces and empty parts', () => {
    assert.deepEqual(usersIn('ana@example.com, bo@example.com,,'), ['ana@example.com', 'bo@example.com']);
    assert.deepEqual(usersIn(''), []);
    assert.deepEqual(usersIn(undefined), []);
    assert.deepEqual(usersIn(42), []);
  });

  it('matches an address without regard to case, and never a part of one', () => {
    assert.ok(holdsUser('bo@example.com,Ana@Example.com', 'ana@example.com'));
    assert.ok(!holdsUser('hana@example.com', 'ana@example.com'));
    assert.ok(!holdsUser('ana@example.com.au', 'ana@example.com'));
  });

  it('adds me to a USER cell once', () => {
    assert.equal(withUser('', 'ana@example.com'), 'ana@example.com');
    assert.equal(withUser('bo@example.com', 'ana@example.com'), 'bo@example.com,ana@example.com');
    assert.equal(withUser('bo@example.com, ANA@example.com', 'ana@example.com'), 'bo@example.com,ANA@example.com');
  });
});
