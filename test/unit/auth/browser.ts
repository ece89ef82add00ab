// The browser's part of the authorization code flow, for unit tests: the portal's authorize page is
// opened, approved (auto-approve or the Approve button's form post) and its redirect read. The emulator
// answers every request; nothing stands in for it.
import * as assert from 'node:assert/strict';
import nodeFetch from 'node-fetch';
import { authorizeUrl, createPkce, createState, exchangeCode, parseRedirect, type TokenSet } from '../../../src/api/oauth';
import type { Emulator } from '../api/portal';

export const LOOPBACK_REDIRECT = 'http://127.0.0.1:33333/callback';

/** Opens `url` like a browser and returns where the portal redirects it (after `decision`). */
export async function browserRedirect(url: string, decision: 'approve' | 'deny' = 'approve'): Promise<string> {
  const first = await nodeFetch(url, { redirect: 'manual' });
  if (first.status === 302) return first.headers.get('location') ?? '';
  const html = await first.text();
  assert.equal(first.status, 200, `the authorize page: ${html.slice(0, 200)}`);
  const requestId = /name="request_id" value="([^"]+)"/.exec(html)?.[1];
  assert.ok(requestId, 'the approval form');
  const answered = await nodeFetch(new URL('authorize', url).href, {
    method: 'POST',
    redirect: 'manual',
    body: new URLSearchParams({ request_id: requestId, decision }),
  });
  assert.equal(answered.status, 302);
  return answered.headers.get('location') ?? '';
}

/** A whole authorization code sign-in with state and PKCE, for tests that need real tokens. */
export async function signInWithCode(emulator: Emulator): Promise<TokenSet> {
  const state = createState();
  const pkce = createPkce();
  const location = await browserRedirect(
    authorizeUrl({ baseUrl: emulator.baseUrl, clientId: emulator.clientId, redirectUri: LOOPBACK_REDIRECT, state, pkce }),
  );
  const { code } = parseRedirect(location, state);
  return exchangeCode({
    baseUrl: emulator.baseUrl,
    clientId: emulator.clientId,
    clientSecret: emulator.clientSecret,
    code,
    redirectUri: LOOPBACK_REDIRECT,
    codeVerifier: pkce.verifier,
  });
}
