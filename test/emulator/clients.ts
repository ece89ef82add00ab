// Client applications registered in the portal (System Admin > Portal Settings > Web API Setting) and the
// matching of redirect URIs (README.md, "OAuth 2.0").

export interface Client {
  client_id: string;
  client_secret: string;
  name: string;
  redirect_uris: string[];
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

function parse(uri: string): URL | undefined {
  try {
    return new URL(uri);
  } catch {
    return undefined;
  }
}

/**
 * Whether `requested` is one of the client's registered redirect URIs: the same string, or, for loopback
 * http URIs (RFC 8252 §7.3), the same scheme, host and path with any port and any query.
 */
export function isRegisteredRedirect(client: Client, requested: string): boolean {
  if (client.redirect_uris.includes(requested)) return true;
  const url = parse(requested);
  if (!url || url.protocol !== 'http:' || !isLoopbackHost(url.hostname) || url.hash) return false;
  return client.redirect_uris.some((registered) => {
    const candidate = parse(registered);
    return (
      candidate !== undefined &&
      candidate.protocol === url.protocol &&
      candidate.hostname === url.hostname &&
      candidate.pathname === url.pathname
    );
  });
}

/** Checks a redirect URI given to POST /_emulator/clients; returns the problem or undefined. */
export function redirectUriProblem(uri: string): string | undefined {
  const url = parse(uri);
  if (!url) return `${uri} is not an absolute URI`;
  if (url.hash) return `${uri} has a fragment, which redirect URIs may not have`;
  return undefined;
}

/** The demo client's redirect URIs: the emulator's own callback page and the usual loopback and VS Code ones. */
export function demoRedirectUris(extra: string[]): string[] {
  return [
    'http://127.0.0.1/_emulator/callback',
    'http://127.0.0.1/callback',
    'http://localhost/callback',
    'vscode://portal-labs.portal-explorer/auth',
    ...extra,
  ];
}
