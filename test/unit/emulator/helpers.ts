// Helpers of the emulator's own tests: start one on port 0, get tokens, call it over real HTTP.
import type { EmulatorOptions, RunningEmulator } from '../../emulator/index';
import { resetEmulator, startPortal } from '../../support/portal';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  json: unknown;
}

/** Starts an emulator for a suite: quiet, any port, and a small big app unless the suite asks otherwise. */
export function useEmulator(options: EmulatorOptions = {}): { readonly emulator: RunningEmulator } {
  const holder: { emulator?: RunningEmulator } = {};
  before(async () => {
    holder.emulator = await startPortal({ bigViewRecords: 500, ...options });
  });
  after(async () => {
    await holder.emulator?.close();
  });
  return {
    get emulator(): RunningEmulator {
      if (!holder.emulator) throw new Error('The emulator is not started yet.');
      return holder.emulator;
    },
  };
}

/**
 * useEmulator, reset to the seed before each test, with a fresh client-credentials token of the demo
 * client in `token` (settable, for tests that need another one).
 */
export function useSeededEmulator(options: EmulatorOptions = {}): { readonly emulator: RunningEmulator; token: string } {
  const running = useEmulator(options);
  let token = '';
  beforeEach(async () => {
    await resetEmulator(running.emulator);
    token = await clientToken(running.emulator);
  });
  return {
    get emulator(): RunningEmulator {
      return running.emulator;
    },
    get token(): string {
      return token;
    },
    set token(value: string) {
      token = value;
    },
  };
}

async function answer(response: Response): Promise<Answer> {
  const text = await response.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

export function form(fields: Record<string, string>): URLSearchParams {
  return new URLSearchParams(fields);
}

/** A request to the emulator; a URLSearchParams body is sent form-encoded, an object as JSON. */
export async function call(
  emulator: RunningEmulator,
  method: string,
  path: string,
  options: {
    token?: string;
    body?: URLSearchParams | FormData | Record<string, unknown> | string;
    headers?: Record<string, string>;
    redirect?: RequestInit['redirect'];
  } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let body: RequestInit['body'];
  if (options.body instanceof URLSearchParams || options.body instanceof FormData || typeof options.body === 'string') body = options.body;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['Content-Type'] = 'application/json';
  }
  return answer(await fetch(`${emulator.baseUrl}${path}`, { method, headers, body, redirect: options.redirect ?? 'manual' }));
}

/** An access token through the client-credentials grant of the demo client. */
export async function clientToken(emulator: RunningEmulator): Promise<string> {
  const result = await call(emulator, 'POST', '/api/v1/oauth2/token', {
    body: form({ grant_type: 'client_credentials', client_id: emulator.clientId, client_secret: emulator.clientSecret }),
  });
  const token = (result.json as { access_token?: string } | undefined)?.access_token;
  if (result.status !== 200 || !token) throw new Error(`No token: ${result.status} ${result.text}`);
  return token;
}

/** The `error` object of a nested error body. */
export function nestedError(result: Answer): { code: string; message: string; field?: string } {
  return (result.json as { error: { code: string; message: string; field?: string } }).error;
}

/** Resolves once `check` returns something other than undefined, polling; rejects after `ms`. */
export async function eventually<T>(check: () => Promise<T | undefined>, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Nothing arrived within ${ms} ms.`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
