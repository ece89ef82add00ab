// Every way a call can fail, against the emulator: tokens (none, expired, renewal refused), HTTP errors in
// the three error body styles, 5xx, malformed bodies, timeouts, dropped connections and cancellation, and
// that no message or log entry carries a token or the client secret.
import * as assert from 'node:assert/strict';
import { PortalClient } from '../../../src/api/client';
import type { PortalError } from '../../../src/api/errors';
import { CredentialsTokens, clientFor, configure, injectFault, rejectsWith, startPortal, testInterface, type Emulator } from './portal';

const CUSTOMERS = '101';
const KNOWLEDGE_BASE = '202';

describe('PortalClient errors against the emulator', function () {
  let emulator: Emulator;
  /** Everything thrown or logged in this suite, checked for secrets at the end. */
  const seen: string[] = [];
  const setups: Array<ReturnType<typeof clientFor>> = [];

  before(async () => {
    emulator = await startPortal();
  });
  afterEach(async () => {
    await testInterface(emulator, 'DELETE', 'faults');
    await configure(emulator, { errorStyle: 'nested' });
  });
  after(() => emulator.close());

  function setup(options: Parameters<typeof clientFor>[1] = {}): ReturnType<typeof clientFor> {
    const made = clientFor(emulator, options);
    setups.push(made);
    return made;
  }

  async function failure(promise: Promise<unknown>, expected: Parameters<typeof rejectsWith>[1]): Promise<PortalError> {
    const error = await rejectsWith(promise, expected);
    seen.push(error.message, error.portalMessage ?? '', JSON.stringify(error), String(error.stack));
    return error;
  }

  describe('tokens', () => {
    it('without a token: asks for a new one once, then fails as unauthorized', async () => {
      const requests: unknown[] = [];
      let renewals = 0;
      const client = new PortalClient({
        baseUrl: emulator.baseUrl,
        tokens: {
          accessToken: async () => '',
          renewAfterUnauthorized: async () => {
            renewals += 1;
            return undefined;
          },
        },
        onRequest: (entry) => requests.push(entry),
      });
      const error = await failure(client.listSites(), { kind: 'http', status: 401, code: 'unauthorized', verdict: 'refused' });
      assert.equal(renewals, 1);
      assert.equal(requests.length, 1);
      assert.match(error.portalMessage ?? '', /access token is required/);
    });

    it('a token source that fails becomes unauthorized too', async () => {
      const client = new PortalClient({
        baseUrl: emulator.baseUrl,
        tokens: {
          accessToken: async () => Promise.reject(new Error('Not signed in')),
          renewAfterUnauthorized: async () => undefined,
        },
      });
      const error = await failure(client.listSites(), { kind: 'http', status: 401, code: 'unauthorized' });
      assert.match(error.message, /not signed in/i);
    });

    it('an expired token is renewed once and the call succeeds', async () => {
      const { client, tokens, requests } = setup();
      await client.listSites();
      await testInterface(emulator, 'POST', 'tokens/expire', {});
      const sites = await client.listSites();
      assert.equal(sites.length, 2);
      assert.equal(tokens.renewals, 1);
      assert.deepEqual(
        requests.map((entry) => entry.status),
        [200, 401, 200],
      );
    });

    it('an upload refused for an expired token is sent again in full after the renewal', async () => {
      const { client, tokens } = setup();
      await client.listSites();
      await testInterface(emulator, 'POST', 'tokens/expire', {});
      const content = Buffer.alloc(200 * 1024, 7);
      const starts: number[] = [];
      let last = 0;
      await client.addAttachment(
        CUSTOMERS,
        '4',
        { fileName: 'again.bin', contentType: 'application/octet-stream', content },
        {
          onProgress: (sent, total) => {
            if (sent === 0) starts.push(total);
            last = sent;
          },
        },
      );
      assert.equal(tokens.renewals, 1);
      assert.equal(starts.length, 2, 'progress started over for the retry');
      assert.equal(last, starts[1]);
      const stored = (await testInterface(emulator, 'GET', `records/${CUSTOMERS}/4`)) as {
        attachments: Array<{ file_name: string; size: number }>;
      };
      assert.deepEqual(
        stored.attachments.map((file) => [file.file_name, file.size]),
        [['again.bin', content.length]],
      );
    });

    it('when renewal gives up, or gives a token that fails again, the call fails as unauthorized', async () => {
      for (const renew of ['give-up', 'stale'] as const) {
        const tokens = new CredentialsTokens(emulator, renew);
        const { client, requests } = setup({ tokens });
        await client.listSites();
        await testInterface(emulator, 'POST', 'tokens/expire', {});
        await failure(client.listSites(), { kind: 'http', status: 401, code: 'unauthorized' });
        assert.equal(tokens.renewals, 1, `${renew}: renewed once`);
        assert.equal(requests.filter((entry) => entry.status === 401).length, renew === 'stale' ? 2 : 1, `${renew}: retried at most once`);
      }
    });
  });

  for (const style of ['nested', 'flat', 'text'] as const) {
    describe(`HTTP errors, error style "${style}"`, () => {
      beforeEach(() => configure(emulator, { errorStyle: style }));

      it('404 for an unknown record or app', async () => {
        const { client } = setup();
        const error = await failure(client.readRecord(CUSTOMERS, '999999'), {
          kind: 'http',
          status: 404,
          code: 'not_found',
          verdict: 'refused',
        });
        assert.match(error.portalMessage ?? '', /999999/);
        assert.match(error.message, /Reading record 999999 of app 101 failed/);
        await failure(client.listColumns('4242'), { status: 404, code: 'not_found' });
      });

      it('400 naming the field at fault', async () => {
        const { client } = setup();
        const error = await failure(client.updateRecord(CUSTOMERS, '1', { f3: 'ok@example.com', f9: '2026-11-21' }), {
          kind: 'http',
          status: 400,
          field: 'f9',
          verdict: 'refused',
        });
        assert.equal(error.code, style === 'text' ? 'invalid_request' : 'invalid_value');
        assert.match(error.portalMessage ?? '', /DD-MM-YYYY/);
        await failure(client.createRecord(CUSTOMERS, { f3: 'x@example.com' }), { status: 400, field: 'f2' });
      });

      it('403 when the comments plugin is off', async () => {
        const { client } = setup();
        await failure(client.addComment(KNOWLEDGE_BASE, '1', 'hello'), { kind: 'http', status: 403, code: 'comments_disabled' });
      });

      it('404 no_attachment', async () => {
        const { client } = setup();
        await failure(client.downloadAttachment(KNOWLEDGE_BASE, '1'), { kind: 'http', status: 404, code: 'no_attachment' });
      });

      it('5xx may have been done', async () => {
        const { client } = setup();
        await injectFault(emulator, { path: '^/api/v1/site$', status: 503 });
        await failure(client.listSites(), {
          kind: 'http',
          status: 503,
          verdict: 'may-have-been-done',
          code: style === 'text' ? 'server_error' : 'injected_fault',
        });
        assert.equal((await client.listSites()).length, 2, 'the fault was used up');
      });
    });
  }

  it('reads error bodies of other shapes a real portal or a proxy may send', async () => {
    const { client } = setup();
    await injectFault(emulator, {
      path: '^/api/v1/site$',
      status: 502,
      body: '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>',
    });
    let error = await failure(client.listSites(), { kind: 'http', status: 502, verdict: 'may-have-been-done' });
    assert.match(error.portalMessage ?? '', /502 Bad Gateway/);
    await injectFault(emulator, { path: '^/api/v1/site$', status: 429, body: { message: 'Slow down', retry_after: 3 } });
    error = await failure(client.listSites(), { kind: 'http', status: 429, verdict: 'not-taken', code: 'rate_limited' });
    assert.equal(error.portalMessage, 'Slow down');
    await injectFault(emulator, { path: '^/api/v1/site$', status: 400, body: { errors: [{ field: 'f2', message: 'Name is bad' }] } });
    await failure(client.listSites(), { status: 400, field: 'f2' });
    await injectFault(emulator, { path: '^/api/v1/site$', status: 500, body: '' });
    await failure(client.listSites(), { status: 500, verdict: 'may-have-been-done', code: 'server_error' });
  });

  it('carries Retry-After of a 429 or 503 (seconds or an HTTP date) as retryAfterMs', async () => {
    const { client } = setup();
    await injectFault(emulator, { path: '^/api/v1/site$', status: 429, headers: { 'Retry-After': '3' } });
    let error = await failure(client.listSites(), { status: 429 });
    assert.equal(error.retryAfterMs, 3000);
    const inFiveSeconds = new Date(Date.now() + 5000).toUTCString();
    await injectFault(emulator, { path: '^/api/v1/site$', status: 503, headers: { 'Retry-After': inFiveSeconds } });
    error = await failure(client.listSites(), { status: 503 });
    assert.ok(error.retryAfterMs !== undefined && error.retryAfterMs > 3000 && error.retryAfterMs <= 5000, String(error.retryAfterMs));
    await injectFault(emulator, { path: '^/api/v1/site$', status: 429, headers: { 'Retry-After': 'soon' } });
    error = await failure(client.listSites(), { status: 429 });
    assert.equal(error.retryAfterMs, undefined, 'an unreadable Retry-After is no instruction');
  });

  it('a malformed body is an invalid response', async () => {
    const { client } = setup();
    await injectFault(emulator, { path: '^/api/v1/app/101/view/1$', malformed: true });
    const error = await failure(client.readView(CUSTOMERS, '1'), { kind: 'invalid-response', verdict: 'taken' });
    assert.match(error.message, /not JSON/);
  });

  it('a documented field missing is an invalid response that names it', async () => {
    const { client } = setup();
    await injectFault(emulator, { path: '^/api/v1/app/101/record/1$', status: 200, body: { metadata: [] } });
    const error = await failure(client.readRecord(CUSTOMERS, '1'), { kind: 'invalid-response' });
    assert.match(error.message, /no "data"/);
    await injectFault(emulator, { path: '^/api/v1/site$', status: 200, body: [{ name: 'No id', apps: [] }] });
    assert.match((await failure(client.listSites(), { kind: 'invalid-response' })).message, /site 1 has no "id"/);
  });

  it('a slow answer times out: may have been done', async () => {
    const { client } = setup({ timeoutMs: 300 });
    await client.listSites(); // the token first, so only the data call is slow
    await injectFault(emulator, { path: '^/api/v1/site$', latency_ms: 2000 });
    const started = Date.now();
    const error = await failure(client.listSites(), { kind: 'timeout', verdict: 'may-have-been-done' });
    assert.ok(Date.now() - started < 1900, 'it gave up before the answer came');
    assert.match(error.message, /did not answer within 0\.3 s/);
  });

  it('a dropped connection is a network error: may have been done', async () => {
    const { client, requests } = setup();
    await client.listSites();
    await injectFault(emulator, { path: '^/api/v1/site$', drop: true });
    await failure(client.listSites(), { kind: 'network', verdict: 'may-have-been-done' });
    assert.equal(requests[requests.length - 1].status, 'error');
  });

  it('a refused connection is a network error', async () => {
    const closed = await startPortal();
    const { baseUrl } = closed;
    await closed.close();
    // A fixed token: nothing may reach the closed port before the data call.
    const client = new PortalClient({
      baseUrl,
      tokens: { accessToken: async () => 'tok-unused-0001', renewAfterUnauthorized: async () => undefined },
    });
    const error = await failure(client.listSites(), { kind: 'network', verdict: 'not-taken', code: 'ECONNREFUSED' });
    assert.ok(error.message.includes(new URL(baseUrl).host));
    assert.match(error.message, /refused/);
  });

  it('cancellation by AbortSignal is kind cancelled, before or during the call', async () => {
    const { client } = setup();
    await client.listSites();
    const before = new AbortController();
    before.abort();
    await failure(client.listSites(before.signal), { kind: 'cancelled', verdict: 'cancelled' });

    await injectFault(emulator, { path: '^/api/v1/site$', latency_ms: 2000 });
    const during = new AbortController();
    setTimeout(() => during.abort(), 100);
    const started = Date.now();
    await failure(client.listSites(during.signal), { kind: 'cancelled' });
    assert.ok(Date.now() - started < 1900);
  });

  // Last: mocha runs a suite's own tests before its child suites, and this one checks what all of them saw.
  describe('secrets', () => {
    it('no message, error or request log entry carries a token or the secret', () => {
      seen.push(...setups.flatMap((made) => made.requests.map((entry) => JSON.stringify(entry))));
      const secrets = [emulator.clientSecret, ...setups.flatMap((made) => made.tokens.issued)];
      assert.ok(secrets.length > 3 && seen.length > 20, 'the suite saw tokens and errors');
      for (const text of seen) {
        for (const secret of secrets) assert.ok(!text.includes(secret), `leaked in: ${text.slice(0, 200)}`);
        assert.ok(!/bearer\s+[A-Za-z0-9._~+/=-]{8,}/i.test(text), `looks like a credential: ${text.slice(0, 200)}`);
      }
    });
  });

  it('refuses an id that is a path step ("." or ".."), which would reach another address: nothing is sent', async () => {
    const { client, requests } = setup();
    for (const recordId of ['..', '.']) {
      const error = await rejectsWith(client.readRecord(CUSTOMERS, recordId), { kind: 'invalid-input' });
      assert.match(error.message, /is not a valid record id/);
    }
    await rejectsWith(client.updateRecord('..', '1', { f2: 'x' }), { kind: 'invalid-input' });
    await rejectsWith(client.readRecord('', '1'), { kind: 'invalid-input' });
    assert.deepEqual(requests, [], 'no request went out');
    assert.equal((await client.readRecord(CUSTOMERS, '1')).data.f2 !== undefined, true, 'an ordinary id still works');
  });
});
