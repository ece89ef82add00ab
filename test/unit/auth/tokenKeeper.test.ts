// The token keeper against the emulator: tokens from a real sign-in, renewed ahead of expiry and after a
// 401, a refresh token rotated by "another window", refusal turned into "sign in again", and nothing
// but SecretStorage (here a Map with its interface) holding a token.
import * as assert from 'node:assert/strict';
import { PortalClient } from '../../../src/api/client';
import { PortalError } from '../../../src/api/errors';
import { clientCredentials, refresh } from '../../../src/api/oauth';
import { defaultFetch, type FetchLike } from '../../../src/api/http';
import type { PortalConnection } from '../../../src/auth/portals';
import { secretKeys } from '../../../src/auth/secretKeys';
import { SignInRequiredError } from '../../../src/model/signInRequired';
import { tokensFrom, type StoredTokens } from '../../../src/auth/storedTokens';
import { TokenKeeper } from '../../../src/auth/tokenKeeper';
import { startPortal, testInterface, type Emulator } from '../api/portal';
import { MapSecrets } from '../support/secrets';
import { signInWithCode } from './browser';

/**
 * The real fetch, but the token endpoint's answer is held (after the portal acted on the request, e.g.
 * rotated the refresh token) until release(), as a slow network would; the request's own signal still
 * aborts the wait. `arrived` resolves when a token request has reached the portal.
 */
function heldTokenAnswers(): { fetch: FetchLike; arrived: Promise<void>; release: () => void } {
  let arrive: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  const fetch: FetchLike = async (url, init) => {
    const answer = await defaultFetch(url, init);
    if (!url.includes('/oauth2/token')) return answer;
    arrive();
    await new Promise<void>((resolve, reject) => {
      init.signal.addEventListener('abort', () => reject(init.signal.reason), { once: true });
      // Not awaited: `released` never rejects; the answer waits for it or for the abort, whichever comes first.
      void released.then(resolve);
    });
    return answer;
  };
  return { fetch, arrived, release };
}

interface LogEntry {
  method: string;
  path: string;
  status: number;
  query: string;
}

describe('TokenKeeper against the emulator', () => {
  let emulator: Emulator;
  let secrets: MapSecrets;

  before(async () => {
    emulator = await startPortal({ autoApprove: true });
  });
  after(() => emulator.close());
  beforeEach(async () => {
    await testInterface(emulator, 'POST', 'reset');
    secrets = new MapSecrets();
  });

  function connection(flow: PortalConnection['flow']): PortalConnection {
    return { id: 'demo', label: 'Demo', baseUrl: emulator.baseUrl, clientId: emulator.clientId, flow };
  }

  async function keeperWith(
    flow: PortalConnection['flow'],
    tokens?: StoredTokens,
  ): Promise<{ keeper: TokenKeeper; client: PortalClient; writes: () => number }> {
    await secrets.store(secretKeys.clientSecret('demo'), emulator.clientSecret);
    let writes = 0;
    const keeper = new TokenKeeper({ connection: connection(flow), secrets, onDidWrite: () => (writes += 1) });
    if (tokens) await keeper.signedIn(tokens);
    writes = 0;
    return { keeper, client: new PortalClient({ baseUrl: emulator.baseUrl, tokens: keeper }), writes: () => writes };
  }

  async function requests(): Promise<string[]> {
    const log = (await testInterface(emulator, 'GET', 'requests')) as LogEntry[];
    await testInterface(emulator, 'DELETE', 'requests');
    return log.map((entry) => `${entry.method} ${entry.path} ${entry.status}`);
  }

  async function codeTokens(): Promise<StoredTokens> {
    const set = await signInWithCode(emulator);
    return tokensFrom(set, Date.now());
  }

  it('hands out the stored token while it is fresh, without touching the token endpoint', async () => {
    const { keeper, client } = await keeperWith('authorizationCode', await codeTokens());
    await requests();
    assert.equal(keeper.state(), 'signedIn');
    assert.equal((await client.listSites()).length, 2);
    assert.deepEqual(await requests(), ['GET /api/v1/site 200']);
  });

  it('refreshes ahead of expiry: no 401 is ever seen', async () => {
    const tokens = await codeTokens();
    // Issued an hour ago, expiring in 20 s: inside the one-minute margin.
    const { keeper, client, writes } = await keeperWith('authorizationCode', {
      ...tokens,
      issuedAt: Date.now() - 3580_000,
      expiresAt: Date.now() + 20_000,
    });
    await requests();
    assert.equal((await client.listSites()).length, 2);
    assert.deepEqual(await requests(), ['POST /api/v1/oauth2/token 200', 'GET /api/v1/site 200']);
    assert.equal(writes(), 1, 'the renewed tokens were stored');
    const stored = JSON.parse((await secrets.get(secretKeys.tokens('demo'))) ?? '{}') as { tokens: StoredTokens };
    assert.notEqual(stored.tokens.accessToken, tokens.accessToken);
    assert.notEqual(stored.tokens.refreshToken, tokens.refreshToken, 'the rotated refresh token was kept');
    assert.equal(keeper.currentAccessToken(), stored.tokens.accessToken);
  });

  it('after a 401 refreshes once and retries once', async () => {
    const { client } = await keeperWith('authorizationCode', await codeTokens());
    await testInterface(emulator, 'POST', 'tokens/expire', {});
    await requests();
    assert.equal((await client.listSites()).length, 2);
    assert.deepEqual(await requests(), ['GET /api/v1/site 401', 'POST /api/v1/oauth2/token 200', 'GET /api/v1/site 200']);
  });

  it('calls that arrive during a renewal share it: one token request', async () => {
    const { client } = await keeperWith('authorizationCode', await codeTokens());
    await testInterface(emulator, 'POST', 'tokens/expire', {});
    await requests();
    const results = await Promise.all([client.listSites(), client.listSites(), client.listSites()]);
    assert.ok(results.every((sites) => sites.length === 2));
    assert.equal((await requests()).filter((line) => line.startsWith('POST /api/v1/oauth2/token')).length, 1);
  });

  it('client credentials: no refresh token, a new token is simply requested', async () => {
    const set = await clientCredentials({ baseUrl: emulator.baseUrl, clientId: emulator.clientId, clientSecret: emulator.clientSecret });
    const { client } = await keeperWith('clientCredentials', tokensFrom(set, Date.now()));
    await testInterface(emulator, 'POST', 'tokens/expire', {});
    await requests();
    assert.equal((await client.listSites()).length, 2);
    const log = (await testInterface(emulator, 'GET', 'requests')) as LogEntry[];
    assert.deepEqual(
      log.map((entry) => `${entry.method} ${entry.path} ${entry.status}`),
      ['GET /api/v1/site 401', 'POST /api/v1/oauth2/token 200', 'GET /api/v1/site 200'],
    );
  });

  it('a refused refresh records "expired" and asks to sign in again, naming the connection', async () => {
    const { keeper, client } = await keeperWith('authorizationCode', await codeTokens());
    await testInterface(emulator, 'POST', 'tokens/expire', { refresh_tokens: true });
    const error = await client.listSites().then(
      () => assert.fail('the call must fail'),
      (caught: unknown) => caught,
    );
    assert.ok(error instanceof SignInRequiredError);
    assert.equal(error.kind, 'http');
    assert.equal(error.status, 401);
    assert.equal(error.code, 'unauthorized');
    assert.equal(error.connectionId, 'demo');
    assert.match(error.message, /sign-in to the portal "Demo" has expired/);
    assert.equal(keeper.state(), 'expired');
    assert.deepEqual(JSON.parse((await secrets.get(secretKeys.tokens('demo'))) ?? '{}').kind, 'expired', 'no token is kept, only the fact');
    // A later call does not try the portal again: the user must sign in.
    await requests();
    await assert.rejects(client.listSites(), (caught: unknown) => caught instanceof PortalError && caught.code === 'unauthorized');
    assert.deepEqual(await requests(), []);
  });

  it('uses a refresh token rotated by another window instead of declaring the sign-in dead', async () => {
    const tokens = await codeTokens();
    const { keeper, client } = await keeperWith('authorizationCode', tokens);
    // "Another window" refreshes first and stores the rotated tokens in the shared SecretStorage.
    const other = await refresh({
      baseUrl: emulator.baseUrl,
      clientId: emulator.clientId,
      clientSecret: emulator.clientSecret,
      refreshToken: tokens.refreshToken ?? '',
    });
    await secrets.store(secretKeys.tokens('demo'), JSON.stringify({ kind: 'tokens', tokens: tokensFrom(other, Date.now()) }));
    await testInterface(emulator, 'POST', 'tokens/expire', {});
    const renewed = await refresh({
      baseUrl: emulator.baseUrl,
      clientId: emulator.clientId,
      clientSecret: emulator.clientSecret,
      refreshToken: other.refreshToken ?? '',
    });
    await secrets.store(secretKeys.tokens('demo'), JSON.stringify({ kind: 'tokens', tokens: tokensFrom(renewed, Date.now()) }));
    assert.equal((await client.listSites()).length, 2, "the keeper found the other window's tokens");
    assert.equal(keeper.state(), 'signedIn');
    assert.equal(keeper.currentAccessToken(), renewed.accessToken);
  });

  it('signed out: asks to sign in without calling the portal', async () => {
    const { keeper, client } = await keeperWith('clientCredentials');
    assert.equal(keeper.state(), 'signedOut');
    await requests();
    await assert.rejects(
      client.listSites(),
      (caught: unknown) => caught instanceof SignInRequiredError && /not signed in to the portal "Demo"/.test(caught.message),
    );
    assert.deepEqual(await requests(), []);
  });

  it('a renewal ahead of time that fails for a network reason keeps using the still-valid token', async () => {
    const tokens = await codeTokens();
    const { client } = await keeperWith('authorizationCode', {
      ...tokens,
      issuedAt: Date.now() - 3580_000,
      expiresAt: Date.now() + 20_000,
    });
    await testInterface(emulator, 'POST', 'faults', { path: 'oauth2/token', drop: true });
    await requests();
    assert.equal((await client.listSites()).length, 2);
    assert.deepEqual(await requests(), ['POST /api/v1/oauth2/token 0', 'GET /api/v1/site 200']);
  });

  it('sign out forgets the tokens', async () => {
    const { keeper } = await keeperWith('authorizationCode', await codeTokens());
    await keeper.signOut();
    assert.equal(keeper.state(), 'signedOut');
    assert.equal(await secrets.get(secretKeys.tokens('demo')), undefined);
  });
  /** A signed-in keeper whose token requests wait until `held.release()`: a renewal caught under way. */
  async function signedInWithHeldRenewal() {
    await secrets.store(secretKeys.clientSecret('demo'), emulator.clientSecret);
    const held = heldTokenAnswers();
    const keeper = new TokenKeeper({ connection: connection('authorizationCode'), secrets, fetch: held.fetch });
    const tokens = await codeTokens();
    await keeper.signedIn(tokens);
    return { held, keeper, tokens };
  }

  it('sign out while a renewal is under way leaves no token', async () => {
    const { held, keeper, tokens } = await signedInWithHeldRenewal();
    const renewal = keeper.renewAfterUnauthorized(tokens.accessToken).then(
      () => 'renewed',
      (error: unknown) => (error instanceof SignInRequiredError ? 'sign in' : String(error)),
    );
    await held.arrived;
    await keeper.signOut();
    held.release();
    assert.equal(await renewal, 'sign in', 'the renewal that outlived the sign-out hands out no token');
    assert.equal(await secrets.get(secretKeys.tokens('demo')), undefined, 'nothing was stored again');
    assert.equal(keeper.state(), 'signedOut');
    assert.equal(await keeper.load(), 'signedOut');
  });

  it("a caller's cancel does not cancel the renewal others wait for, nor lose the rotated refresh token", async () => {
    const { held, keeper, tokens } = await signedInWithHeldRenewal();
    const cancelling = new AbortController();
    const first = keeper.renewAfterUnauthorized(tokens.accessToken, cancelling.signal).then(
      () => 'renewed',
      (error: unknown) => (error instanceof PortalError ? error.kind : String(error)),
    );
    const second = keeper.renewAfterUnauthorized(tokens.accessToken);
    await held.arrived;
    cancelling.abort();
    assert.equal(await first, 'cancelled', 'the caller that cancelled stops waiting');
    held.release();
    const renewed = await second;
    assert.ok(renewed && renewed !== tokens.accessToken, 'the caller that did not cancel got the new token');
    const stored = JSON.parse((await secrets.get(secretKeys.tokens('demo'))) ?? '{}') as { tokens?: StoredTokens };
    assert.notEqual(stored.tokens?.refreshToken, tokens.refreshToken, 'the rotated refresh token was stored');
    const next = await keeper.renewAfterUnauthorized(renewed);
    assert.ok(next && next !== renewed, 'the next renewal works with the stored refresh token');
  });
  it('a sign-out in another window while this one renews leaves no token', async () => {
    const { held, keeper, tokens } = await signedInWithHeldRenewal();
    const other = new TokenKeeper({ connection: connection('authorizationCode'), secrets });
    assert.equal(await other.load(), 'signedIn');
    const renewal = keeper.renewAfterUnauthorized(tokens.accessToken).then(
      () => 'renewed',
      (error: unknown) => (error instanceof SignInRequiredError ? 'sign in' : String(error)),
    );
    await held.arrived;
    await other.signOut();
    held.release();
    assert.equal(await renewal, 'sign in', "the renewal that outlived the other window's sign-out hands out no token");
    assert.equal(await secrets.get(secretKeys.tokens('demo')), undefined, 'the signed-out sign-in was not brought back');
    assert.equal(keeper.state(), 'signedOut');
  });

  it('a new sign-in in another window while this one renews is kept, and used here', async () => {
    const { held, keeper, tokens } = await signedInWithHeldRenewal();
    const other = new TokenKeeper({ connection: connection('authorizationCode'), secrets });
    const renewal = keeper.renewAfterUnauthorized(tokens.accessToken);
    await held.arrived;
    const fresh = await codeTokens();
    await other.signedIn(fresh);
    held.release();
    assert.equal(await renewal, fresh.accessToken, "this window uses the other window's new sign-in");
    const stored = JSON.parse((await secrets.get(secretKeys.tokens('demo'))) ?? '{}') as { tokens?: StoredTokens };
    assert.equal(stored.tokens?.refreshToken, fresh.refreshToken, 'the new sign-in was not overwritten');
  });

  it('a renewal that succeeds after another window recorded "expired" stores its tokens: the sign-in lives', async () => {
    const { held, keeper, tokens } = await signedInWithHeldRenewal();
    const renewal = keeper.renewAfterUnauthorized(tokens.accessToken);
    await held.arrived;
    // The other window's refresh with the same (now rotated) token was refused: it recorded "expired".
    await secrets.store(secretKeys.tokens('demo'), JSON.stringify({ kind: 'expired', reason: 'refused' }));
    held.release();
    const renewed = await renewal;
    assert.ok(renewed && renewed !== tokens.accessToken);
    const stored = JSON.parse((await secrets.get(secretKeys.tokens('demo'))) ?? '{}') as { kind?: string; tokens?: StoredTokens };
    assert.equal(stored.kind, 'tokens', 'the working tokens replaced the other window\'s "expired"');
  });

  it('removing the portal (dispose) while a renewal is under way stores nothing again', async () => {
    const { held, keeper, tokens } = await signedInWithHeldRenewal();
    const renewal = keeper.renewAfterUnauthorized(tokens.accessToken).then(
      () => 'renewed',
      (error: unknown) => (error instanceof SignInRequiredError ? 'sign in' : String(error)),
    );
    await held.arrived;
    keeper.dispose();
    await secrets.delete(secretKeys.tokens('demo'));
    held.release();
    assert.equal(await renewal, 'sign in');
    assert.equal(await secrets.get(secretKeys.tokens('demo')), undefined, 'nothing was stored again');
  });
});
