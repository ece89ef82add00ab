import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { PortalError } from '../../../src/api/errors';
import { authorizeUrl, createPkce, createState, parseRedirect } from '../../../src/api/oauth';

function refusedWith(action: () => unknown, code: string, kind: string): void {
  assert.throws(action, (error: unknown) => {
    assert.ok(error instanceof PortalError);
    assert.equal(error.code, code);
    assert.equal(error.kind, kind);
    return true;
  });
}

describe('oauth (no network)', () => {
  it('creates unguessable states and RFC 7636 PKCE pairs', () => {
    const states = new Set(Array.from({ length: 50 }, createState));
    assert.equal(states.size, 50);
    for (const state of states) assert.match(state, /^[A-Za-z0-9_-]{43}$/);
    const pkce = createPkce();
    assert.match(pkce.verifier, /^[A-Za-z0-9._~-]{43,128}$/);
    assert.equal(pkce.challenge, createHash('sha256').update(pkce.verifier).digest('base64url'));
    assert.equal(pkce.method, 'S256');
  });

  it('builds the authorize URL with state, redirect and PKCE under any base URL', () => {
    const url = new URL(
      authorizeUrl({
        baseUrl: 'https://portal.example/sub/',
        clientId: 'c 1',
        redirectUri: 'http://127.0.0.1:5000/cb',
        state: 's',
        pkce: { challenge: 'ch', method: 'S256' },
      }),
    );
    assert.equal(url.origin + url.pathname, 'https://portal.example/sub/api/v1/oauth2/authorize');
    assert.deepEqual(Object.fromEntries(url.searchParams), {
      client_id: 'c 1',
      response_type: 'code',
      state: 's',
      redirect_uri: 'http://127.0.0.1:5000/cb',
      code_challenge: 'ch',
      code_challenge_method: 'S256',
    });
    const plain = new URL(authorizeUrl({ baseUrl: 'https://portal.example/api/v1', clientId: 'c', state: 's' }));
    assert.equal(plain.pathname, '/api/v1/oauth2/authorize');
    assert.equal(plain.searchParams.has('redirect_uri'), false);
    assert.equal(plain.searchParams.has('code_challenge'), false);
  });

  it('refuses a base URL that is not http(s)', () => {
    refusedWith(() => authorizeUrl({ baseUrl: 'portal.example', clientId: 'c', state: 's' }), 'invalid_base_url', 'invalid-input');
    refusedWith(() => authorizeUrl({ baseUrl: 'ftp://portal.example', clientId: 'c', state: 's' }), 'invalid_base_url', 'invalid-input');
  });

  it('takes the code from a redirect with the expected state', () => {
    assert.deepEqual(parseRedirect('http://127.0.0.1:5000/cb?code=abc&state=s1', 's1'), { code: 'abc' });
    assert.deepEqual(parseRedirect(new URL('vscode://portal-labs.portal-explorer/cb#code=abc&state=s1'), 's1'), { code: 'abc' });
  });

  it('refuses a wrong or missing state without revealing the code', () => {
    for (const url of ['http://x/cb?code=secretcode&state=other', 'http://x/cb?code=secretcode']) {
      assert.throws(
        () => parseRedirect(url, 's1'),
        (error: unknown) => error instanceof PortalError && error.code === 'state_mismatch' && !error.message.includes('secretcode'),
      );
    }
  });

  it('does not trust an error redirect without a state: any web page can open one (RFC 6749 4.1.2.1)', () => {
    for (const url of ['http://x/cb?error=access_denied&error_description=Call%20evil.example', 'http://x/cb#error=server_error']) {
      assert.throws(
        () => parseRedirect(url, 's1'),
        (error: unknown) => error instanceof PortalError && error.code === 'state_mismatch' && !error.message.includes('evil'),
      );
    }
  });

  it('reports the portal error (access_denied) and a missing code', () => {
    assert.throws(
      () => parseRedirect('http://x/cb?error=access_denied&error_description=User%20said%20no&state=s1', 's1'),
      (error: unknown) =>
        error instanceof PortalError &&
        error.code === 'access_denied' &&
        error.portalMessage === 'User said no' &&
        /denied/.test(error.message),
    );
    refusedWith(() => parseRedirect('http://x/cb?error=server_error&state=s1', 's1'), 'server_error', 'http');
    refusedWith(() => parseRedirect('http://x/cb?error=access_denied&state=forged', 's1'), 'state_mismatch', 'invalid-response');
    refusedWith(() => parseRedirect('http://x/cb?state=s1', 's1'), 'missing_code', 'invalid-response');
    refusedWith(() => parseRedirect('not a url', 's1'), 'invalid_redirect', 'invalid-response');
  });
});
