// Where a connection's secrets live in SecretStorage (the only place they live). Integration tests read
// these keys to check that the tokens are there and nowhere else; keep them stable.
export const SECRET_PREFIX = 'portal.';

export const secretKeys = {
  clientSecret: (connectionId: string): string => `${SECRET_PREFIX}clientSecret.${connectionId}`,
  tokens: (connectionId: string): string => `${SECRET_PREFIX}tokens.${connectionId}`,
  /** The webhook Secret Key (src/webhooks/secrets.ts); here so that removing a portal deletes it too. */
  webhookSecret: (connectionId: string): string => `${SECRET_PREFIX}webhookSecret.${connectionId}`,
  /**
   * "true" when the user accepts unsigned webhook deliveries for the portal (no Secret Key). Not a secret,
   * but kept beside the Secret Key, where no workspace setting reaches, and forgotten with the portal.
   */
  webhookUnsigned: (connectionId: string): string => `${SECRET_PREFIX}webhookUnsigned.${connectionId}`,
};

/** The connection a secret key belongs to, or undefined for a key that is not ours. */
export function connectionOfKey(key: string): string | undefined {
  const match = /^portal\.(?:clientSecret|tokens)\.(.+)$/.exec(key);
  return match?.[1];
}

/** The part of vscode.SecretStorage the token keeper needs (a Map stands in for it in unit tests). */
export interface SecretStore {
  get(key: string): Thenable<string | undefined> | Promise<string | undefined>;
  store(key: string, value: string): Thenable<void> | Promise<void>;
  delete(key: string): Thenable<void> | Promise<void>;
}
