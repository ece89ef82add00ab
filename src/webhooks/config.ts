// The webhook receiver's settings, read into one typed value. The portal's documentation does not show its
// event header, signature header or signature format, so all of them are settings whose defaults match the
// emulator (test/emulator/README.md). Definitions and defaults: src/settings/definitions.ts. Pure (no
// vscode import): src/webhooks/settings.ts feeds it from the configuration, the unit tests directly.
import { isIP } from 'node:net';
import type { SignatureScheme } from '../api/webhookSignature';
import { SETTINGS, type SettingKey, type SettingValue } from '../settings/definitions';

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

/** The settings under `portal.webhooks.`, by their name after it. */
type WebhookKey = Extract<SettingKey, `webhooks.${string}`> extends `webhooks.${infer Name}` ? Name : never;

const definition = <K extends WebhookKey>(key: K) => SETTINGS[`webhooks.${key}`];

export const DEFAULT_PORT = definition('port').default;
export const LOOPBACK = definition('bindAddress').default;

/** Bounds of the numeric settings, as package.json declares them. */
export const LIMITS = {
  maxBodyBytes: { min: definition('maxBodyBytes').minimum, max: definition('maxBodyBytes').maximum },
  maxEvents: { min: definition('maxEvents').minimum, max: definition('maxEvents').maximum },
} as const;

/** Reads every setting through `get` (the key after "portal.webhooks."); a value that fails its checks takes its default. */
export function normalizeWebhookSettings(get: (key: WebhookKey) => unknown): WebhookSettings {
  const read = <K extends WebhookKey>(key: K): SettingValue<`webhooks.${K}`> =>
    definition(key).normalize(get(key)) as SettingValue<`webhooks.${K}`>;
  return {
    port: read('port'),
    bindAddress: read('bindAddress'),
    maxBodyBytes: read('maxBodyBytes'),
    eventHeader: read('eventHeader').toLowerCase(),
    deliveryHeader: read('deliveryHeader').toLowerCase(),
    scheme: {
      header: read('signatureHeader').toLowerCase(),
      prefix: read('signaturePrefix'),
      algorithm: read('signatureAlgorithm'),
      encoding: read('signatureEncoding'),
    },
    maxEvents: read('maxEvents'),
    autoStart: read('autoStart'),
  };
}

export const WEBHOOK_DEFAULTS: WebhookSettings = Object.freeze(normalizeWebhookSettings(() => undefined));

export { isLoopbackAddress } from '../api/urls';

/** The host part of a URL for a bind address: a wildcard address is reached through loopback. */
export function urlHost(bindAddress: string): string {
  if (bindAddress === '0.0.0.0') return LOOPBACK;
  if (bindAddress === '::') return '[::1]';
  return isIP(bindAddress) === 6 ? `[${bindAddress}]` : bindAddress;
}
