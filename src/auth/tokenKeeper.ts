// One connection's tokens: read from and written to SecretStorage (never anywhere else), handed to the
// portal client as its AccessTokenSource. Renews ahead of expiry and once after a 401 (refresh token, or a
// new client-credentials token); when renewal is refused it records "expired" and throws SignInRequiredError.
// Another window may renew at the same time: before renewing, and after a refused refresh, the stored
// record is read again, so a refresh token rotated elsewhere is used rather than declared dead.
// A renewal belongs to the sign-in it started under: after a sign-out, a new sign-in (in this window or
// another) or dispose() (the portal removed) it stores nothing, so the tokens it brings back are not resurrected.
// No `vscode` import: the unit tests drive it against the emulator in plain node.
import type { AccessTokenSource } from '../api/client';
import { PortalError } from '../api/errors';
import type { FetchLike, RequestLogEntry } from '../api/http';
import { SignInRequiredError } from '../model/signInRequired';
import type { PortalConnection, SignInState } from './portals';
import { secretKeys, type SecretStore } from './secretKeys';
import { abortion } from './redirectReceiver';
import { isExpired, needsRenewal, parseRecord, serialise, tokensFrom, type StoredTokens, type TokenRecord } from './storedTokens';

export interface TokenKeeperOptions {
  connection: PortalConnection;
  secrets: SecretStore;
  fetch?: FetchLike;
  timeoutMs?: number;
  /** Called once per token request (the request log). */
  onRequest?: (entry: RequestLogEntry) => void;
  now?: () => number;
  /** Called after this keeper changed the stored record (the state may have changed). */
  onDidWrite?: () => void;
  log?: (message: string) => void;
}

/** OAuth answers that mean the grant or the client is no longer accepted: sign in again. */
function isRefusal(error: unknown): boolean {
  return error instanceof PortalError && error.kind === 'http' && (error.status === 400 || error.status === 401 || error.status === 403);
}

export class TokenKeeper implements AccessTokenSource {
  private record: TokenRecord | undefined;
  private loaded: Promise<void> | undefined;
  private renewing: Promise<string> | undefined;
  /** Counts this keeper's writes, so a read that overlapped one does not bring back what it replaced. */
  private writes = 0;
  /** Bumped by sign-out, sign-in and dispose: a renewal started under an older one stores nothing. */
  private generation = 0;
  private disposed = false;
  private readonly now: () => number;

  constructor(private readonly options: TokenKeeperOptions) {
    this.now = options.now ?? Date.now;
  }

  get connection(): PortalConnection {
    return this.options.connection;
  }

  /** The state as last read; call load() first (PortalService does, at start and on every change). */
  state(): SignInState {
    if (!this.record) return 'signedOut';
    return this.record.kind === 'expired' ? 'expired' : 'signedIn';
  }

  /** Reads the stored record again (another window may have changed it); resolves with the new state. */
  async load(): Promise<SignInState> {
    const loading = (async () => {
      const before = this.writes;
      const raw = await this.options.secrets.get(secretKeys.tokens(this.connection.id));
      if (this.writes === before) this.record = parseRecord(raw);
    })();
    this.loaded = loading;
    await loading;
    return this.state();
  }

  /** The current access token, when signed in (for the AuthenticationProvider's sessions). */
  currentAccessToken(): string | undefined {
    return this.record?.kind === 'tokens' ? this.record.tokens.accessToken : undefined;
  }

  /** Stores a fresh token set from a sign-in. */
  async signedIn(tokens: StoredTokens): Promise<void> {
    this.generation += 1;
    await this.write({ kind: 'tokens', tokens }, this.generation);
  }

  /** Forgets the tokens (sign out). */
  async signOut(): Promise<void> {
    this.generation += 1;
    this.writes += 1;
    this.record = undefined;
    await this.options.secrets.delete(secretKeys.tokens(this.connection.id));
    this.options.onDidWrite?.();
  }

  /** The portal is being removed: nothing this keeper has under way stores anything any more. */
  dispose(): void {
    this.disposed = true;
    this.generation += 1;
  }

  async accessToken(signal?: AbortSignal): Promise<string> {
    await (this.loaded ??= this.load().then(() => undefined));
    const record = this.record;
    if (!record) throw this.signInRequired('signedOut');
    if (record.kind === 'expired') throw this.signInRequired('expired');
    if (!needsRenewal(record.tokens, this.now())) return record.tokens.accessToken;
    try {
      return await this.renew(record.tokens.accessToken, signal);
    } catch (error) {
      // Renewing ahead of time failed for a passing reason (network, timeout): the old token still works.
      if (
        !(error instanceof SignInRequiredError) &&
        !isExpired(record.tokens, this.now()) &&
        this.currentAccessToken() === record.tokens.accessToken
      ) {
        return record.tokens.accessToken;
      }
      throw error;
    }
  }

  async renewAfterUnauthorized(rejected: string, signal?: AbortSignal): Promise<string | undefined> {
    return this.renew(rejected, signal);
  }

  /**
   * One renewal at a time; callers that arrive meanwhile share its outcome. The shared renewal runs with
   * no caller's signal (only its time limit): one caller cancelling must neither fail the others nor drop
   * an answer whose rotated refresh token the portal already counts as the only valid one.
   */
  private renew(rejected: string, signal?: AbortSignal): Promise<string> {
    this.renewing ??= this.renewOnce(rejected).finally(() => {
      this.renewing = undefined;
    });
    if (!signal) return this.renewing;
    const cancelled = abortion(signal).catch((reason: unknown) => {
      throw new PortalError({ kind: 'cancelled', message: 'Renewing the sign-in was cancelled.', cause: reason });
    });
    return Promise.race([this.renewing, cancelled]);
  }

  private async renewOnce(rejected: string): Promise<string> {
    const generation = this.generation;
    // Another window (or an earlier call) may have renewed already.
    await this.load();
    const stored = this.record;
    if (!stored) throw this.signInRequired('signedOut');
    if (stored.kind === 'expired') throw this.signInRequired('expired');
    if (stored.tokens.accessToken !== rejected && !needsRenewal(stored.tokens, this.now())) return stored.tokens.accessToken;

    const { baseUrl, clientId, flow, id, allowPlainHttp } = this.connection;
    const clientSecret = await this.options.secrets.get(secretKeys.clientSecret(id));
    if (!clientSecret) return this.expire(generation, 'the client secret is missing from this machine');
    const common = {
      baseUrl,
      clientId,
      clientSecret,
      allowPlainHttp,
      fetch: this.options.fetch,
      timeoutMs: this.options.timeoutMs,
      onRequest: this.options.onRequest,
    };
    const refreshToken = stored.tokens.refreshToken;
    // Loaded on the first renewal, not at activation.
    const { clientCredentials, refresh } = await import('../api/oauth');
    try {
      const issued = this.now();
      const set = refreshToken
        ? await refresh({ ...common, refreshToken })
        : flow === 'clientCredentials'
          ? await clientCredentials(common)
          : undefined;
      if (!set) return this.expire(generation, 'there is no refresh token');
      // A portal that does not rotate refresh tokens sends none back: keep the one we have.
      const tokens = tokensFrom({ ...set, refreshToken: set.refreshToken ?? refreshToken }, issued);
      const elsewhere = await this.changedElsewhere(stored.tokens, generation);
      if (elsewhere !== undefined) return elsewhere;
      if (!(await this.write({ kind: 'tokens', tokens }, generation))) return this.superseded();
      this.options.log?.(`Renewed the access token of ${id} (${refreshToken ? 'refresh token' : 'client credentials'}).`);
      return tokens.accessToken;
    } catch (error) {
      // A sign-out elsewhere (changedElsewhere) is an answer already, not a refusal of the refresh.
      if (error instanceof SignInRequiredError || !isRefusal(error)) throw error;
      if (generation !== this.generation) return this.superseded();
      // A refused refresh token may have been rotated by another window a moment ago.
      await this.load();
      const now = this.record;
      if (now?.kind === 'tokens' && now.tokens.refreshToken !== refreshToken && !isExpired(now.tokens, this.now()))
        return now.tokens.accessToken;
      const reason = error instanceof PortalError ? (error.portalMessage ?? error.code ?? 'refused') : 'refused';
      return this.expire(generation, `the portal refused to renew the sign-in (${reason})`, error);
    }
  }

  /**
   * Another window may have signed out or signed in again while this renewal was under way (this
   * keeper's generation only knows its own window). Undefined when the stored record is still the one the
   * renewal started from, or says "expired" (another window's refresh with the same token was refused: the
   * tokens just issued are the ones that work, so they are stored). Otherwise what to hand out instead.
   * SecretStorage has no compare-and-set: a change between this read and the write is not seen.
   */
  private async changedElsewhere(started: StoredTokens, generation: number): Promise<string | undefined> {
    const raw = await this.options.secrets.get(secretKeys.tokens(this.connection.id));
    if (this.disposed || generation !== this.generation) return this.superseded();
    const now = parseRecord(raw);
    if (now?.kind === 'expired') return undefined;
    if (now && now.tokens.accessToken === started.accessToken && now.tokens.refreshToken === started.refreshToken) return undefined;
    this.writes += 1;
    this.record = now;
    if (!now) {
      this.options.log?.(`Signed out of ${this.connection.id} in another window while renewing: nothing stored.`);
      throw this.signInRequired('signedOut');
    }
    return now.tokens.accessToken;
  }

  private async expire(generation: number, reason: string, cause?: unknown): Promise<string> {
    if (!(await this.write({ kind: 'expired', reason }, generation))) return this.superseded();
    this.options.log?.(`The sign-in to ${this.connection.id} expired: ${reason}.`);
    throw this.signInRequired('expired', cause);
  }

  /** What a renewal overtaken by a sign-out, sign-in or removal hands out: the current state's answer. */
  private superseded(): string {
    const current = this.disposed ? undefined : this.currentAccessToken();
    if (current) return current;
    throw this.signInRequired(this.record?.kind === 'expired' ? 'expired' : 'signedOut');
  }

  /** Stores `record` unless the sign-in it belongs to (`generation`) was replaced; false when refused. */
  private async write(record: TokenRecord, generation: number): Promise<boolean> {
    if (this.disposed || generation !== this.generation) return false;
    this.writes += 1;
    this.record = record;
    this.loaded = Promise.resolve();
    await this.options.secrets.store(secretKeys.tokens(this.connection.id), serialise(record));
    this.options.onDidWrite?.();
    return true;
  }

  private signInRequired(state: 'signedOut' | 'expired', cause?: unknown): SignInRequiredError {
    const { id, label } = this.connection;
    const message =
      state === 'signedOut'
        ? `You are not signed in to the portal "${label}". Sign in to continue.`
        : `Your sign-in to the portal "${label}" has expired. Sign in again to continue.`;
    return new SignInRequiredError(id, message, cause);
  }
}
