// The client's OAuth calls against an OAuth 2.0 server nobody on this project wrote: oauth2-mock-server
// (npm), started on 127.0.0.1 with its token and authorize endpoints at the portal's paths. It approves
// at once and checks PKCE, so the authorization code flow runs end to end through the real loopback
// listener; then the refresh and client-credentials grants.
import * as assert from 'node:assert/strict';
import nodeFetch from 'node-fetch';
import { OAuth2Server } from 'oauth2-mock-server';
import { PortalError } from '../../../src/api/errors';
import { clientCredentials, exchangeCode, refresh } from '../../../src/api/oauth';
import { authorizationCodeSignIn } from '../../../src/auth/authorizationCode';
import { startLoopbackReceiver } from '../../../src/auth/loopbackReceiver';

const CLIENT = { clientId: 'portal-explorer', clientSecret: 'foreign-secret' };

describe('OAuth calls against oauth2-mock-server (a server not written here)', () => {
  let server: OAuth2Server;
  let baseUrl: string;
  const tokenRequests: Array<{ authorization: string | undefined; body: Record<string, unknown> }> = [];

  before(async () => {
    server = new OAuth2Server(undefined, undefined, {
      endpoints: { token: '/api/v1/oauth2/token', authorize: '/api/v1/oauth2/authorize' },
    });
    await server.issuer.keys.generate('RS256');
    server.service.on(
      'beforeResponse',
      (_response: unknown, request: { headers: Record<string, string | undefined>; body: Record<string, unknown> }) => {
        tokenRequests.push({ authorization: request.headers.authorization, body: request.body });
      },
    );
    await server.start(0, '127.0.0.1');
    const address = server.address();
    baseUrl = `http://127.0.0.1:${address.port}`;
  });
  after(() => server.stop());
  beforeEach(() => {
    tokenRequests.length = 0;
  });

  it('authorization code with state and PKCE through the loopback listener, then refresh', async () => {
    let authorize = '';
    const tokens = await authorizationCodeSignIn({
      ...CLIENT,
      baseUrl,
      signal: new AbortController().signal,
      openReceiver: (state) => startLoopbackReceiver({ expectedState: state }),
      openBrowser: async (url) => {
        authorize = url;
        // The browser: the server redirects at once; follow it to the loopback listener.
        void nodeFetch(url, { redirect: 'follow' }).then((response) => response.text());
        return true;
      },
    });
    assert.match(new URL(authorize).pathname, /\/api\/v1\/oauth2\/authorize$/);
    assert.ok(tokens.accessToken.split('.').length === 3, 'a JWT from the foreign server');
    assert.ok(tokens.refreshToken);
    assert.ok(tokens.expiresAt > Date.now());
    const exchange = tokenRequests[0]?.body ?? {};
    assert.equal(exchange.grant_type, 'authorization_code');
    assert.ok(typeof exchange.code_verifier === 'string', 'the PKCE verifier was sent (and the server checked it)');

    const renewed = await refresh({ ...CLIENT, baseUrl, refreshToken: tokens.refreshToken ?? '' });
    // Its tokens are JWTs signed per second, so a renewal within the same second may look the same.
    assert.ok(renewed.accessToken.split('.').length === 3 && renewed.refreshToken);
    assert.equal(tokenRequests[1]?.body.grant_type, 'refresh_token');
  });

  it('a wrong PKCE verifier is refused by the foreign server too', async () => {
    const location = await nodeFetch(
      `${baseUrl}/api/v1/oauth2/authorize?response_type=code&client_id=x&state=s&redirect_uri=${encodeURIComponent('http://127.0.0.1:1/callback')}&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256`,
      { redirect: 'manual' },
    );
    const code = new URL(location.headers.get('location') ?? '').searchParams.get('code') ?? '';
    await assert.rejects(
      exchangeCode({ ...CLIENT, baseUrl, code, codeVerifier: 'b'.repeat(43) }),
      (error: unknown) => error instanceof PortalError && error.kind === 'http' && error.status === 400,
    );
  });

  it('client credentials with HTTP Basic', async () => {
    const tokens = await clientCredentials({ ...CLIENT, baseUrl });
    assert.ok(tokens.accessToken.split('.').length === 3);
    assert.equal(tokens.refreshToken, undefined);
    const basic = Buffer.from((tokenRequests[0]?.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
    assert.equal(basic, `${CLIENT.clientId}:${CLIENT.clientSecret}`);
    assert.equal(tokenRequests[0]?.body.grant_type, 'client_credentials');
  });
});
