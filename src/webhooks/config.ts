// The webhook receiver's settings, read into one typed value. The portal's documentation does not show its
// event header, signature header or signature format, so all of them are settings whose defaults match the
// emulator (test/emulator/README.md). Pure (no vscode import): src/webhooks/settings.ts feeds it from the
// configuration, and the unit tests feed it directly.
import { isIP } from 'node:net';
import type { SignatureScheme } from '../api/webhookSignature';

export interface WebhookSettings {
  /** 0: any free port (the Payload URL changes with each start). */
  readonly port: number;
  readonly bindAddress: string;
  readonly maxBodyBytes: number;
  /** Header names, lower case (as node hands them over). */
  readonly eventHeader: string;
  readonly deliveryHeader: string;
  readonly scheme: SignatureScheme;
  readonly maxEvents: number;
  readonly autoStart: boolean;
}

/**
 * A fixed port by default so that the Payload URL pasted into the portal keeps working across restarts of
 * VS Code; 0 picks a free port each time (tests, or when this one is taken).
 */
export const DEFAULT_PORT = 37321;
export const LOOPBACK = '127.0.0.1';

export const WEBHOOK_DEFAULTS: WebhookSettings = Object.freeze({
  port: DEFAULT_PORT,
  bindAddress: LOOPBACK,
  maxBodyBytes: 1024 * 1024,
  eventHeader: 'x-portal-event',
  deliveryHeader: 'x-portal-delivery',
  scheme: Object.freeze({ header: 'x-portal-signature', prefix: 'sha256=', algorithm: 'sha256', encoding: 'hex' }),
  maxEvents: 200,
  autoStart: false,
});

/** Bounds of the numeric settings (package.json declares the same). */
export const LIMITS = {
  maxBodyBytes: { min: 1024, max: 64 * 1024 * 1024 },
  maxEvents: { min: 1, max: 10_000 },
} as const;

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function integer(value: unknown, fallback: number, min: number, max: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max ? value : fallback;
}

function headerName(value: unknown, fallback: string): string {
  return typeof value === 'string' && HEADER_NAME.test(value.trim()) ? value.trim().toLowerCase() : fallback;
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return allowed.includes(value as T) ? (value as T) : fallback;
}

/** Reads every setting through `get` (the key after "portal.webhooks."); a value out of bounds takes its default. */
export function normalizeWebhookSettings(get: (key: string) => unknown): WebhookSettings {
  const d = WEBHOOK_DEFAULTS;
  const bind = get('bindAddress');
  const prefix = get('signaturePrefix');
  return {
    port: integer(get('port'), d.port, 0, 65535),
    bindAddress: typeof bind === 'string' && isIP(bind.trim()) !== 0 ? bind.trim() : d.bindAddress,
    maxBodyBytes: integer(get('maxBodyBytes'), d.maxBodyBytes, LIMITS.maxBodyBytes.min, LIMITS.maxBodyBytes.max),
    eventHeader: headerName(get('eventHeader'), d.eventHeader),
    deliveryHeader: headerName(get('deliveryHeader'), d.deliveryHeader),
    scheme: {
      header: headerName(get('signatureHeader'), d.scheme.header),
      prefix: typeof prefix === 'string' && !/\s/.test(prefix) && prefix.length <= 32 ? prefix : d.scheme.prefix,
      algorithm: oneOf(get('signatureAlgorithm'), ['sha256', 'sha1'], d.scheme.algorithm),
      encoding: oneOf(get('signatureEncoding'), ['hex', 'base64'], d.scheme.encoding),
    },
    maxEvents: integer(get('maxEvents'), d.maxEvents, LIMITS.maxEvents.min, LIMITS.maxEvents.max),
    autoStart: get('autoStart') === true,
  };
}

/** True for addresses only this machine can reach (127.0.0.0/8, ::1). */
export function isLoopbackAddress(address: string): boolean {
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address) || address === '::1' || address === '::ffff:127.0.0.1';
}

/** The host part of a URL for a bind address: a wildcard address is reached through loopback. */
export function urlHost(bindAddress: string): string {
  if (bindAddress === '0.0.0.0') return LOOPBACK;
  if (bindAddress === '::') return '[::1]';
  return isIP(bindAddress) === 6 ? `[${bindAddress}]` : bindAddress;
}
