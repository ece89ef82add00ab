// OAuth 2.0 state: registered clients, pending approvals, authorization codes, access and refresh tokens.
// HTTP lives in oauth.ts; this file holds the rules (README.md, "OAuth 2.0"): single-use codes that expire,
// PKCE, refresh-token rotation, and a reused code revoking what it issued (RFC 6749 §4.1.2).
import { createHash, randomBytes } from 'node:crypto';
import type { Client } from './clients';
import { OAuthError } from './errors';

export interface AuthorizationRequest {
  client_id: string;
  /** Where to send the answer: the given redirect_uri or the client's first registered one. */
  redirect_uri: string;
  /** Whether redirect_uri was in the request (then the token request, if it names one, must match). */
  redirectGiven: boolean;
  state: string;
  codeChallenge?: string;
  codeChallengeMethod?: 'S256' | 'plain';
}

interface PendingApproval extends AuthorizationRequest {
  expiresAt: number;
}

interface AuthorizationCode extends AuthorizationRequest {
  expiresAt: number;
  used: boolean;
  accessTokens: string[];
  refreshTokens: string[];
}

interface AccessToken {
  client_id: string;
  expiresAt: number;
}

export interface TokenResponse {
  access_token: string;
  expires_in: number;
  token_type: 'Bearer';
  scope: null;
  refresh_token?: string;
}

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

const secret = (): string => randomBytes(24).toString('base64url');

export type TokenCheck = 'valid' | 'unknown' | 'expired';

export class OAuthState {
  readonly clients = new Map<string, Client>();
  private readonly pending = new Map<string, PendingApproval>();
  private readonly codes = new Map<string, AuthorizationCode>();
  private readonly accessTokens = new Map<string, AccessToken>();
  /** Refresh token -> client id; a used one is deleted (rotation). */
  private readonly refreshTokens = new Map<string, string>();

  /**
   * Back to the demo client alone. Its tokens survive: a signed-in extension under test stays signed in
   * across resets (POST /_emulator/tokens/expire is there to end them); other clients' tokens go.
   */
  reset(demo: Client): void {
    this.clients.clear();
    this.clients.set(demo.client_id, demo);
    this.pending.clear();
    this.codes.clear();
    for (const [token, { client_id }] of this.accessTokens) if (client_id !== demo.client_id) this.accessTokens.delete(token);
    for (const [token, clientId] of this.refreshTokens) if (clientId !== demo.client_id) this.refreshTokens.delete(token);
  }

  /** Remembers a request waiting on the approval page; returns its id for the page's form. */
  awaitApproval(request: AuthorizationRequest, lifetimeSeconds: number): string {
    const id = secret();
    this.pending.set(id, { ...request, expiresAt: Date.now() + lifetimeSeconds * 1000 });
    return id;
  }

  /** The pending request of an approval form, used once. */
  takePending(id: string): AuthorizationRequest | undefined {
    const pending = this.pending.get(id);
    this.pending.delete(id);
    return pending && pending.expiresAt > Date.now() ? pending : undefined;
  }

  issueCode(request: AuthorizationRequest, lifetimeSeconds: number): string {
    const code = secret();
    this.codes.set(code, { ...request, expiresAt: Date.now() + lifetimeSeconds * 1000, used: false, accessTokens: [], refreshTokens: [] });
    return code;
  }

  /** Checks client id and secret; throws invalid_client. */
  authenticateClient(clientId: string, clientSecret: string): Client {
    const client = this.clients.get(clientId);
    if (!client || client.client_secret !== clientSecret) throw new OAuthError('invalid_client', 'Unknown client or wrong client secret.');
    return client;
  }

  exchangeCode(
    client: Client,
    code: string,
    verifier: string | undefined,
    redirectUri: string | undefined,
    lifetimeSeconds: number,
  ): TokenResponse {
    const grant = this.codes.get(code);
    if (!grant || grant.client_id !== client.client_id)
      throw new OAuthError('invalid_grant', 'The authorization code is unknown or was issued to another client.');
    if (grant.used) {
      // A replayed code may be stolen: revoke everything it gave (RFC 6749 §4.1.2).
      for (const token of grant.accessTokens) this.accessTokens.delete(token);
      for (const token of grant.refreshTokens) this.refreshTokens.delete(token);
      throw new OAuthError('invalid_grant', 'The authorization code was already used; the tokens it gave are revoked.');
    }
    if (grant.expiresAt <= Date.now()) throw new OAuthError('invalid_grant', 'The authorization code expired.');
    if (redirectUri !== undefined && redirectUri !== grant.redirect_uri)
      throw new OAuthError('invalid_grant', 'redirect_uri differs from the one of the authorization request.');
    if (grant.codeChallenge !== undefined) {
      if (verifier === undefined)
        throw new OAuthError('invalid_grant', 'code_verifier is required: the authorization request had a code_challenge.');
      if (!VERIFIER.test(verifier))
        throw new OAuthError('invalid_grant', 'code_verifier must be 43-128 characters of A-Z a-z 0-9 - . _ ~.');
      const derived = grant.codeChallengeMethod === 'plain' ? verifier : createHash('sha256').update(verifier).digest('base64url');
      if (derived !== grant.codeChallenge) throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge.');
    }
    grant.used = true;
    const response = this.issue(client, lifetimeSeconds, true);
    grant.accessTokens.push(response.access_token);
    if (response.refresh_token) grant.refreshTokens.push(response.refresh_token);
    return response;
  }

  refresh(client: Client, refreshToken: string, lifetimeSeconds: number): TokenResponse {
    if (this.refreshTokens.get(refreshToken) !== client.client_id)
      throw new OAuthError('invalid_grant', 'The refresh token is unknown, was already used or belongs to another client.');
    this.refreshTokens.delete(refreshToken);
    return this.issue(client, lifetimeSeconds, true);
  }

  clientCredentials(client: Client, lifetimeSeconds: number): TokenResponse {
    return this.issue(client, lifetimeSeconds, false);
  }

  private issue(client: Client, lifetimeSeconds: number, withRefresh: boolean): TokenResponse {
    const accessToken = secret();
    this.accessTokens.set(accessToken, { client_id: client.client_id, expiresAt: Date.now() + lifetimeSeconds * 1000 });
    const response: TokenResponse = { access_token: accessToken, expires_in: lifetimeSeconds, token_type: 'Bearer', scope: null };
    if (withRefresh) {
      response.refresh_token = secret();
      this.refreshTokens.set(response.refresh_token, client.client_id);
    }
    return response;
  }

  /** The client a valid access token was issued to. */
  clientOfToken(token: string): string | undefined {
    return this.accessTokens.get(token)?.client_id;
  }

  checkAccessToken(token: string): TokenCheck {
    const found = this.accessTokens.get(token);
    if (!found) return 'unknown';
    return found.expiresAt > Date.now() ? 'valid' : 'expired';
  }

  /** Every access token expires now; refresh tokens too when asked. Returns how many access tokens. */
  expireTokens(refreshTokensToo: boolean): number {
    const now = Date.now();
    for (const token of this.accessTokens.values()) token.expiresAt = Math.min(token.expiresAt, now);
    if (refreshTokensToo) this.refreshTokens.clear();
    return this.accessTokens.size;
  }
}
