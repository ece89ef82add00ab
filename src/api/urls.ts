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
    throw new PortalError({ kind: 'invalid-input', code: 'invalid_base_url', message: `The portal address must start with https:// or http://, got ${url.protocol}.` });
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
