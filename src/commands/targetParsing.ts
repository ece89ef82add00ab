// What a command is about, read from whatever it was given: a tree element, a plain object with the
// fields, another command's target, or a record document's URI (portal://<portalId>/<appId>/<recordId>.json).
// Pure (no `vscode` import), so the parsing is unit-tested in plain node; targets.ts adds the vscode.Uri side.

export interface PortalTarget {
  readonly portalId: string;
}

export interface AppTarget {
  readonly portalId: string;
  readonly appId: string;
}

export interface ViewTarget extends AppTarget {
  readonly viewId: string;
  readonly viewName?: string;
}

export interface RecordTarget extends AppTarget {
  readonly recordId: string;
}

export const RECORD_SCHEME = 'portal';

/** The parts of a URI this module reads; vscode.Uri has them, so does a parsed string. */
interface UriLike {
  readonly scheme: string;
  readonly authority: string;
  readonly path: string;
}

function isUriLike(value: object): value is UriLike {
  const candidate = value as Partial<Record<keyof UriLike, unknown>>;
  return typeof candidate.scheme === 'string' && typeof candidate.authority === 'string' && typeof candidate.path === 'string';
}

/** A non-empty id without the characters that would break a URI path segment or a storage key. */
function idOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' && !/[/\\?#\s]/.test(value) ? value : undefined;
}

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * portal://<portalId>/<appId>/<recordId>.json (path decoded, as vscode.Uri keeps it); a URI of the app's
 * other documents (portal://<portalId>/<appId>/...) gives the app without a record.
 */
function partsOfUri(uri: UriLike): { portalId: string; appId: string; recordId?: string } | undefined {
  if (uri.scheme !== RECORD_SCHEME) return undefined;
  const portalId = idOf(uri.authority);
  const segments = uri.path.split('/').filter((segment) => segment !== '');
  const appId = idOf(segments[0]);
  if (portalId === undefined || appId === undefined) return undefined;
  const match = segments.length === 2 ? /^(.+)\.json$/.exec(segments[1]) : null;
  const recordId = match ? idOf(match[1]) : undefined;
  return { portalId, appId, recordId };
}

/** A record URI given as text ("portal://prod/201/5.json"). */
function uriOfText(text: string): UriLike | undefined {
  const match = /^portal:\/\/([^/?#]*)(\/[^?#]*)?/.exec(text);
  const path = match ? safeDecode(match[2] ?? '') : undefined;
  return match && path !== undefined ? { scheme: RECORD_SCHEME, authority: match[1], path } : undefined;
}

/** The fields of `arg` as strings, whether it is an object carrying them or a record URI. */
function fieldsOf(arg: unknown): Record<string, unknown> | undefined {
  if (typeof arg === 'string') {
    const uri = uriOfText(arg);
    return uri ? partsOfUri(uri) : undefined;
  }
  if (typeof arg !== 'object' || arg === null) return undefined;
  if (isUriLike(arg)) return partsOfUri(arg);
  return arg as Record<string, unknown>;
}

export function portalTargetOf(arg: unknown): PortalTarget | undefined {
  const fields = fieldsOf(arg);
  const portalId = idOf(fields?.portalId);
  return portalId === undefined ? undefined : { portalId };
}

export function appTargetOf(arg: unknown): AppTarget | undefined {
  const fields = fieldsOf(arg);
  const portalId = idOf(fields?.portalId);
  const appId = idOf(fields?.appId);
  return portalId === undefined || appId === undefined ? undefined : { portalId, appId };
}

export function viewTargetOf(arg: unknown): ViewTarget | undefined {
  const app = appTargetOf(arg);
  const fields = fieldsOf(arg);
  const viewId = idOf(fields?.viewId);
  if (!app || viewId === undefined) return undefined;
  const viewName = typeof fields?.viewName === 'string' && fields.viewName !== '' ? fields.viewName : undefined;
  return viewName === undefined ? { ...app, viewId } : { ...app, viewId, viewName };
}

export function recordTargetOf(arg: unknown): RecordTarget | undefined {
  const app = appTargetOf(arg);
  const recordId = idOf(fieldsOf(arg)?.recordId);
  return !app || recordId === undefined ? undefined : { ...app, recordId };
}

/** The (decoded) path of a record document's URI: /<appId>/<recordId>.json. */
export function recordPath(target: RecordTarget): string {
  return `/${target.appId}/${target.recordId}.json`;
}

/** Same portal, app and record (a target's other fields do not matter). */
export function sameRecord(a: RecordTarget, b: RecordTarget): boolean {
  return a.portalId === b.portalId && a.appId === b.appId && a.recordId === b.recordId;
}
