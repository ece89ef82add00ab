// The authorization code flow of the auth layer against the emulator, with the real loopback listener:
// the authorize URL's parameters, approval in the "browser", state checked, code exchanged; and the
// failures the user must see clearly: denied, state mismatch, expired code, wrong secret, no portal,
// timeout and cancel, each leaving the listener closed.
import * as assert from 'node:assert/strict';
import { createServer } from 'node:net';
import nodeFetch from 'node-fetch';
import { PortalClient } from '../../../src/api/client';
import { PortalError } from '../../../src/api/errors';
import { authorizationCodeSignIn, verifyClient } from '../../../src/auth/authorizationCode';
import { startLoopbackReceiver } from '../../../src/auth/loopbackReceiver';
import type { RedirectReceiver } from '../../../src/auth/redirectReceiver';
import { configure, rejectsWith, startPortal, testInterface, type Emulator } from '../api/portal';
import { browserRedirect } from './browser';

/** A port nothing listens on: bound, noted, released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('authorization code sign-in with the loopback listener, against the emulator', () => {
  let emulator: Emulator;
  let receivers: RedirectReceiver[];
  let pages: Array<{ status: number; html: string }>;

  before(async () => {
    emulator = await startPortal();
  });
  after(() => emulator.close());
  beforeEach(async () => {
    await testInterface(emulator, 'POST', 'reset');
    receivers = [];
    pages = [];
  });

  /** The browser: opens the authorize URL, decides, follows the redirect to the loopback listener. */
  function browser(decision: 'approve' | 'deny' = 'approve', tamper: (location: string) => string = (location) => location) {
    return async (url: string): Promise<boolean> => {
      // Not awaited: the browser acts while the sign-in waits for its redirect, as a real one does; the test
      // reads what it got from `pages`, and a failure here is an unhandled rejection, which fails the run.
      void (async () => {
        const location = tamper(await browserRedirect(url, decision));
        const page = await nodeFetch(location);
        pages.push({ status: page.status, html: await page.text() });
      })();
      return true;
    };
  }

  function signIn(options: {
    openBrowser: (url: string) => Promise<boolean>;
    signal?: AbortSignal;
    timeoutMs?: number;
    clientSecret?: string;
    baseUrl?: string;
  }) {
    return authorizationCodeSignIn({
      baseUrl: options.baseUrl ?? emulator.baseUrl,
      clientId: emulator.clientId,
      clientSecret: options.clientSecret ?? emulator.clientSecret,
      signal: options.signal ?? new AbortController().signal,
      timeoutMs: options.timeoutMs,
      openBrowser: options.openBrowser,
      openReceiver: async (state) => {
        const receiver = await startLoopbackReceiver({ expectedState: state });
        receivers.push(receiver);
        return receiver;
      },
    });
  }

  async function listenerClosed(): Promise<void> {
    for (const receiver of receivers) {
      await assert.rejects(nodeFetch(receiver.redirectUri), /ECONNREFUSED/, `${receiver.redirectUri} is closed`);
    }
  }

  it('approving in the browser gives tokens; the authorize URL carries client_id, code, state and PKCE', async () => {
    let opened = '';
    const tokens = await signIn({
      openBrowser: async (url) => {
        opened = url;
        return browser()(url);
      },
    });
    const query = new URL(opened).searchParams;
    assert.equal(query.get('client_id'), emulator.clientId);
    assert.equal(query.get('response_type'), 'code');
    assert.match(query.get('state') ?? '', /^[A-Za-z0-9_-]{43}$/);
    assert.match(query.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/);
    assert.equal(query.get('code_challenge_method'), 'S256');
    assert.match(query.get('redirect_uri') ?? '', /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    assert.ok(tokens.refreshToken, 'a refresh token');
    const client = new PortalClient({
      baseUrl: emulator.baseUrl,
      tokens: { accessToken: async () => tokens.accessToken, renewAfterUnauthorized: async () => undefined },
    });
    assert.equal((await client.listSites()).length, 2);
    assert.equal(pages[0]?.status, 200);
    assert.match(pages[0]?.html ?? '', /You can close this tab/);
    await listenerClosed();
  });

  it('two sign-ins use two different states', async () => {
    const states: string[] = [];
    const capture = async (url: string): Promise<boolean> => {
      states.push(new URL(url).searchParams.get('state') ?? '');
      return browser()(url);
    };
    await signIn({ openBrowser: capture });
    await signIn({ openBrowser: capture });
    assert.equal(new Set(states).size, 2);
  });

  it('Deny in the browser is refused with a clear message', async () => {
    const error = await rejectsWith(signIn({ openBrowser: browser('deny') }), { code: 'access_denied' });
    assert.match(error.message, /access was denied/);
    await listenerClosed();
  });

  it('a call-back with another state is answered 400 and does not end the sign-in: its own answer still signs in', async () => {
    const tokens = await signIn({
      openBrowser: async (url) => {
        // Not awaited: the browser acts while the sign-in waits for its redirect; the test reads `pages`.
        void (async () => {
          const location = await browserRedirect(url, 'approve');
          const forged = new URL(location);
          forged.searchParams.set('state', 'forged-state');
          forged.searchParams.set('code', 'forged-code');
          const refused = await nodeFetch(forged.href);
          pages.push({ status: refused.status, html: await refused.text() });
          const genuine = await nodeFetch(location);
          pages.push({ status: genuine.status, html: await genuine.text() });
        })();
        return true;
      },
    });
    assert.ok(tokens.accessToken, 'signed in with the answer that carries its own state');
    assert.equal(pages[0]?.status, 400);
    assert.match(pages[0]?.html ?? '', /state mismatch/);
    await listenerClosed();
  });

  it('a call-back with an error and no state does not end the sign-in', async () => {
    const controller = new AbortController();
    const signingIn = signIn({
      signal: controller.signal,
      openBrowser: async (url) => {
        // Not awaited: a page's request arrives while the sign-in waits; the test reads `pages`.
        void (async () => {
          const redirect = new URL(new URL(url).searchParams.get('redirect_uri') ?? '');
          redirect.search = '?error=access_denied&error_description=Call%20evil.example';
          const refused = await nodeFetch(redirect.href);
          pages.push({ status: refused.status, html: await refused.text() });
          controller.abort();
        })();
        return true;
      },
    });
    const error = await rejectsWith(signingIn, { kind: 'cancelled' });
    assert.doesNotMatch(error.message, /evil/);
    assert.equal(pages[0]?.status, 400);
  });

  it('an expired code is refused with a message that says to start again', async () => {
    await configure(emulator, { codeLifetimeSeconds: 0 });
    const error = await rejectsWith(signIn({ openBrowser: browser() }), { code: 'invalid_grant' });
    assert.match(error.message, /used already or expired/);
  });

  it('times out when the browser never answers, and closes the listener', async () => {
    const error = await rejectsWith(signIn({ openBrowser: async () => true, timeoutMs: 300 }), {
      kind: 'timeout',
      code: 'sign_in_timeout',
    });
    assert.match(error.message, /Nothing was stored/);
    await listenerClosed();
  });

  it('cancel ends the wait as a cancellation and closes the listener', async () => {
    const controller = new AbortController();
    const pending = signIn({ openBrowser: async () => (setTimeout(() => controller.abort(), 100), true), signal: controller.signal });
    await rejectsWith(pending, { kind: 'cancelled' });
    await listenerClosed();
  });

  it("verifyClient: the right client passes; a wrong secret shows the portal's error_description", async () => {
    await verifyClient({ baseUrl: emulator.baseUrl, clientId: emulator.clientId, clientSecret: emulator.clientSecret });
    const error = await rejectsWith(
      verifyClient({ baseUrl: emulator.baseUrl, clientId: emulator.clientId, clientSecret: 'wrong-secret' }),
      { code: 'invalid_client' },
    );
    assert.ok(error.portalMessage, 'the portal said why');
    assert.ok(error.message.includes(error.portalMessage ?? ''), 'and the message shows it');
    assert.ok(!error.message.includes('wrong-secret'));
  });

  it('verifyClient: no portal at the address, or no API under it', async () => {
    const port = await closedPort();
    const error = await rejectsWith(verifyClient({ baseUrl: `http://127.0.0.1:${port}`, clientId: 'x', clientSecret: 'y' }), {
      kind: 'network',
    });
    assert.match(error.message, /could not reach the portal/);
    const notFound = await rejectsWith(verifyClient({ baseUrl: `${emulator.baseUrl}/not-the-portal`, clientId: 'x', clientSecret: 'y' }), {
      status: 404,
    });
    assert.match(notFound.message, /No portal API answers/);
  });

  it('the loopback listener answers 404 elsewhere and refuses a busy configured port', async () => {
    const receiver = await startLoopbackReceiver({ expectedState: 's' });
    receivers.push(receiver);
    const other = await nodeFetch(receiver.redirectUri.replace('/callback', '/favicon.ico'));
    assert.equal(other.status, 404);
    const port = Number(new URL(receiver.redirectUri).port);
    await assert.rejects(
      startLoopbackReceiver({ expectedState: 's', port }),
      (error: unknown) => error instanceof PortalError && /port \d+ on 127\.0\.0\.1 is in use/.test(error.message),
    );
    receiver.dispose();
    await listenerClosed();
  });
});
