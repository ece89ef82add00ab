// The one way the plain-node suites (unit, webview) start the portal emulator: in this process, on port 0.
// With it: a token source that signs in with the client credentials over HTTP like the real auth layer
// would, a client on it, the emulator's test interface (./emulator.ts), and an assertion for PortalErrors.
// Nothing here stands in for the portal.
import * as assert from 'node:assert/strict';
import { startEmulator } from '../emulator';
import type { AccessTokenSource } from '../../src/api/client';
import { PortalClient } from '../../src/api/client';
import { PortalError } from '../../src/api/errors';
import type { RequestLogEntry } from '../../src/api/http';
import { clientCredentials } from '../../src/api/oauth';
import { classifyFailure, type Verdict } from '../../src/records/failures';

export { configure, emulatorControl, injectFault, resetEmulator, type EmulatorAddress, type Fault } from './emulator';

export type Emulator = Awaited<ReturnType<typeof startEmulator>>;
export type EmulatorStartOptions = NonNullable<Parameters<typeof startEmulator>[0]>;

export async function startPortal(options: EmulatorStartOptions = {}): Promise<Emulator> {
  return startEmulator({ port: 0, quiet: true, bigViewRecords: 300, ...options });
}

/** Signs in with the client credentials; after a 401, signs in again (or gives up, when told to). */
export class CredentialsTokens implements AccessTokenSource {
  renewals = 0;
  /** Every token handed out, to check that none leaks. */
  readonly issued: string[] = [];
  private current: string | undefined;

  constructor(
    private readonly emulator: Emulator,
    private readonly renew: 'sign-in-again' | 'give-up' | 'stale' = 'sign-in-again',
  ) {}

  async accessToken(signal?: AbortSignal): Promise<string> {
    this.current ??= await this.signIn(signal);
    return this.current;
  }

  async renewAfterUnauthorized(rejected: string, signal?: AbortSignal): Promise<string | undefined> {
    this.renewals += 1;
    if (this.renew === 'give-up') return undefined;
    if (this.renew === 'stale') return rejected;
    this.current = await this.signIn(signal);
    return this.current;
  }

  private async signIn(signal?: AbortSignal): Promise<string> {
    const { clientId, clientSecret, baseUrl } = this.emulator;
    const tokens = await clientCredentials({ baseUrl, clientId, clientSecret, signal });
    this.issued.push(tokens.accessToken);
    return tokens.accessToken;
  }
}

export interface ClientSetup {
  client: PortalClient;
  tokens: CredentialsTokens;
  requests: RequestLogEntry[];
}

export function clientFor(emulator: Emulator, options: { timeoutMs?: number; tokens?: CredentialsTokens } = {}): ClientSetup {
  const tokens = options.tokens ?? new CredentialsTokens(emulator);
  const requests: RequestLogEntry[] = [];
  const client = new PortalClient({
    baseUrl: emulator.baseUrl,
    tokens,
    timeoutMs: options.timeoutMs,
    onRequest: (entry) => requests.push(entry),
  });
  return { client, tokens, requests };
}

/** Awaits `promise`, which must reject with a PortalError having the expected properties. */
export async function rejectsWith(
  promise: Promise<unknown>,
  expected: Partial<Pick<PortalError, 'kind' | 'status' | 'code' | 'field'>> & { verdict?: Verdict },
): Promise<PortalError> {
  let error: unknown;
  try {
    await promise;
  } catch (caught) {
    error = caught;
  }
  assert.ok(
    error instanceof PortalError,
    `expected a PortalError, got ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
  );
  for (const [key, value] of Object.entries(expected)) {
    // The verdict is the one classification's (src/records/failures.ts): whether sending again may help.
    const actual: unknown = key === 'verdict' ? classifyFailure(error).verdict : error[key as keyof PortalError];
    assert.equal(actual, value, `${key} of "${error.message}"`);
  }
  return error;
}
