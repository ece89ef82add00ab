// Every `portal.*` setting: its type, default and bounds, and how a raw value from the configuration
// becomes a typed one. Pure (no vscode import) so the unit tests can check each definition against what
// package.json contributes: the two must say the same, and a test makes sure they do.
//
// One rule for every setting: a value VS Code's own validation would flag (wrong type, out of bounds, not
// one of the choices, not matching the pattern), typed into settings.json by hand, takes the default
// rather than breaking a feature.
import { isIP } from 'node:net';
import { isEmail } from '../api/email';
import { DEFAULT_MAX_ANSWER_BYTES } from '../api/limits';

interface Common<T> {
  readonly default: T;
  /**
   * `application` or `machine`: only the user's own settings set it (VS Code ignores a workspace's value),
   * for what a cloned repository's .vscode/settings.json must not turn on. Unset: VS Code's default.
   */
  readonly scope?: UserScope;
  /** The value to use for whatever the configuration holds. */
  normalize(value: unknown): T;
}

export interface IntegerSetting extends Common<number> {
  readonly type: 'integer';
  readonly minimum: number;
  readonly maximum: number;
}

export interface ChoiceSetting<T extends string> extends Common<T> {
  readonly type: 'string';
  readonly enum: readonly T[];
}

export interface TextSetting extends Common<string> {
  readonly type: 'string';
  readonly pattern?: string;
  readonly maxLength?: number;
}

export interface FlagSetting extends Common<boolean> {
  readonly type: 'boolean';
}

/** An object from a portal's base URL to one e-mail address (what USER columns hold). */
export interface EmailByPortalSetting extends Common<Readonly<Record<string, string>>> {
  readonly type: 'object';
  /** The pattern each value must match (package.json's `additionalProperties.pattern`). */
  readonly valuePattern: string;
}

/** By a portal's base URL, then by app id: the app's reference template ('TCK-{id}'). */
export interface TemplatesByAppSetting extends Common<Readonly<Record<string, Readonly<Record<string, string>>>>> {
  readonly type: 'object';
  /** The pattern each template must match (package.json's nested `additionalProperties.pattern`). */
  readonly templatePattern: string;
}

export type UserScope = 'application' | 'machine';

/** The setting read from the user's settings only (see Common.scope). */
function userOnly<D extends SettingDefinition>(definition: D, scope: UserScope): D & { readonly scope: UserScope } {
  return { ...definition, scope };
}

export type SettingDefinition =
  IntegerSetting | ChoiceSetting<string> | TextSetting | FlagSetting | EmailByPortalSetting | TemplatesByAppSetting;

function integer(defaultValue: number, minimum: number, maximum: number): IntegerSetting {
  return {
    type: 'integer',
    default: defaultValue,
    minimum,
    maximum,
    normalize: (value) =>
      typeof value === 'number' && Number.isInteger(value) && value >= minimum && value <= maximum ? value : defaultValue,
  };
}

function choice<const T extends string>(choices: readonly T[], defaultValue: T): ChoiceSetting<T> {
  return {
    type: 'string',
    enum: choices,
    default: defaultValue,
    normalize: (value) => (choices.includes(value as T) ? (value as T) : defaultValue),
  };
}

interface TextRules {
  /** The pattern package.json declares (JSON Schema's `pattern`, a JavaScript regular expression). */
  pattern?: string;
  maxLength?: number;
  /** Leading and trailing spaces are dropped before the checks (names and addresses). */
  trim?: boolean;
  /** A check beyond the pattern that a schema cannot say. */
  accept?: (value: string) => boolean;
}

function text(defaultValue: string, rules: TextRules): TextSetting {
  // Compiled when a value is first checked, not while the extension loads.
  let pattern: RegExp | undefined;
  return {
    type: 'string',
    default: defaultValue,
    pattern: rules.pattern,
    maxLength: rules.maxLength,
    normalize: (value) => {
      if (typeof value !== 'string') return defaultValue;
      const candidate = rules.trim ? value.trim() : value;
      if (rules.pattern !== undefined && !(pattern ??= new RegExp(rules.pattern)).test(candidate)) return defaultValue;
      if (rules.maxLength !== undefined && candidate.length > rules.maxLength) return defaultValue;
      if (rules.accept && !rules.accept(candidate)) return defaultValue;
      return candidate;
    },
  };
}

function flag(defaultValue: boolean): FlagSetting {
  return { type: 'boolean', default: defaultValue, normalize: (value) => (typeof value === 'boolean' ? value : defaultValue) };
}

/** Roughly an e-mail address: isEmail (api/email.ts), which the portal's rule is, decides. */
const EMAIL_ADDRESS = '^[^\\s@,]+@[^\\s@,]+$';

function emailByPortal(): EmailByPortalSetting {
  return {
    type: 'object',
    default: {},
    valuePattern: EMAIL_ADDRESS,
    normalize: (value) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
      // One bad entry (typed by hand) is dropped; the others still count.
      const entries = Object.entries(value as Record<string, unknown>).flatMap(([baseUrl, email]) =>
        typeof email === 'string' && isEmail(email.trim()) ? [[baseUrl, email.trim()] as const] : [],
      );
      return Object.fromEntries(entries);
    },
  };
}

/**
 * A reference template, roughly: references/patterns.ts's checkTemplate decides (this floor cannot import it),
 * and a template it refuses is left out where the patterns are read.
 */
const REFERENCE_TEMPLATE = '\\{id\\}';

function templatesByApp(): TemplatesByAppSetting {
  return {
    type: 'object',
    default: {},
    templatePattern: REFERENCE_TEMPLATE,
    normalize: (value) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
      // One bad entry (typed by hand) is dropped; the others still count.
      const portals = Object.entries(value as Record<string, unknown>).flatMap(([baseUrl, apps]) => {
        if (typeof apps !== 'object' || apps === null || Array.isArray(apps)) return [];
        const templates = Object.entries(apps as Record<string, unknown>).filter(
          (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1].includes('{id}'),
        );
        return templates.length === 0 ? [] : [[baseUrl, Object.fromEntries(templates)] as const];
      });
      return Object.fromEntries(portals);
    },
  };
}

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$";
/** An IPv4 or IPv6 address, roughly: node's isIP decides. */
const IP_ADDRESS = '^(\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*)$';

/** The settings, by their name after `portal.`. */
export const SETTINGS = {
  'auth.redirectMode': choice(['uriHandler', 'loopback'], 'uriHandler'),
  'auth.loopbackPort': integer(0, 0, 65535),
  'tree.pageSize': integer(100, 10, 1000),
  /** Requests in flight to one portal at most, all jobs together; below it the limiter adapts (records/limiter.ts). */
  'requests.maxInFlight': integer(32, 1, 256),
  /** The longest Retry-After obeyed, in seconds (records/retry.ts). */
  'requests.maxRetryAfterSeconds': integer(300, 1, 3600),
  /** The emulator's limit (25 MB); a real portal's is not documented. */
  'attachments.maxUploadBytes': integer(25 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
  /** Fixed, so the Payload URL pasted into the portal survives restarts; 0 picks a free port. */
  'webhooks.port': integer(37321, 0, 65535),
  /** Machine: where the receiver listens is the user's choice, never a workspace's (it opens a port to others). */
  'webhooks.bindAddress': userOnly(text('127.0.0.1', { pattern: IP_ADDRESS, trim: true, accept: (value) => isIP(value) !== 0 }), 'machine'),
  'webhooks.maxBodyBytes': integer(1024 * 1024, 1024, 64 * 1024 * 1024),
  'webhooks.eventHeader': text('X-Portal-Event', { pattern: HEADER_NAME, trim: true }),
  'webhooks.deliveryHeader': text('X-Portal-Delivery', { pattern: HEADER_NAME, trim: true }),
  'webhooks.signatureHeader': text('X-Portal-Signature', { pattern: HEADER_NAME, trim: true }),
  'webhooks.signaturePrefix': text('sha256=', { pattern: '^\\S*$', maxLength: 32 }),
  'webhooks.signatureAlgorithm': choice(['sha256', 'sha1'], 'sha256'),
  'webhooks.signatureEncoding': choice(['hex', 'base64'], 'hex'),
  'webhooks.maxEvents': integer(200, 1, 10_000),
  /** Machine: a workspace must not open a port as soon as it is opened. */
  'webhooks.autoStart': userOnly(flag(false), 'machine'),
  /**
   * Answers read whole (not a streamed view read), counted decompressed: 1 MB to 2 GB. Machine: the bound
   * protects this machine's memory, which a repository's settings must not raise.
   */
  'http.maxAnswerBytes': userOnly(integer(DEFAULT_MAX_ANSWER_BYTES, 1024 * 1024, 2 * 1024 * 1024 * 1024), 'machine'),
  /**
   * Offers the agent's tools that create, update and comment on records (each still asks first).
   * Application: a repository's settings must not let an agent (steered by that repository's text) write.
   */
  'agent.allowChanges': userOnly(flag(false), 'application'),
  /**
   * Who "me" is on each portal, whose API cannot say: USER columns are matched against it (My Records,
   * Start Work). Application: a repository's settings must not say who the user is.
   */
  'me.email': userOnly(emailByPortal(), 'application'),
  /** How often a watched view (and My Records) is read again, in seconds (watch/scheduler.ts). */
  'watch.intervalSeconds': integer(300, 1, 86_400),
  /** A notification when a watched read finds one of the user's own records changed. */
  'watch.notifyMyRecords': flag(true),
  /** Start Work's branch: {id} (needed, so two records never share a branch), {slug} of the title, {app}. */
  'startWork.branchTemplate': text('{id}-{slug}', { pattern: '\\{id\\}', maxLength: 200, trim: true }),
  /** The words that make a comment a TODO that Create Record from TODO offers to turn into a record. */
  'todo.triggers': text('TODO, FIXME', { pattern: '^[\\w\\s,-]+$', maxLength: 200 }),
  /**
   * How code and commit messages refer to each app's records, where the workspace file does not say
   * (its apps' "reference" come first).
   */
  references: templatesByApp(),
  /** Versions of one record kept in Record History (history/versionLog.ts), oldest dropped first. */
  'history.maxVersionsPerRecord': integer(50, 1, 10_000),
  /** All records' versions together, in megabytes, oldest dropped first. */
  'history.maxTotalMegabytes': integer(20, 1, 10_000),
} as const;

export type SettingKey = keyof typeof SETTINGS;
export type SettingValue<K extends SettingKey> = ReturnType<(typeof SETTINGS)[K]['normalize']>;

/** The section every setting lives in. */
export const SECTION = 'portal';

export function settingId(key: SettingKey): string {
  return `${SECTION}.${key}`;
}
