// Addresses of the API under a portal's base URL. The base URL may carry a path (a portal behind a
// reverse proxy), a trailing slash, or even the "/api/v1" the user copied from the documentation.
import { PortalError } from './errors';

const VERSION_PREFIX = '/api/v1';

/** The base URL checked and normalised: http(s), no query or fragment, no trailing slash or /api/v1. */
export function normaliseBaseUrl(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    throw new PortalError({ kind: 'invalid-input', code: 'invalid_base_url', message: `The portal address "${baseUrl}" is not a URL.` });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new PortalError({
      kind: 'invalid-input',
      code: 'invalid_base_url',
      message: `The portal address must start with https:// or http://, got ${url.protocol}.`,
    });
  }
  url.search = '';
  url.hash = '';
  url.pathname = url.pathname.replace(/\/+$/, '').replace(/\/api\/v1$/i, '');
  return url;
}

/** base + /api/v1/ + the segments, each percent-encoded (ids cannot break out of their segment). */
export function apiUrl(base: URL, segments: readonly string[], query?: Iterable<[string, string]>): URL {
  return new URL(apiAddress(apiPrefix(base), segments, query));
}

/** The text every API address of a base starts with ("…/api/v1/"), for apiAddress. */
export function apiPrefix(base: URL): string {
  return `${base.href.replace(/\/+$/, '')}${VERSION_PREFIX}/`;
}

/**
 * apiUrl as text, from apiPrefix's text: what the client sends, built without parsing a URL per request
 * (the base was checked once; the transport parses the address anyway).
 */
export function apiAddress(prefix: string, segments: readonly string[], query?: Iterable<[string, string]>): string {
  let address = prefix;
  for (let index = 0; index < segments.length; index += 1) {
    const segment = segments[index];
    // Percent-encoding cannot keep these in their segment: a URL parser reads "..", "%2e%2e" and the
    // like as a step up, so record ".." of app 101 would be GET /api/v1/app/101/. An empty segment is
    // only the trailing slash of an address that ends with one (create: …/record/).
    if (segment === '.' || segment === '..' || (segment === '' && index < segments.length - 1)) {
      const role = index > 0 ? `${segments[index - 1]} id` : 'address segment';
      throw new PortalError({ kind: 'invalid-input', code: 'invalid_id', message: `"${segment}" is not a valid ${role}.` });
    }
    address += (index === 0 ? '' : '/') + encodeURIComponent(segment);
  }
  if (!query) return address;
  const search = new URLSearchParams([...query]).toString();
  return search ? `${address}?${search}` : address;
}

/** True for addresses only this machine can reach (127.0.0.0/8, ::1, and 127.x mapped into IPv6). */
export function isLoopbackAddress(address: string): boolean {
  const mapped = /^::ffff:(.+)$/i.exec(address)?.[1];
  if (mapped !== undefined) {
    // The URL parser writes ::ffff:127.0.0.1 as ::ffff:7f00:1.
    return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(mapped) || /^7f[0-9a-f]{2}:[0-9a-f]{1,4}$/i.test(mapped);
  }
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address) || address === '::1';
}

/** A URL's hostname that is this machine: a loopback address, or localhost and its subdomains (RFC 6761). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return host === 'localhost' || host.endsWith('.localhost') || isLoopbackAddress(host);
}

/** Whether a portal at this base URL would get the client secret, codes and tokens in clear text. */
export function exposesInClearText(base: URL): boolean {
  return base.protocol === 'http:' && !isLoopbackHost(base.hostname);
}

/**
 * The base URL normalised, refused when it is plain http:// to another machine and the user has not
 * confirmed that for this portal (the connection's allowPlainHttp): every call that carries a secret, a
 * code or a token starts here, so none leaves in clear text unasked.
 */
export function portalBase(baseUrl: string, allowPlainHttp = false): URL {
  const base = normaliseBaseUrl(baseUrl);
  if (!allowPlainHttp && exposesInClearText(base)) {
    throw new PortalError({
      kind: 'invalid-input',
      code: 'plain_http',
      message: `The portal address ${base.origin} is not encrypted (http://, not https://): the client secret, the sign-in codes and tokens, and every record read or written would cross the network in clear text, for anyone on the way to read or change. Use the portal's https:// address, or confirm plain http:// for this portal when VS Code asks (adding it, or signing in to it).`,
    });
  }
  return base;
}
