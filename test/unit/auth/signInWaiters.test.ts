// Which waiting sign-in an answer that came back through the URI handler goes to: only the one whose state
// it carries. Any web page can open the extension's /auth link, so an answer naming no waiting sign-in
// (a foreign state, or none at all, e.g. ?error=access_denied&error_description=<any text>) is dropped.
import * as assert from 'node:assert/strict';
import { SignInWaiters } from '../../../src/auth/signInWaiters';

describe('sign-in waiters of the URI handler', () => {
  function twoWaiting() {
    const waiters = new SignInWaiters();
    const got: Record<string, string[]> = { s1: [], s2: [] };
    waiters.add('s1', (url) => got.s1?.push(url));
    waiters.add('s2', (url) => got.s2?.push(url));
    return { waiters, got };
  }

  it('an answer goes to the sign-in whose state it carries, in the query or the fragment', () => {
    const { waiters, got } = twoWaiting();
    assert.equal(waiters.deliver('code=c2&state=s2', ''), true);
    assert.equal(waiters.deliver('', 'code=c1&state=s1'), true);
    assert.deepEqual(got.s2, ['http://uri-handler.invalid/auth?code=c2&state=s2']);
    assert.deepEqual(got.s1, ['http://uri-handler.invalid/auth?#code=c1&state=s1']);
  });

  it('an answer with a foreign state or none is dropped, and the sign-ins keep waiting', () => {
    const { waiters, got } = twoWaiting();
    assert.equal(waiters.deliver('error=access_denied&error_description=Call%20evil.example', ''), false);
    assert.equal(waiters.deliver('error=access_denied&state=forged', ''), false);
    assert.deepEqual(got, { s1: [], s2: [] });
    assert.equal(waiters.deliver('code=c1&state=s1', ''), true);
    assert.equal(got.s1?.length, 1);
  });
});
