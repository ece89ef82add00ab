// The user's "yes" to plain http:// for one portal (issue 30, item 7) is remembered with the connection and
// is what lets its token renewals go out; a connection without it renews nothing over plain http:// to
// another machine. A small server on one of this machine's non-loopback addresses stands for such a
// portal's token endpoint and records what reached it.
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { PortalError } from '../../../src/api/errors';
import { ConnectionStore } from '../../../src/auth/connectionStore';
import type { PortalConnection } from '../../../src/auth/portals';
import { secretKeys } from '../../../src/auth/secretKeys';
import { tokensFrom } from '../../../src/auth/storedTokens';
import { TokenKeeper } from '../../../src/auth/tokenKeeper';
import { OTHER_HOST_NAME, startOtherHost, type OtherHost } from '../support/otherHost';
import { MapSecrets } from '../support/secrets';

/** Global state's interface over a Map. */
class MapMemento implements vscode.Memento {
  private readonly values = new Map<string, unknown>();
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
  get<T>(key: string, defaultValue?: T): T | undefined {
    return this.values.has(key) ? (this.values.get(key) as T) : defaultValue;
  }
  async update(key: string, value: unknown): Promise<void> {
    this.values.set(key, value);
  }
}

describe('a plain http:// connection (issue 30)', () => {
  it('is stored with its confirmation, in its place, and read back with it', async () => {
    const store = new ConnectionStore(new MapMemento());
    const plain: PortalConnection = {
      id: 'plain',
      label: 'Plain',
      baseUrl: 'http://portal.example.com',
      clientId: 'c',
      flow: 'clientCredentials',
    };
    await store.add(plain);
    await store.add({ id: 'other', label: 'Other', baseUrl: 'https://other.example.com', clientId: 'c', flow: 'clientCredentials' });
    assert.equal(store.list()[0].allowPlainHttp, undefined);
    await store.add({ ...plain, allowPlainHttp: true });
    assert.deepEqual(
      store.list().map((connection) => [connection.id, connection.allowPlainHttp]),
      [
        ['plain', true],
        ['other', undefined],
      ],
    );
  });

  describe(`its token renewals, against a server at ${OTHER_HOST_NAME}`, () => {
    let host: OtherHost;
    before(async () => {
      host = await startOtherHost((_request, response) => {
        response.setHeader('Content-Type', 'application/json');
        response.end(
          JSON.stringify({ access_token: 'renewed', expires_in: 3600, token_type: 'Bearer', scope: null, refresh_token: 'next' }),
        );
      });
    });
    after(() => host.close());
    beforeEach(() => {
      host.seen.length = 0;
    });

    async function keeperFor(allowPlainHttp: boolean): Promise<TokenKeeper> {
      const secrets = new MapSecrets();
      await secrets.store(secretKeys.clientSecret('plain'), 'the-client-secret');
      const connection: PortalConnection = {
        id: 'plain',
        label: 'Plain',
        baseUrl: host.base,
        clientId: 'c',
        flow: 'authorizationCode',
        ...(allowPlainHttp ? { allowPlainHttp: true as const } : {}),
      };
      const keeper = new TokenKeeper({ connection, secrets });
      await keeper.signedIn(
        tokensFrom(
          { accessToken: 'old', refreshToken: 'the-refresh-token', expiresAt: Date.now() + 3_600_000, tokenType: 'Bearer' },
          Date.now(),
        ),
      );
      return keeper;
    }

    it('sends no refresh without the confirmation', async () => {
      const keeper = await keeperFor(false);
      await assert.rejects(
        keeper.renewAfterUnauthorized('old'),
        (error: unknown) => error instanceof PortalError && error.code === 'plain_http',
      );
      assert.deepEqual(host.seen, []);
    });

    it('refreshes with it', async () => {
      const keeper = await keeperFor(true);
      assert.equal(await keeper.renewAfterUnauthorized('old'), 'renewed');
      assert.equal(host.seen.length, 1);
      assert.match(host.seen[0], /^POST \/api\/v1\/oauth2\/token .*refresh_token=the-refresh-token/);
    });
  });
});
