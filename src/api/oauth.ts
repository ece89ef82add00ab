// OAuth 2.0 with the portal: the authorize URL (state against CSRF, PKCE where the portal accepts it), the
// redirect's answer, and the three token calls (authorization code, client credentials, refresh). Secrets,
// codes and tokens travel only in request bodies and headers, never in a message.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { PortalError } from './errors';
import { httpError, invalidResponse, isSuccess, parseJsonBody, send, type FetchLike, type RequestLogEntry } from './http';
import { apiUrl, portalBase } from './urls';

export interface TokenSet {
  accessToken: string;
  /** Absent for the client-credentials grant. */
  refreshToken?: string;
  /** When the access token stops working, epoch milliseconds. */
  expiresAt: number;
  tokenType: string;
  /** As the portal sent it (null in the documentation's sample). */
  scope?: string | null;
}

export interface Pkce {
  verifier: string;
  challenge: string;
  method: 'S256';
}

function base64Url(bytes: Buffer): string {
  return bytes.toString('base64url');
}

/** An unguessable state value (256 random bits). */
export function createState(): string {
  return base64Url(randomBytes(32));
}

/** A PKCE verifier (43 characters, RFC 7636) and its S256 challenge. */
export function createPkce(): Pkce {
  const verifier = base64Url(randomBytes(32));
  return { verifier, challenge: base64Url(createHash('sha256').update(verifier).digest()), method: 'S256' };
}

export interface AuthorizeUrlOptions {
  baseUrl: string;
  clientId: string;
  redirectUri?: string;
  state: string;
  pkce?: Pick<Pkce, 'challenge' | 'method'>;
  /** The user confirmed plain http:// for this portal (urls.ts, portalBase). */
  allowPlainHttp?: boolean;
}

/** The address to open in the browser for step 1 of the authorization code flow. */
export function authorizeUrl(options: AuthorizeUrlOptions): string {
  const query: Array<[string, string]> = [
    ['client_id', options.clientId],
    ['response_type', 'code'],
    ['state', options.state],
  ];
  if (options.redirectUri) query.push(['redirect_uri', options.redirectUri]);
  if (options.pkce) query.push(['code_challenge', options.pkce.challenge], ['code_challenge_method', options.pkce.method]);
  return apiUrl(portalBase(options.baseUrl, options.allowPlainHttp), ['oauth2', 'authorize'], query).href;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * The authorization code from the redirect the portal sent the browser to. Throws PortalError when the
 * state is not the one this sign-in sent (code 'state_mismatch'), when the portal reports an error
 * (code = its `error`, e.g. 'access_denied'), or when there is no code ('missing_code').
 */
export function parseRedirect(url: string | URL, expectedState: string): { code: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new PortalError({
      kind: 'invalid-response',
      code: 'invalid_redirect',
      message: 'Sign-in failed: the redirect address is not a URL.',
    });
  }
  // Some portals put the answer in the fragment; the query wins when both are present.
  const params = new URLSearchParams(parsed.search || parsed.hash.replace(/^#/, ''));
  const state = params.get('state');
  const error = params.get('error');
  // An error is trusted only with this sign-in's state (RFC 6749 4.1.2.1): any web page can open the
  // call-back address with ?error=…&error_description=<its own text>.
  if (error && state !== null && sameText(state, expectedState)) {
    const description = params.get('error_description') ?? undefined;
    const denied = error === 'access_denied';
    throw new PortalError({
      kind: 'http',
      code: error,
      portalMessage: description,
      message: denied
        ? `Sign-in failed: access was denied in the browser${description ? `: ${description}` : '.'}`
        : `Sign-in failed: the portal answered "${error}"${description ? `: ${description}` : '.'}`,
    });
  }
  if (state === null || !sameText(state, expectedState)) {
    throw new PortalError({
      kind: 'invalid-response',
      code: 'state_mismatch',
      message: 'Sign-in failed: the answer from the browser does not belong to this sign-in (state mismatch). Start the sign-in again.',
    });
  }
  const code = params.get('code');
  if (!code) {
    throw new PortalError({
      kind: 'invalid-response',
      code: 'missing_code',
      message: 'Sign-in failed: the portal sent no authorization code.',
    });
  }
  return { code };
}

export interface TokenCallOptions {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  fetch?: FetchLike;
  timeoutMs?: number;
  signal?: AbortSignal;
  onRequest?: (entry: RequestLogEntry) => void;
  /** The user confirmed plain http:// for this portal (urls.ts, portalBase). */
  allowPlainHttp?: boolean;
}

export interface ExchangeCodeOptions extends TokenCallOptions {
  code: string;
  redirectUri?: string;
  codeVerifier?: string;
}

export interface RefreshOptions extends TokenCallOptions {
  refreshToken: string;
}

/** Step 2 of the authorization code flow: the code (and PKCE verifier) for tokens. */
export function exchangeCode(options: ExchangeCodeOptions): Promise<TokenSet> {
  const form = new URLSearchParams({
    client_id: options.clientId,
    client_secret: options.clientSecret,
    grant_type: 'authorization_code',
    code: options.code,
  });
  if (options.redirectUri) form.set('redirect_uri', options.redirectUri);
  if (options.codeVerifier) form.set('code_verifier', options.codeVerifier);
  return tokenCall(options, form, 'Exchanging the authorization code for a token', [options.code, options.codeVerifier]);
}

/**
 * The client credentials grant. The documentation lists both HTTP Basic and the client_id/client_secret
 * parameters, so both are sent. The Basic user and password are percent-encoded first (RFC 6749 §2.3.1),
 * so a secret with ":" or "%" survives; encodeURIComponent rather than form encoding, because a server
 * that decodes with decodeURIComponent would read a form-encoded space ("+") as a plus.
 */
export function clientCredentials(options: TokenCallOptions): Promise<TokenSet> {
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: options.clientId, client_secret: options.clientSecret });
  const basic = Buffer.from(`${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`).toString('base64');
  return tokenCall(options, form, 'Signing in with the client credentials', [], { Authorization: `Basic ${basic}` });
}

/** A new access token (and, from portals that rotate them, a new refresh token) for a refresh token. */
export function refresh(options: RefreshOptions): Promise<TokenSet> {
  const form = new URLSearchParams({
    grant_type: 'refresh_token',
    refresh_token: options.refreshToken,
    client_id: options.clientId,
    client_secret: options.clientSecret,
  });
  return tokenCall(options, form, 'Refreshing the access token', [options.refreshToken]);
}

async function tokenCall(
  options: TokenCallOptions,
  form: URLSearchParams,
  action: string,
  moreSecrets: Array<string | undefined>,
  headers: Record<string, string> = {},
): Promise<TokenSet> {
  const secrets = [options.clientSecret, ...moreSecrets];
  const url = apiUrl(portalBase(options.baseUrl, options.allowPlainHttp), ['oauth2', 'token']);
  const response = await send({
    method: 'POST',
    url,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: form.toString(),
    signal: options.signal,
    timeoutMs: options.timeoutMs,
    fetch: options.fetch,
    action,
    onRequest: options.onRequest,
  });
  if (!isSuccess(response.status)) {
    // OAuth's own codes (invalid_grant, invalid_client, ...) are what callers act on; keep the portal's.
    throw httpError(response, { action, secrets, defaultCodes: { 401: 'invalid_client' } });
  }
  return tokenSetOf(parseJsonBody(response, action), action);
}

function tokenSetOf(body: unknown, action: string): TokenSet {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalidResponse(action, 'it is not a JSON object.');
  const token = body as Record<string, unknown>;
  if (typeof token.access_token !== 'string' || token.access_token === '') throw invalidResponse(action, 'it has no "access_token".');
  const expiresIn = typeof token.expires_in === 'string' ? Number(token.expires_in) : token.expires_in;
  if (typeof expiresIn !== 'number' || !Number.isFinite(expiresIn) || expiresIn <= 0) {
    throw invalidResponse(action, 'it has no usable "expires_in" (seconds).');
  }
  const tokenType = typeof token.token_type === 'string' && token.token_type !== '' ? token.token_type : 'Bearer';
  const refreshToken = typeof token.refresh_token === 'string' && token.refresh_token !== '' ? token.refresh_token : undefined;
  const scope = typeof token.scope === 'string' || token.scope === null ? token.scope : undefined;
  return { accessToken: token.access_token, refreshToken, expiresAt: Date.now() + expiresIn * 1000, tokenType, scope };
}
