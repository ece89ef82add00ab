// The signature of a webhook delivery: an HMAC of the raw body with the webhook's Secret Key. The
// documentation does not show the algorithm or the header, so the scheme is data, not code: the emulator's
// `X-Portal-Signature: sha256=<hex>` is the default, and a real portal's scheme (another header, prefix,
// sha1, base64) is matched by configuration. Comparison is constant-time.
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface SignatureScheme {
  /** Header carrying the signature, lower case (node's IncomingMessage.headers keys). */
  header: string;
  /** Text before the digest in the header value, e.g. "sha256="; "" for none. */
  prefix: string;
  algorithm: 'sha256' | 'sha1';
  encoding: 'hex' | 'base64';
}

export const DEFAULT_SIGNATURE_SCHEME: Readonly<SignatureScheme> = Object.freeze({
  header: 'x-portal-signature',
  prefix: 'sha256=',
  algorithm: 'sha256',
  encoding: 'hex',
});

export type SignatureVerdict = { valid: true } | { valid: false; reason: 'missing' | 'malformed' | 'mismatch'; message: string };

function digest(secret: string, rawBody: string | Uint8Array, scheme: SignatureScheme): Buffer {
  return createHmac(scheme.algorithm, secret).update(rawBody).digest();
}

/** The header value a sender with `secret` puts on `rawBody`, e.g. "sha256=5d41…". */
export function computeSignature(secret: string, rawBody: string | Uint8Array, scheme: SignatureScheme = DEFAULT_SIGNATURE_SCHEME): string {
  return scheme.prefix + digest(secret, rawBody, scheme).toString(scheme.encoding);
}

const HEX = /^[0-9a-fA-F]+$/;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

function decode(text: string, encoding: SignatureScheme['encoding']): Buffer | undefined {
  if (encoding === 'hex') return HEX.test(text) && text.length % 2 === 0 ? Buffer.from(text, 'hex') : undefined;
  return BASE64.test(text) ? Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64') : undefined;
}

/**
 * Whether `headerValue` is the signature of `rawBody` (the exact bytes received, before any parsing) under
 * `secret`. The prefix is matched case-insensitively and surrounding spaces are ignored; the digests are
 * compared in constant time.
 */
export function verifySignature(
  secret: string,
  rawBody: string | Uint8Array,
  headerValue: string | readonly string[] | undefined,
  scheme: SignatureScheme = DEFAULT_SIGNATURE_SCHEME,
): SignatureVerdict {
  const value = (Array.isArray(headerValue) ? headerValue[0] : headerValue)?.trim();
  if (!value) return { valid: false, reason: 'missing', message: `The delivery has no ${scheme.header} header.` };
  if (value.slice(0, scheme.prefix.length).toLowerCase() !== scheme.prefix.toLowerCase()) {
    return { valid: false, reason: 'malformed', message: `The ${scheme.header} header does not start with "${scheme.prefix}".` };
  }
  const given = decode(value.slice(scheme.prefix.length).trim(), scheme.encoding);
  const expected = digest(secret, rawBody, scheme);
  if (!given || given.length !== expected.length) {
    return {
      valid: false,
      reason: 'malformed',
      message: `The ${scheme.header} header is not a ${scheme.algorithm} ${scheme.encoding} digest.`,
    };
  }
  if (!timingSafeEqual(given, expected)) {
    return {
      valid: false,
      reason: 'mismatch',
      message: `The ${scheme.header} signature does not match the body: wrong secret or altered payload.`,
    };
  }
  return { valid: true };
}
