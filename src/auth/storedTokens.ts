// The token record kept in SecretStorage per connection, and how it is read back. A record that cannot be
// read (an older format, a hand edit) counts as no record: the user signs in again, nothing crashes.
import type { TokenSet } from '../api/oauth';

export interface StoredTokens {
  accessToken: string;
  refreshToken?: string;
  /** Epoch milliseconds. */
  expiresAt: number;
  /** Epoch milliseconds, to refresh ahead by a share of the lifetime. */
  issuedAt: number;
}

/** Signed in (tokens), or signed in once and now needing to sign in again (expired). */
export type TokenRecord = { kind: 'tokens'; tokens: StoredTokens } | { kind: 'expired'; reason: string };

export function tokensFrom(set: TokenSet, now: number): StoredTokens {
  return { accessToken: set.accessToken, refreshToken: set.refreshToken, expiresAt: set.expiresAt, issuedAt: now };
}

export function serialise(record: TokenRecord): string {
  return JSON.stringify(record);
}

export function parseRecord(raw: string | undefined): TokenRecord | undefined {
  if (!raw) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  if (record.kind === 'expired') return { kind: 'expired', reason: typeof record.reason === 'string' ? record.reason : '' };
  if (record.kind !== 'tokens' || typeof record.tokens !== 'object' || record.tokens === null) return undefined;
  const tokens = record.tokens as Record<string, unknown>;
  if (typeof tokens.accessToken !== 'string' || typeof tokens.expiresAt !== 'number') return undefined;
  return {
    kind: 'tokens',
    tokens: {
      accessToken: tokens.accessToken,
      refreshToken: typeof tokens.refreshToken === 'string' ? tokens.refreshToken : undefined,
      expiresAt: tokens.expiresAt,
      issuedAt: typeof tokens.issuedAt === 'number' ? tokens.issuedAt : tokens.expiresAt - 3600_000,
    },
  };
}

/** How long before expiry the access token is renewed: a tenth of its lifetime, at most a minute. */
export function refreshMargin(tokens: StoredTokens): number {
  return Math.min(60_000, Math.max(0, (tokens.expiresAt - tokens.issuedAt) / 10));
}

export function needsRenewal(tokens: StoredTokens, now: number): boolean {
  return now >= tokens.expiresAt - refreshMargin(tokens);
}

export function isExpired(tokens: StoredTokens, now: number): boolean {
  return now >= tokens.expiresAt;
}
