import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { RunningEmulator } from '../../emulator/index';
import type { Answer } from './helpers';
import { call, form, useEmulator } from './helpers';

const AUTHORIZE = '/api/v1/oauth2/authorize';
const TOKEN = '/api/v1/oauth2/token';

function authorizeUrl(params: Record<string, string | undefined>): string {
  const query = new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return `${AUTHORIZE}?${query}`;
}

const basic = (id: string, secret: string) => ({ Authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}` });

/** Goes through the approval page and answers it; returns the redirect's URL. */
async function approve(emulator: RunningEmulator, params: Record<string, string | undefined>, decision = 'approve'): Promise<URL> {
  const page = await call(emulator, 'GET', authorizeUrl(params));
  assert.equal(page.status, 200, page.text);
  const requestId = /name="request_id" value="([^"]+)"/.exec(page.text)?.[1];
  assert.ok(requestId, 'the page carries its request id');
  const answered = await call(emulator, 'POST', AUTHORIZE, { body: form({ request_id: requestId, decision }) });
  assert.equal(answered.status, 302);
  return new URL(answered.headers.get('location') ?? '');
}

function tokenBody(result: Answer): Record<string, unknown> {
  assert.equal(result.status, 200, result.text);
  return result.json as Record<string, unknown>;
}

describe('emulator: OAuth 2.0', () => {
  const running = useEmulator();
  const emulator = () => running.emulator;
  const standard = () => ({
    client_id: emulator().clientId,
    response_type: 'code',
    state: 'xyz-123',
    redirect_uri: emulator().redirectUri,
  });

  beforeEach(async () => {
    await call(emulator(), 'POST', '/_emulator/reset');
  });

  const exchange = (code: string, extra: Record<string, string> = {}) =>
    call(emulator(), 'POST', TOKEN, {
      body: form({
        grant_type: 'authorization_code',
        code,
        client_id: emulator().clientId,
        client_secret: emulator().clientSecret,
        ...extra,
      }),
    });

  describe('authorize', () => {
    it('renders an approval page with Approve and Deny', async () => {
      const page = await call(emulator(), 'GET', authorizeUrl(standard()));
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-type') ?? '', /text\/html/);
      assert.match(page.text, /id="approve"/);
      assert.match(page.text, /id="deny"/);
    });

    it('redirects with code and the same state on approval', async () => {
      const redirect = await approve(emulator(), standard());
      assert.equal(`${redirect.origin}${redirect.pathname}`, emulator().redirectUri);
      assert.equal(redirect.searchParams.get('state'), 'xyz-123');
      assert.ok(redirect.searchParams.get('code'));
    });

    it('redirects with error=access_denied and the state on denial', async () => {
      const redirect = await approve(emulator(), standard(), 'deny');
      assert.equal(redirect.searchParams.get('error'), 'access_denied');
      assert.equal(redirect.searchParams.get('state'), 'xyz-123');
      assert.equal(redirect.searchParams.get('code'), null);
    });

    it('answers an approval form only once', async () => {
      const page = await call(emulator(), 'GET', authorizeUrl(standard()));
      const requestId = /name="request_id" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
      assert.equal((await call(emulator(), 'POST', AUTHORIZE, { body: form({ request_id: requestId, decision: 'approve' }) })).status, 302);
      assert.equal((await call(emulator(), 'POST', AUTHORIZE, { body: form({ request_id: requestId, decision: 'approve' }) })).status, 400);
    });

    it("uses the client's registered call-back URL when redirect_uri is absent", async () => {
      const redirect = await approve(emulator(), { ...standard(), redirect_uri: undefined });
      assert.equal(redirect.pathname, '/_emulator/callback');
    });

    it('accepts a registered loopback redirect URI on any port', async () => {
      const redirect = await approve(emulator(), { ...standard(), redirect_uri: 'http://127.0.0.1:54321/callback' });
      assert.equal(redirect.port, '54321');
      assert.equal(redirect.pathname, '/callback');
    });

    for (const [what, params, code] of [
      ['an unknown client_id', { client_id: 'nobody' }, 'unauthorized_client'],
      ['a missing client_id', { client_id: undefined }, 'invalid_request'],
      ['a missing state', { state: undefined }, 'invalid_request'],
      ['a response_type other than code', { response_type: 'token' }, 'unsupported_response_type'],
      ['a missing response_type', { response_type: undefined }, 'invalid_request'],
      ['an unregistered redirect_uri', { redirect_uri: 'https://evil.example.com/cb' }, 'invalid_request'],
      ['a loopback redirect_uri with an unregistered path', { redirect_uri: 'http://127.0.0.1:5000/other' }, 'invalid_request'],
      ['an unsupported code_challenge_method', { code_challenge: 'a'.repeat(43), code_challenge_method: 'S512' }, 'invalid_request'],
    ] as const) {
      it(`refuses ${what} with a 400 page and no redirect`, async () => {
        const refused = await call(emulator(), 'GET', authorizeUrl({ ...standard(), ...params }));
        assert.equal(refused.status, 400);
        assert.equal(refused.headers.get('location'), null);
        assert.match(refused.text, new RegExp(`data-error="${code}"`));
      });
    }

    it('redirects at once when auto-approve is on', async () => {
      await call(emulator(), 'POST', '/_emulator/config', { body: { autoApprove: true } });
      const redirected = await call(emulator(), 'GET', authorizeUrl(standard()));
      assert.equal(redirected.status, 302);
      const location = new URL(redirected.headers.get('location') ?? '');
      assert.equal(location.searchParams.get('state'), 'xyz-123');
      assert.ok(location.searchParams.get('code'));
    });
  });

  describe('token: authorization_code', () => {
    it('exchanges a code for exactly the documented fields', async () => {
      const code = (await approve(emulator(), standard())).searchParams.get('code') ?? '';
      const result = await exchange(code);
      const body = tokenBody(result);
      assert.deepEqual(Object.keys(body).sort(), ['access_token', 'expires_in', 'refresh_token', 'scope', 'token_type']);
      assert.equal(body.token_type, 'Bearer');
      assert.equal(body.expires_in, 3600);
      assert.equal(body.scope, null);
      assert.equal(result.headers.get('cache-control'), 'no-store');
      const sites = await call(emulator(), 'GET', '/api/v1/site', { token: String(body.access_token) });
      assert.equal(sites.status, 200);
    });

    it('takes a code once; a replay is invalid_grant and revokes what the code gave', async () => {
      const code = (await approve(emulator(), standard())).searchParams.get('code') ?? '';
      const token = String(tokenBody(await exchange(code)).access_token);
      const replay = await exchange(code);
      assert.equal(replay.status, 400);
      assert.equal((replay.json as { error: string }).error, 'invalid_grant');
      assert.equal((await call(emulator(), 'GET', '/api/v1/site', { token })).status, 401);
    });

    it('refuses an expired code', async () => {
      await call(emulator(), 'POST', '/_emulator/config', { body: { codeLifetimeSeconds: 0 } });
      const code = (await approve(emulator(), standard())).searchParams.get('code') ?? '';
      const result = await exchange(code);
      assert.equal(result.status, 400);
      assert.deepEqual(Object.keys(result.json as object), ['error', 'error_description']);
      assert.equal((result.json as { error: string }).error, 'invalid_grant');
    });

    it('refuses a redirect_uri other than the one of the authorization request', async () => {
      const code = (await approve(emulator(), standard())).searchParams.get('code') ?? '';
      const result = await exchange(code, { redirect_uri: 'http://127.0.0.1/callback' });
      assert.equal((result.json as { error: string }).error, 'invalid_grant');
    });

    it('enforces PKCE (S256) once a challenge was given', async () => {
      const verifier = 'v'.repeat(20) + '-._~' + 'A1'.repeat(12);
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      const codeFor = async () =>
        (await approve(emulator(), { ...standard(), code_challenge: challenge, code_challenge_method: 'S256' })).searchParams.get('code') ??
        '';
      assert.equal(((await exchange(await codeFor())).json as { error: string }).error, 'invalid_grant', 'no verifier');
      assert.equal(
        ((await exchange(await codeFor(), { code_verifier: 'w'.repeat(43) })).json as { error: string }).error,
        'invalid_grant',
        'wrong verifier',
      );
      tokenBody(await exchange(await codeFor(), { code_verifier: verifier }));
    });

    it('enforces PKCE (plain)', async () => {
      const verifier = 'p'.repeat(43);
      const codeFor = async () =>
        (await approve(emulator(), { ...standard(), code_challenge: verifier, code_challenge_method: 'plain' })).searchParams.get('code') ??
        '';
      assert.equal((await exchange(await codeFor(), { code_verifier: 'q'.repeat(43) })).status, 400);
      tokenBody(await exchange(await codeFor(), { code_verifier: verifier }));
    });

    it('takes a challenge without method as plain, as RFC 7636 says', async () => {
      const verifier = 'n'.repeat(50);
      const code = (await approve(emulator(), { ...standard(), code_challenge: verifier })).searchParams.get('code') ?? '';
      tokenBody(await exchange(code, { code_verifier: verifier }));
    });

    it('refuses a code issued to another client', async () => {
      const other = (await call(emulator(), 'POST', '/_emulator/clients', { body: { redirect_uris: ['http://127.0.0.1/cb'] } })).json as {
        client_id: string;
        client_secret: string;
      };
      const code = (await approve(emulator(), standard())).searchParams.get('code') ?? '';
      const result = await exchange(code, { client_id: other.client_id, client_secret: other.client_secret });
      assert.equal((result.json as { error: string }).error, 'invalid_grant');
    });
  });

  describe('token: client_credentials', () => {
    it('authenticates with HTTP Basic and answers no refresh_token', async () => {
      const result = await call(emulator(), 'POST', TOKEN, {
        body: form({ grant_type: 'client_credentials' }),
        headers: basic(emulator().clientId, emulator().clientSecret),
      });
      const body = tokenBody(result);
      assert.deepEqual(Object.keys(body).sort(), ['access_token', 'expires_in', 'scope', 'token_type']);
      assert.equal(body.scope, null);
    });

    it('authenticates with client_id and client_secret form parameters', async () => {
      tokenBody(
        await call(emulator(), 'POST', TOKEN, {
          body: form({ grant_type: 'client_credentials', client_id: emulator().clientId, client_secret: emulator().clientSecret }),
        }),
      );
    });

    it('accepts Basic and form parameters together when they agree, refuses them when they do not', async () => {
      const both = { grant_type: 'client_credentials', client_id: emulator().clientId, client_secret: emulator().clientSecret };
      tokenBody(await call(emulator(), 'POST', TOKEN, { body: form(both), headers: basic(emulator().clientId, emulator().clientSecret) }));
      const disagree = await call(emulator(), 'POST', TOKEN, {
        body: form({ ...both, client_id: 'other' }),
        headers: basic(emulator().clientId, emulator().clientSecret),
      });
      assert.equal(disagree.status, 400);
    });

    it('answers 401 invalid_client for a wrong secret', async () => {
      const result = await call(emulator(), 'POST', TOKEN, {
        body: form({ grant_type: 'client_credentials' }),
        headers: basic(emulator().clientId, 'wrong'),
      });
      assert.equal(result.status, 401);
      assert.deepEqual(result.json, { error: 'invalid_client', error_description: 'Unknown client or wrong client secret.' });
    });

    it('answers 401 invalid_client without client authentication', async () => {
      const result = await call(emulator(), 'POST', TOKEN, { body: form({ grant_type: 'client_credentials' }) });
      assert.equal(result.status, 401);
      assert.equal((result.json as { error: string }).error, 'invalid_client');
    });

    it('answers 400 unsupported_grant_type and invalid_request', async () => {
      const password = await call(emulator(), 'POST', TOKEN, {
        body: form({ grant_type: 'password' }),
        headers: basic(emulator().clientId, emulator().clientSecret),
      });
      assert.equal(password.status, 400);
      assert.equal((password.json as { error: string }).error, 'unsupported_grant_type');
      const missing = await call(emulator(), 'POST', TOKEN, {
        body: form({}),
        headers: basic(emulator().clientId, emulator().clientSecret),
      });
      assert.equal((missing.json as { error: string }).error, 'invalid_request');
      const json = await call(emulator(), 'POST', TOKEN, {
        body: { grant_type: 'client_credentials' },
        headers: basic(emulator().clientId, emulator().clientSecret),
      });
      assert.equal((json.json as { error: string }).error, 'invalid_request');
    });
  });

  describe('token: refresh_token', () => {
    it('rotates: a new access and refresh token; the old refresh token stops working', async () => {
      const code = (await approve(emulator(), standard())).searchParams.get('code') ?? '';
      const first = tokenBody(await exchange(code));
      const refresh = (refreshToken: unknown) =>
        call(emulator(), 'POST', TOKEN, {
          body: form({ grant_type: 'refresh_token', refresh_token: String(refreshToken) }),
          headers: basic(emulator().clientId, emulator().clientSecret),
        });
      const second = tokenBody(await refresh(first.refresh_token));
      assert.notEqual(second.access_token, first.access_token);
      assert.notEqual(second.refresh_token, first.refresh_token);
      assert.equal(second.scope, null);
      const reused = await refresh(first.refresh_token);
      assert.equal(reused.status, 400);
      assert.equal((reused.json as { error: string }).error, 'invalid_grant');
      tokenBody(await refresh(second.refresh_token));
    });
  });
});

describe('emulator: token lifetime', () => {
  const running = useEmulator({ tokenLifetimeSeconds: 1 });

  it('answers expires_in from the option and 401 invalid_token once the token expired', async () => {
    const result = await call(running.emulator, 'POST', TOKEN, {
      body: form({ grant_type: 'client_credentials', client_id: running.emulator.clientId, client_secret: running.emulator.clientSecret }),
    });
    const body = tokenBody(result);
    assert.equal(body.expires_in, 1);
    const token = String(body.access_token);
    assert.equal((await call(running.emulator, 'GET', '/api/v1/site', { token })).status, 200);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const expired = await call(running.emulator, 'GET', '/api/v1/site', { token });
    assert.equal(expired.status, 401);
    assert.match(expired.headers.get('www-authenticate') ?? '', /^Bearer error="invalid_token"/);
    assert.deepEqual(expired.json, { error: { code: 'invalid_token', message: 'The access token expired.' } });
  });

  it('answers 401 without a token and with an unknown one', async () => {
    assert.equal((await call(running.emulator, 'GET', '/api/v1/site')).status, 401);
    assert.equal((await call(running.emulator, 'GET', '/api/v1/site', { token: 'made-up' })).status, 401);
  });
});
