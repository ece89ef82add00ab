// Plain http:// to another machine (issue 30, item 7): the client secret, the codes and the tokens would
// cross the network in clear text, so the API layer refuses such a portal unless the connection carries the
// user's confirmation, and loopback addresses (this machine, the emulator) are never refused. The refusal
// is checked against a real server listening on one of this machine's non-loopback addresses, when it has
// one: nothing may reach it before the user said yes.
import * as assert from 'node:assert/strict';
import { PortalClient } from '../../../src/api/client';
import { PortalError } from '../../../src/api/errors';
import { authorizeUrl, clientCredentials, exchangeCode, refresh } from '../../../src/api/oauth';
import { exposesInClearText, isLoopbackHost, portalBase } from '../../../src/api/urls';
import { OTHER_HOST_NAME, startOtherHost, type OtherHost } from '../support/otherHost';

function refusesPlainHttp(host: string): (error: unknown) => boolean {
  return (error: unknown) => {
    assert.ok(error instanceof PortalError, String(error));
    assert.equal(error.code, 'plain_http');
    assert.equal(error.kind, 'invalid-input');
    assert.ok(error.message.includes(`http://${host}`), error.message);
    assert.match(error.message, /client secret/);
    assert.match(error.message, /clear text/);
    return true;
  };
}

describe('plain http:// portals (issue 30)', () => {
  it('knows the loopback hosts: localhost, 127.0.0.0/8, ::1, as URLs spell them', () => {
    for (const host of [
      'localhost',
      'LOCALHOST',
      'portal.localhost',
      '127.0.0.1',
      '127.4.5.6',
      '[::1]',
      '::1',
      '[::ffff:7f00:1]',
      '::ffff:127.0.0.1',
    ]) {
      assert.equal(isLoopbackHost(host), true, host);
    }
    for (const host of [
      'portal.example.com',
      'localhost.example.com',
      '192.168.1.4',
      '10.0.0.1',
      '0.0.0.0',
      '[::]',
      '[fd00::2]',
      '128.0.0.1',
      '[::ffff:c0a8:104]',
    ]) {
      assert.equal(isLoopbackHost(host), false, host);
    }
  });

  it('tells which base URLs expose the secrets: http:// to another machine, not https:// nor loopback', () => {
    assert.equal(exposesInClearText(new URL('http://portal.example.com')), true);
    assert.equal(exposesInClearText(new URL('http://192.168.1.4:8080/sub')), true);
    assert.equal(exposesInClearText(new URL('https://portal.example.com')), false);
    assert.equal(exposesInClearText(new URL('http://127.0.0.1:3000')), false);
    assert.equal(exposesInClearText(new URL('http://localhost:3000')), false);
    assert.equal(exposesInClearText(new URL('http://[::1]:3000')), false);
  });

  it('refuses such a base URL unless the connection carries the confirmation', () => {
    assert.throws(() => portalBase('http://portal.example.com/api/v1', false), refusesPlainHttp('portal.example.com'));
    assert.equal(portalBase('http://portal.example.com/api/v1', true).href, 'http://portal.example.com/');
    assert.equal(portalBase('https://portal.example.com', false).href, 'https://portal.example.com/');
    assert.equal(portalBase('http://127.0.0.1:3000', false).href, 'http://127.0.0.1:3000/');
    assert.throws(
      () => authorizeUrl({ baseUrl: 'http://portal.example.com', clientId: 'c', state: 's' }),
      refusesPlainHttp('portal.example.com'),
    );
    assert.throws(
      () =>
        new PortalClient({
          baseUrl: 'http://portal.example.com',
          tokens: { accessToken: async () => 't', renewAfterUnauthorized: async () => undefined },
        }),
      refusesPlainHttp('portal.example.com'),
    );
  });

  describe(`against a server at this machine's host name (${OTHER_HOST_NAME})`, () => {
    let other: OtherHost;
    before(async () => {
      other = await startOtherHost((request, response) => {
        response.setHeader('Content-Type', 'application/json');
        if ((request.url ?? '').endsWith('/oauth2/token'))
          response.end(JSON.stringify({ access_token: 'a', expires_in: 60, token_type: 'Bearer', scope: null }));
        else response.end(JSON.stringify([]));
      });
    });
    after(() => other.close());
    beforeEach(() => {
      other.seen.length = 0;
    });

    const host = (): string => other.base.slice('http://'.length);
    const tokens = { accessToken: async () => 'access-token', renewAfterUnauthorized: async () => undefined };

    it('sends no token call there without the confirmation', async () => {
      const common = { baseUrl: other.base, clientId: 'c', clientSecret: 'the-secret' };
      await assert.rejects(clientCredentials(common), refusesPlainHttp(host()));
      await assert.rejects(refresh({ ...common, refreshToken: 'r' }), refusesPlainHttp(host()));
      await assert.rejects(exchangeCode({ ...common, code: 'code' }), refusesPlainHttp(host()));
      assert.deepEqual(other.seen, []);
    });

    it('sends them, and the client’s calls, once the user confirmed for this portal', async () => {
      const common = { baseUrl: other.base, clientId: 'c', clientSecret: 'the-secret', allowPlainHttp: true };
      assert.equal((await clientCredentials(common)).accessToken, 'a');
      assert.deepEqual(await new PortalClient({ baseUrl: other.base, tokens, allowPlainHttp: true }).listSites(), []);
      assert.deepEqual(
        other.seen.map((line) => line.split(' ').slice(0, 2).join(' ')),
        ['POST /api/v1/oauth2/token', 'GET /api/v1/site'],
      );
    });
  });
});
