// The authorization code flow from start to tokens: a fresh state and PKCE pair, the authorize URL opened
// in the browser, the redirect received (URI handler or loopback), the state checked, the code exchanged.
// Nothing is stored here: the caller stores the tokens only when this resolves. A time limit (5 minutes
// by default) and the caller's signal (Cancel) end the wait. No `vscode` import.
import { PortalError } from '../api/errors';
import type { FetchLike, RequestLogEntry } from '../api/http';
import { authorizeUrl, createPkce, createState, exchangeCode, parseRedirect, type TokenSet } from '../api/oauth';
import type { RedirectReceiver } from './redirectReceiver';

export const SIGN_IN_TIMEOUT_MS = 5 * 60_000;

export interface AuthorizationCodeOptions {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Starts listening for the answer that carries `state`. */
  openReceiver(state: string): Promise<RedirectReceiver>;
  /** Opens the authorize URL in the user's browser; false when it could not be opened. */
  openBrowser(url: string): Promise<boolean>;
  /** Aborted when the user cancels. */
  signal: AbortSignal;
  timeoutMs?: number;
  fetch?: FetchLike;
  /** Called once per token request (the request log). */
  onRequest?: (entry: RequestLogEntry) => void;
  /** The user confirmed plain http:// for this portal (api/urls.ts, portalBase). */
  allowPlainHttp?: boolean;
}

function minutes(ms: number): string {
  return ms >= 60_000 ? `${Math.round(ms / 60_000)} minute${ms >= 120_000 ? 's' : ''}` : `${Math.round(ms / 1000)} seconds`;
}

export async function authorizationCodeSignIn(options: AuthorizationCodeOptions): Promise<TokenSet> {
  const timeoutMs = options.timeoutMs ?? SIGN_IN_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([options.signal, timeout]);
  const ended = (error: unknown): PortalError => {
    if (options.signal.aborted) return new PortalError({ kind: 'cancelled', message: 'Sign-in was cancelled.', cause: error });
    if (timeout.aborted) {
      return new PortalError({
        kind: 'timeout',
        code: 'sign_in_timeout',
        message: `Sign-in timed out: no answer came back from the browser within ${minutes(timeoutMs)}. Nothing was stored; start the sign-in again.`,
        cause: error,
      });
    }
    return error instanceof PortalError
      ? error
      : new PortalError({ kind: 'network', message: `Sign-in failed: ${String(error)}`, cause: error });
  };

  const state = createState();
  const pkce = createPkce();
  const receiver = await options.openReceiver(state);
  try {
    const url = authorizeUrl({
      baseUrl: options.baseUrl,
      clientId: options.clientId,
      redirectUri: receiver.redirectUri,
      state,
      pkce,
      allowPlainHttp: options.allowPlainHttp,
    });
    if (!(await options.openBrowser(url))) {
      throw new PortalError({ kind: 'cancelled', message: 'Sign-in was cancelled: the browser was not opened.' });
    }
    let redirected: string;
    try {
      redirected = await receiver.wait(signal);
    } catch (error) {
      throw ended(error);
    }
    const { code } = parseRedirect(redirected, state);
    try {
      return await exchangeCode({
        baseUrl: options.baseUrl,
        clientId: options.clientId,
        clientSecret: options.clientSecret,
        code,
        redirectUri: receiver.redirectUri,
        codeVerifier: pkce.verifier,
        allowPlainHttp: options.allowPlainHttp,
        fetch: options.fetch,
        signal,
        onRequest: options.onRequest,
      });
    } catch (error) {
      if (error instanceof PortalError && error.code === 'invalid_grant') {
        throw new PortalError({
          kind: 'http',
          status: error.status,
          code: 'invalid_grant',
          portalMessage: error.portalMessage,
          message: `Sign-in failed: the portal refused the authorization code (used already or expired)${error.portalMessage ? `: ${error.portalMessage}` : '.'} Start the sign-in again.`,
        });
      }
      throw ended(error);
    }
  } finally {
    receiver.dispose();
  }
}

/**
 * Checks, before the browser opens, that the portal answers at this base URL and accepts the client id
 * and secret: a token request with a code nobody issued must be refused for the code (invalid_grant), not
 * for the client (invalid_client). Only those two answers are read; anything else lets the flow go on.
 */
export async function verifyClient(options: {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  allowPlainHttp?: boolean;
  fetch?: FetchLike;
  signal?: AbortSignal;
  onRequest?: (entry: RequestLogEntry) => void;
}): Promise<void> {
  try {
    await exchangeCode({ ...options, code: 'portal-explorer-client-check' });
  } catch (error) {
    if (!(error instanceof PortalError)) throw error;
    if (error.kind === 'http' && (error.code === 'invalid_client' || error.status === 401)) {
      throw new PortalError({
        kind: 'http',
        status: error.status,
        code: 'invalid_client',
        portalMessage: error.portalMessage,
        message: `The portal did not accept the client id and secret${error.portalMessage ? `: ${error.portalMessage}` : '.'} Check them under System Admin > Portal Settings > Web API Setting.`,
      });
    }
    if (error.kind === 'http' && error.status === 404) {
      throw new PortalError({
        kind: 'http',
        status: 404,
        code: 'not_found',
        message: `No portal API answers at ${options.baseUrl}: its token endpoint (/api/v1/oauth2/token) was not found. Check the base URL.`,
      });
    }
    if (error.kind !== 'http') throw error;
  }
}
