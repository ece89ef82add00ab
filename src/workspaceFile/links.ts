// Links to a record, a view or a saved query: <scheme>://portal-labs.portal-explorer/open?portal=…&app=…
// (in VS Code for the web, the workbench's own form of it, via asExternalUri). A link names the portal by
// its address and name, never by this machine's connection id, so that it opens on a colleague's VS Code
// too; it carries no token or secret. Any web page can open such a link: what it names is checked here,
// and opening it only reads (a record, a view, a query), never changes anything.

export interface LinkTarget {
  /** The portal's address. */
  readonly portal: string;
  /** The portal's name, to find it in the workspace file when this VS Code lacks it. */
  readonly name: string;
  readonly appId: string;
  readonly viewId?: string;
  readonly recordId?: string;
  /** A saved query of the view. */
  readonly queryName?: string;
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The link's query string (URL-encoded). */
export function linkQuery(target: LinkTarget): string {
  const entries: [string, string | undefined][] = [
    ['portal', target.portal],
    ['name', target.name],
    ['app', target.appId],
    ['view', target.viewId],
    ['record', target.recordId],
    ['query', target.queryName],
  ];
  return new URLSearchParams(entries.filter((entry): entry is [string, string] => entry[1] !== undefined)).toString();
}

/** What a link's query names; throws an Error that says what is wrong with it. */
export function parseLinkQuery(query: string): LinkTarget {
  const params = new URLSearchParams(query);
  const portal = params.get('portal') ?? '';
  let url: URL;
  try {
    url = new URL(portal);
  } catch {
    throw new Error('This Portal Explorer link names no portal address: it may have been cut short.');
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password)
    throw new Error(`This Portal Explorer link names "${portal}", which is not a portal address.`);
  const appId = params.get('app') ?? '';
  if (!ID.test(appId)) throw new Error('This Portal Explorer link names no app: it may have been cut short.');
  const optionalId = (key: string, what: string): string | undefined => {
    const value = params.get(key);
    if (value === null) return undefined;
    if (!ID.test(value)) throw new Error(`This Portal Explorer link's ${what} id "${value}" is not one.`);
    return value;
  };
  const viewId = optionalId('view', 'view');
  const recordId = optionalId('record', 'record');
  const queryName = params.get('query') ?? undefined;
  if (queryName !== undefined && (viewId === undefined || queryName.trim() === ''))
    throw new Error('This Portal Explorer link names a saved query without its view.');
  if (viewId === undefined && recordId === undefined) throw new Error('This Portal Explorer link names neither a view nor a record.');
  const name = params.get('name')?.trim() || url.host;
  return {
    portal: portal.replace(/\/+$/, ''),
    name,
    appId,
    ...(viewId ? { viewId } : {}),
    ...(recordId ? { recordId } : {}),
    ...(queryName !== undefined ? { queryName } : {}),
  };
}
