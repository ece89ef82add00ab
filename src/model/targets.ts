// What an action is about, read from whatever it was given: a tree element, a plain object with the
// fields, another action's target, or a portal document's URI (read by recordAddress.ts). Pure (no `vscode`
// import), unit-tested in plain node; recordUri.ts adds the vscode.Uri side.
import { isId, parseAddress, uriOfText, type UriLike } from './recordAddress';

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

/** A non-empty id without the characters that would break a URI path segment or a storage key. */
function idOf(value: unknown): string | undefined {
  return isId(value) ? value : undefined;
}

function isUriLike(value: object): value is UriLike {
  const candidate = value as Partial<Record<keyof UriLike, unknown>>;
  return typeof candidate.scheme === 'string' && typeof candidate.authority === 'string' && typeof candidate.path === 'string';
}

/** A portal document's URI gives its portal and app, and its record when it is a record's. */
function partsOfUri(uri: UriLike): { portalId: string; appId?: string; recordId?: string } | undefined {
  const address = parseAddress(uri);
  if (!address) return undefined;
  if (address.kind === 'record') return { portalId: address.portalId, appId: address.appId, recordId: address.recordId };
  return { portalId: address.portalId, appId: address.appId };
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

/** Same portal, app and record (a target's other fields do not matter). */
export function sameRecord(a: RecordTarget, b: RecordTarget): boolean {
  return a.portalId === b.portalId && a.appId === b.appId && a.recordId === b.recordId;
}
