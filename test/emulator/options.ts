// The emulator's knobs: every one is an option of startEmulator(), a CLI flag (cli.ts) and, when it makes
// sense while running, a key of POST /_emulator/config. Defaults are the choices of README.md.

export type ErrorStyle = 'nested' | 'flat' | 'text';
export type WriteResponse = 'json' | 'empty' | 'text';
/** What a request over --max-in-flight answers (README.md: 429 by default, as the request was not taken). */
export type OverLimitStatus = 429 | 503;

export interface EmulatorOptions {
  /** 0 = any free port. */
  port?: number;
  /** Redirect from the authorize endpoint at once, without the approval page. */
  autoApprove?: boolean;
  /** Lifetime of access tokens (default 3600). */
  tokenLifetimeSeconds?: number;
  /** Lifetime of authorization codes (default 600). */
  codeLifetimeSeconds?: number;
  /** Shape of data-endpoint error bodies (default nested). */
  errorStyle?: ErrorStyle;
  /** What update, comment and attachment answer (default json). */
  writeResponse?: WriteResponse;
  /** Whether the list of columns carries `required` (default true). */
  columnRequired?: boolean;
  /** Whether the apps in the list of sites carry `draft_mode` and `comments_plugin` (default true). */
  appFlags?: boolean;
  /** How many times a failed webhook delivery is tried again (default 0). */
  webhookRetries?: number;
  /** Time limit of one webhook delivery attempt (default 5000). */
  webhookTimeoutMs?: number;
  /** Largest accepted attachment (default 25 MB). */
  attachmentLimitBytes?: number;
  /** Records of the big Tickets app (default 100000); changing it while running regenerates Tickets. */
  bigViewRecords?: number;
  /** Wait before answering any API or OAuth request, as a portal far away (default 0). */
  latencyMs?: number;
  /** Send response bodies at most this fast, in bytes per second; 0 = as fast as possible (default 0). */
  bytesPerSecond?: number;
  /** API requests per second per client (a token bucket); beyond it 429 with Retry-After; 0 = no limit (default 0). */
  rateLimit?: number;
  /** Requests a client may send at once above the rate, the bucket's size; 0 = as many as one second's rate (default 0). */
  rateBurst?: number;
  /** API requests of one client in flight at once; beyond it `overLimitStatus`; 0 = no limit (default 0). */
  maxInFlight?: number;
  /** The status beyond maxInFlight: 429 (default) or 503, both with Retry-After: 1. */
  overLimitStatus?: OverLimitStatus;
  /** Seed of the generator of the big app's records (default 1). */
  seed?: number;
  /** No console output. */
  quiet?: boolean;
  /** The demo client's credentials (defaults in README.md). */
  clientId?: string;
  clientSecret?: string;
  /** Redirect URIs registered for the demo client on top of the seeded ones. */
  redirectUris?: string[];
}

/** The options that can change while the emulator runs (POST /_emulator/config). */
export interface RuntimeConfig {
  autoApprove: boolean;
  tokenLifetimeSeconds: number;
  codeLifetimeSeconds: number;
  errorStyle: ErrorStyle;
  writeResponse: WriteResponse;
  columnRequired: boolean;
  appFlags: boolean;
  webhookRetries: number;
  webhookTimeoutMs: number;
  attachmentLimitBytes: number;
  bigViewRecords: number;
  latencyMs: number;
  bytesPerSecond: number;
  rateLimit: number;
  rateBurst: number;
  maxInFlight: number;
  overLimitStatus: OverLimitStatus;
  quiet: boolean;
}

export interface ResolvedOptions extends RuntimeConfig {
  port: number;
  seed: number;
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}

export const DEFAULT_CLIENT_ID = 'portal-explorer-demo';
export const DEFAULT_CLIENT_SECRET = 'demo-secret-5f1c0a9e7b3d';

const DEFAULTS: ResolvedOptions = {
  port: 0,
  autoApprove: false,
  tokenLifetimeSeconds: 3600,
  codeLifetimeSeconds: 600,
  errorStyle: 'nested',
  writeResponse: 'json',
  columnRequired: true,
  appFlags: true,
  webhookRetries: 0,
  webhookTimeoutMs: 5000,
  attachmentLimitBytes: 25 * 1024 * 1024,
  bigViewRecords: 100_000,
  latencyMs: 0,
  bytesPerSecond: 0,
  rateLimit: 0,
  rateBurst: 0,
  maxInFlight: 0,
  overLimitStatus: 429,
  seed: 1,
  quiet: false,
  clientId: DEFAULT_CLIENT_ID,
  clientSecret: DEFAULT_CLIENT_SECRET,
  redirectUris: [],
};

const RUNTIME_KEYS: ReadonlyArray<keyof RuntimeConfig> = [
  'autoApprove',
  'tokenLifetimeSeconds',
  'codeLifetimeSeconds',
  'errorStyle',
  'writeResponse',
  'columnRequired',
  'appFlags',
  'webhookRetries',
  'webhookTimeoutMs',
  'attachmentLimitBytes',
  'bigViewRecords',
  'latencyMs',
  'bytesPerSecond',
  'rateLimit',
  'rateBurst',
  'maxInFlight',
  'overLimitStatus',
  'quiet',
];

/** A bad option value, said in one sentence. */
export class OptionError extends Error {}

type Check = (value: unknown) => boolean;
const isBoolean: Check = (v) => typeof v === 'boolean';
const wholeNumber =
  (min: number, max = Number.MAX_SAFE_INTEGER): Check =>
  (v) =>
    typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
const oneOf =
  (...values: string[]): Check =>
  (v) =>
    typeof v === 'string' && values.includes(v);
const nonEmptyString: Check = (v) => typeof v === 'string' && v.length > 0;

const CHECKS: Record<keyof ResolvedOptions, [Check, string]> = {
  port: [wholeNumber(0, 65535), 'a port number 0-65535'],
  autoApprove: [isBoolean, 'true or false'],
  tokenLifetimeSeconds: [wholeNumber(0), 'a whole number of seconds >= 0'],
  codeLifetimeSeconds: [wholeNumber(0), 'a whole number of seconds >= 0'],
  errorStyle: [oneOf('nested', 'flat', 'text'), 'nested, flat or text'],
  writeResponse: [oneOf('json', 'empty', 'text'), 'json, empty or text'],
  columnRequired: [isBoolean, 'true or false'],
  appFlags: [isBoolean, 'true or false'],
  webhookRetries: [wholeNumber(0, 10), 'a whole number 0-10'],
  webhookTimeoutMs: [wholeNumber(1), 'a whole number of milliseconds >= 1'],
  attachmentLimitBytes: [wholeNumber(1), 'a whole number of bytes >= 1'],
  bigViewRecords: [wholeNumber(0, 10_000_000), 'a whole number 0-10000000'],
  latencyMs: [wholeNumber(0, 600_000), 'a whole number of milliseconds 0-600000'],
  bytesPerSecond: [wholeNumber(0), 'a whole number of bytes per second >= 0 (0: no limit)'],
  rateLimit: [wholeNumber(0, 1_000_000), 'a whole number of requests per second 0-1000000 (0: no limit)'],
  rateBurst: [wholeNumber(0, 1_000_000), 'a whole number of requests 0-1000000 (0: one second of the rate)'],
  maxInFlight: [wholeNumber(0, 100_000), 'a whole number of requests 0-100000 (0: no limit)'],
  overLimitStatus: [(v) => v === 429 || v === 503, '429 or 503'],
  seed: [wholeNumber(0, 0xffffffff), 'a whole number 0-4294967295'],
  quiet: [isBoolean, 'true or false'],
  clientId: [nonEmptyString, 'a non-empty string'],
  clientSecret: [nonEmptyString, 'a non-empty string'],
  redirectUris: [(v) => Array.isArray(v) && v.every(nonEmptyString), 'a list of URLs'],
};

function check(key: keyof ResolvedOptions, value: unknown): void {
  const [ok, expected] = CHECKS[key];
  if (!ok(value)) throw new OptionError(`Option ${key} must be ${expected}.`);
}

/** Fills in the defaults and checks every given value; throws OptionError on a bad one. */
export function resolveOptions(options: EmulatorOptions = {}): ResolvedOptions {
  const resolved: ResolvedOptions = { ...DEFAULTS, redirectUris: [...DEFAULTS.redirectUris] };
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined) continue;
    if (!(key in CHECKS)) throw new OptionError(`Unknown option ${key}.`);
    check(key as keyof ResolvedOptions, value);
    Object.assign(resolved, { [key]: value });
  }
  return resolved;
}

export function runtimeConfigOf(options: ResolvedOptions): RuntimeConfig {
  const config: Partial<RuntimeConfig> = {};
  for (const key of RUNTIME_KEYS) Object.assign(config, { [key]: options[key] });
  return config as RuntimeConfig;
}

/** Applies a JSON patch of runtime options (POST /_emulator/config); all or nothing. */
export function patchRuntimeConfig(config: RuntimeConfig, patch: unknown): RuntimeConfig {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) throw new OptionError('Send a JSON object of options.');
  const next = { ...config };
  for (const [key, value] of Object.entries(patch)) {
    if (!(RUNTIME_KEYS as readonly string[]).includes(key)) {
      throw new OptionError(`${key} cannot be changed while running; runtime options: ${RUNTIME_KEYS.join(', ')}.`);
    }
    check(key as keyof RuntimeConfig, value);
    Object.assign(next, { [key]: value });
  }
  return next;
}
