// The portal's own words in an error response. The documentation shows no error body, so every common shape
// is read: the emulator's nested {"error": {code, message, field}}, OAuth's flat {"error", "error_description"},
// {"message"}, {"errors": [...]}, plain text and HTML pages (a proxy's 502). Anything else yields nothing
// rather than a crash.
import { PortalError } from './errors';

export interface PortalErrorBody {
  message?: string;
  code?: string;
  field?: string;
}

const MAX_MESSAGE_LENGTH = 300;
const CODE_LIKE = /^[A-Za-z][A-Za-z0-9_.-]*$/;

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  if (typeof value === 'number') return String(value);
  return undefined;
}

function oneLine(message: string): string {
  const flat = message.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_MESSAGE_LENGTH ? `${flat.slice(0, MAX_MESSAGE_LENGTH - 1)}…` : flat;
}

function fromObject(body: Record<string, unknown>): PortalErrorBody {
  const error = body.error;
  if (error !== null && typeof error === 'object' && !Array.isArray(error)) {
    const nested = error as Record<string, unknown>;
    return {
      code: text(nested.code) ?? text(nested.type),
      message: text(nested.message) ?? text(nested.description) ?? text(nested.error_description),
      field: text(nested.field),
    };
  }
  if (Array.isArray(body.errors) && body.errors.length > 0) {
    const first: unknown = body.errors[0];
    if (typeof first === 'string') return { message: first };
    if (first !== null && typeof first === 'object') return fromObject({ error: first });
  }
  const errorText = text(error);
  const description = text(body.error_description) ?? text(body.message) ?? text(body.detail) ?? text(body.error_message);
  const isCode = errorText !== undefined && CODE_LIKE.test(errorText);
  return {
    code: (isCode ? errorText : undefined) ?? text(body.code),
    message: description ?? (isCode ? undefined : errorText),
    field: text(body.field),
  };
}

function fromHtml(html: string): string | undefined {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1];
  const source = title ?? html.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' ');
  return text(
    source
      .replace(/&nbsp;/g, ' ')
      .replace(/&amp;/g, '&')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>'),
  );
}

/** What an error body says, whatever its shape; empty when it says nothing readable. */
export function portalMessageOf(body: Uint8Array, contentType: string | null): PortalErrorBody {
  if (body.length === 0) return {};
  const raw = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8').trim();
  let found: PortalErrorBody = {};
  if (raw.startsWith('{') || raw.startsWith('[') || /json/i.test(contentType ?? '')) {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (Array.isArray(parsed)) found = fromObject({ errors: parsed });
      else if (parsed !== null && typeof parsed === 'object') found = fromObject(parsed as Record<string, unknown>);
      else if (typeof parsed === 'string') found = { message: parsed };
    } catch {
      found = { message: raw };
    }
  } else if (/html/i.test(contentType ?? '') || /^<(!doctype|html)/i.test(raw)) {
    found = { message: fromHtml(raw) };
  } else {
    found = { message: raw };
  }
  return {
    code: found.code,
    field: found.field,
    message: found.message === undefined ? undefined : oneLine(found.message),
  };
}

/** Removes every occurrence of the given secrets (and anything shaped like a bearer credential) from text. */
export function redactSecrets(message: string, secrets: readonly (string | undefined)[]): string {
  let result = message;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) result = result.split(secret).join('<redacted>');
  }
  return result.replace(/\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, '$1 <redacted>');
}

/** Field keys as the documentation shows them: f<N>, and l<N> for a Lookup app's columns in a view. */
const FIELD_KEY = /(?<![A-Za-z0-9_])[fl]\d+(?![A-Za-z0-9_])/g;

/**
 * The field a 400 is about when the body does not say (flat and text error bodies): the one sent field the
 * message names, else the one field key it names (a missing required field was not sent).
 */
export function fieldNamedIn(message: string | undefined, sent: readonly string[]): string | undefined {
  if (!message) return undefined;
  const named = sent.filter((field) =>
    new RegExp(`(^|[^A-Za-z0-9_])${field.replace(/[^A-Za-z0-9_]/g, '\\$&')}($|[^A-Za-z0-9_])`).test(message),
  );
  if (named.length === 1) return named[0];
  if (named.length > 1) return undefined;
  const keys = new Set(message.match(FIELD_KEY) ?? []);
  return keys.size === 1 ? [...keys][0] : undefined;
}

export function withField(error: PortalError, field: string): PortalError {
  return new PortalError({
    kind: error.kind,
    message: error.message,
    status: error.status,
    portalMessage: error.portalMessage,
    code: error.code,
    field,
  });
}
