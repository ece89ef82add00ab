// Connection ids: the URI authority of record documents (portal://<id>/<app_id>/<record_id>.json), so short,
// lower-case, made of letters, digits and "-" only, stable once given, and never reused by two connections.
const MAX_LENGTH = 32;

/** A slug of the display name (or of the portal's host when the name has no usable character). */
export function slugOf(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_LENGTH)
    .replace(/-+$/, '');
  return slug;
}

/** A new id for `label` that none of `taken` has: "staging", then "staging-2", "staging-3", ... */
export function newConnectionId(label: string, baseUrl: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  let host = 'portal';
  try {
    host = new URL(baseUrl).hostname;
  } catch {
    // The base URL was checked before; "portal" is only a fallback for the fallback.
  }
  const base = slugOf(label) || slugOf(host) || 'portal';
  if (!used.has(base)) return base;
  for (let n = 2; ; n += 1) {
    const candidate = `${base.slice(0, MAX_LENGTH - String(n).length - 1)}-${n}`;
    if (!used.has(candidate)) return candidate;
  }
}

export function isConnectionId(value: string): boolean {
  return /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/.test(value);
}
