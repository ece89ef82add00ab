// Both OAuth flows and the refresh grant against the emulator: the authorization code flow with state and
// PKCE (the browser step done by following the authorize redirect by hand), client credentials, refresh
// with rotation, and the OAuth errors, none of which may reveal the secret, the code or a token.
import * as assert from 'node:assert/strict';
import nodeFetch from 'node-fetch';
import { PortalClient } from '../../../src/api/client';
import { PortalError } from '../../../src/api/errors';
import { defaultFetch, type FetchLike } from '../../../src/api/http';
import {
  authorizeUrl,
  clientCredentials,
  createPkce,
  createState,
  exchangeCode,
  parseRedirect,
  refresh,
  type TokenSet,
} from '../../../src/api/oauth';
import { configure, injectFault, rejectsWith, startPortal, testInterface, type Emulator } from './portal';

const REDIRECT = 'http://127.0.0.1:33333/callback';

/** Asserts the error's text mentions none of the given secrets. */
function revealsNothing(error: PortalError, secrets: string[]): void {
  const text = `${error.message} ${error.portalMessage ?? ''} ${JSON.stringify(error)} ${String(error.stack)}`;
  for (const secret of secrets) assert.ok(!text.includes(secret), `"${error.message}" reveals a secret`);
}

describe('OAuth against the emulator', function () {
  let emulator: Emulator;

  before(async () => {
    emulator = await startPortal({ autoApprove: true });
  });
  after(() => emulator.close());

  /** What the browser does: open the authorize URL; the portal redirects to the call-back with the code. */
  async function authorize(url: string): Promise<string> {
    const response = await nodeFetch(url, { redirect: 'manual' });
    assert.equal(response.status, 302, `the authorize endpoint redirects (got ${response.status})`);
    const location = response.headers.get('location');
    assert.ok(location, 'a Location header');
    return location;
  }

  async function signIn(options: { pkce?: boolean } = {}): Promise<{ tokens: TokenSet; code: string; verifier?: string }> {
    const state = createState();
    const pkce = options.pkce === false ? undefined : createPkce();
    const location = await authorize(
      authorizeUrl({ baseUrl: emulator.baseUrl, clientId: emulator.clientId, redirectUri: REDIRECT, state, pkce }),
    );
    assert.ok(location.startsWith(REDIRECT), location);
    const { code } = parseRedirect(location, state);
    const tokens = await exchangeCode({
      baseUrl: emulator.baseUrl,
      clientId: emulator.clientId,
      clientSecret: emulator.clientSecret,
      code,
      redirectUri: REDIRECT,
      codeVerifier: pkce?.verifier,
    });
    return { tokens, code, verifier: pkce?.verifier };
  }

  function clientWith(accessToken: string): PortalClient {
    return new PortalClient({
      baseUrl: emulator.baseUrl,
      tokens: { accessToken: async () => accessToken, renewAfterUnauthorized: async () => undefined },
    });
  }

  it('authorization code flow with state and PKCE gives tokens that open the data endpoints', async () => {
    const before = Date.now();
    const { tokens } = await signIn();
    assert.ok(tokens.accessToken.length > 10);
    assert.ok(tokens.refreshToken && tokens.refreshToken.length > 10);
    assert.equal(tokens.tokenType, 'Bearer');
    assert.ok(tokens.expiresAt >= before + 3599_000 && tokens.expiresAt <= Date.now() + 3600_000, 'expires_in 3600 s from now');
    assert.equal((await clientWith(tokens.accessToken).listSites()).length, 2);
  });

  it('also works without PKCE', async () => {
    const { tokens } = await signIn({ pkce: false });
    assert.equal((await clientWith(tokens.accessToken).listSites()).length, 2);
  });

  it('a code works once; a wrong PKCE verifier is refused; neither error reveals the code', async () => {
    const { code } = await signIn();
    const again = exchangeCode({
      baseUrl: emulator.baseUrl,
      clientId: emulator.clientId,
      clientSecret: emulator.clientSecret,
      code,
      redirectUri: REDIRECT,
    });
    revealsNothing(await rejectsWith(again, { kind: 'http', status: 400, code: 'invalid_grant' }), [code, emulator.clientSecret]);

    const state = createState();
    const pkce = createPkce();
    const location = await authorize(
      authorizeUrl({ baseUrl: emulator.baseUrl, clientId: emulator.clientId, redirectUri: REDIRECT, state, pkce }),
    );
    const fresh = parseRedirect(location, state).code;
    const wrong = createPkce().verifier;
    const error = await rejectsWith(
      exchangeCode({
        baseUrl: emulator.baseUrl,
        clientId: emulator.clientId,
        clientSecret: emulator.clientSecret,
        code: fresh,
        redirectUri: REDIRECT,
        codeVerifier: wrong,
      }),
      { kind: 'http', status: 400, code: 'invalid_grant' },
    );
    assert.ok(error.portalMessage, 'the portal said why');
    revealsNothing(error, [fresh, wrong, pkce.verifier, emulator.clientSecret]);
  });

  it('a redirect with another state is refused before any exchange', async () => {
    const location = await authorize(
      authorizeUrl({ baseUrl: emulator.baseUrl, clientId: emulator.clientId, redirectUri: REDIRECT, state: createState() }),
    );
    assert.throws(
      () => parseRedirect(location, createState()),
      (error: unknown) => error instanceof PortalError && error.code === 'state_mismatch',
    );
  });

  it('Deny on the approval page comes back as access_denied', async () => {
    await configure(emulator, { autoApprove: false });
    try {
      const state = createState();
      const page = await nodeFetch(authorizeUrl({ baseUrl: emulator.baseUrl, clientId: emulator.clientId, redirectUri: REDIRECT, state }));
      assert.equal(page.status, 200);
      const html = await page.text();
      const requestId = /name="request_id" value="([^"]+)"/.exec(html)?.[1];
      assert.ok(requestId, 'the approval form');
      const denied = await nodeFetch(`${emulator.baseUrl}/api/v1/oauth2/authorize`, {
        method: 'POST',
        redirect: 'manual',
        body: new URLSearchParams({ request_id: requestId, decision: 'deny' }),
      });
      const location = denied.headers.get('location') ?? '';
      assert.throws(
        () => parseRedirect(location, state),
        (error: unknown) => error instanceof PortalError && error.code === 'access_denied' && /denied/i.test(error.message),
      );
    } finally {
      await configure(emulator, { autoApprove: true });
    }
  });

  it('refresh gives a new access token and rotates the refresh token', async () => {
    const { tokens } = await signIn();
    const common = { baseUrl: emulator.baseUrl, clientId: emulator.clientId, clientSecret: emulator.clientSecret };
    const renewed = await refresh({ ...common, refreshToken: tokens.refreshToken ?? '' });
    assert.notEqual(renewed.accessToken, tokens.accessToken);
    assert.ok(renewed.refreshToken && renewed.refreshToken !== tokens.refreshToken);
    assert.equal((await clientWith(renewed.accessToken).listSites()).length, 2);

    const stale = await rejectsWith(refresh({ ...common, refreshToken: tokens.refreshToken ?? '' }), {
      kind: 'http',
      status: 400,
      code: 'invalid_grant',
    });
    revealsNothing(stale, [tokens.refreshToken ?? '', emulator.clientSecret]);
  });

  it('an expired access token is refused; a refresh brings the client back', async () => {
    const { tokens } = await signIn();
    await testInterface(emulator, 'POST', 'tokens/expire', {});
    let current = tokens;
    let renewals = 0;
    const client = new PortalClient({
      baseUrl: emulator.baseUrl,
      tokens: {
        accessToken: async () => current.accessToken,
        renewAfterUnauthorized: async () => {
          renewals += 1;
          current = await refresh({
            baseUrl: emulator.baseUrl,
            clientId: emulator.clientId,
            clientSecret: emulator.clientSecret,
            refreshToken: current.refreshToken ?? '',
          });
          return current.accessToken;
        },
      },
    });
    assert.equal((await client.listSites()).length, 2);
    assert.equal(renewals, 1);
  });

  it('client credentials: HTTP Basic and form parameters, no refresh token', async () => {
    const sent: Array<{ authorization: string | undefined; body: string }> = [];
    // A fetch that notes what goes out and hands everything to the client's own: the emulator still answers.
    const noting: FetchLike = (url, init) => {
      sent.push({ authorization: init.headers.Authorization, body: String(init.body) });
      return defaultFetch(url, init);
    };
    const tokens = await clientCredentials({
      baseUrl: emulator.baseUrl,
      clientId: emulator.clientId,
      clientSecret: emulator.clientSecret,
      fetch: noting,
    });
    assert.equal(tokens.refreshToken, undefined);
    assert.equal((await clientWith(tokens.accessToken).listSites()).length, 2);
    const form = new URLSearchParams(sent[0].body);
    assert.deepEqual(
      [form.get('grant_type'), form.get('client_id'), form.get('client_secret')],
      ['client_credentials', emulator.clientId, emulator.clientSecret],
    );
    const basic = Buffer.from((sent[0].authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
    assert.equal(basic, `${encodeURIComponent(emulator.clientId)}:${encodeURIComponent(emulator.clientSecret)}`);
  });

  it('client credentials with a secret full of special characters', async () => {
    const secret = 'a b:c%41+d/e=f&g';
    const registered = (await testInterface(emulator, 'POST', 'clients', {
      client_id: 'odd id:1',
      client_secret: secret,
      redirect_uris: [REDIRECT],
    })) as { client_id: string };
    const tokens = await clientCredentials({ baseUrl: emulator.baseUrl, clientId: registered.client_id, clientSecret: secret });
    assert.equal((await clientWith(tokens.accessToken).listSites()).length, 2);
  });

  it('a wrong secret is invalid_client (401) and the message does not carry it', async () => {
    const wrong = 'not-the-secret-12345';
    const error = await rejectsWith(clientCredentials({ baseUrl: emulator.baseUrl, clientId: emulator.clientId, clientSecret: wrong }), {
      kind: 'http',
      status: 401,
      code: 'invalid_client',
      verdict: 'refused',
    });
    revealsNothing(error, [wrong, emulator.clientSecret]);
    await rejectsWith(exchangeCode({ baseUrl: emulator.baseUrl, clientId: emulator.clientId, clientSecret: wrong, code: 'abc' }), {
      status: 401,
      code: 'invalid_client',
    });
  });

  it('a token endpoint that times out, drops or answers garbage gives the same PortalError kinds', async () => {
    const common = { baseUrl: emulator.baseUrl, clientId: emulator.clientId, clientSecret: emulator.clientSecret };
    await injectFault(emulator, { path: 'oauth2/token', latency_ms: 1500 });
    await rejectsWith(clientCredentials({ ...common, timeoutMs: 200 }), { kind: 'timeout', verdict: 'may-have-been-done' });
    await injectFault(emulator, { path: 'oauth2/token', drop: true });
    await rejectsWith(clientCredentials(common), { kind: 'network', verdict: 'may-have-been-done' });
    await injectFault(emulator, { path: 'oauth2/token', malformed: true });
    await rejectsWith(clientCredentials(common), { kind: 'invalid-response' });
    await injectFault(emulator, { path: 'oauth2/token', status: 200, body: { token_type: 'Bearer', expires_in: 60 } });
    const missing = await rejectsWith(clientCredentials(common), { kind: 'invalid-response' });
    assert.match(missing.message, /no "access_token"/);
    const controller = new AbortController();
    controller.abort();
    await rejectsWith(clientCredentials({ ...common, signal: controller.signal }), { kind: 'cancelled' });
  });
});
