// The address of every document of the `portal:` file system: one parse, one build. The authority is the
// portal's connection id; the path says which document:
//   /<app_id> <app name>/<title> · <record_id>.json   a record, named for its tab
//   /<app_id>/<record_id>.json                        the same record, by ids only (older addresses too)
//   /<app_id>/new/new-record-<n>.json                 a record not created yet (saving it creates it);
//   /<app_id>/new/new-draft-<n>.json                  new-draft-: to be created as a draft. The address holds
//                                                     all a new record's document needs, so that one VS Code
//                                                     restores after a reload saves as it would have
//   /<app_id>/schema/record.json                      the JSON Schema of the app's records (read-only)
//   /<app_id> <app name>/views/<view name> — <app name> · <view_id>
//                                                     a view as an editable grid (the custom editor
//                                                     portal.grid, which claims portal:/*/views/*; no file
//                                                     system reads it). No extension: it would show in
//                                                     the tab. Older versions ended it in .grid, still read
// VS Code names a tab by the address's last segment (a label formatter cannot change that), so a record's
// address carries its title; and where two tabs look alike VS Code describes them by their folders, so
// the app's segment carries its name (and the label formatter of package.json adds the portal). Names are
// decoration: the parse reads ids only (the app's id before the first space, the record's after the last
// " · "), so an address made before a rename, or by ids, still finds the record. New records and schemas
// live one folder down so that no record id can be mistaken for them (a record has exactly two segments).
// Pure (no `vscode` import), unit-tested in plain node.

import { RECORD_SCHEME } from '../ids';

export type DocumentPath =
  | { readonly kind: 'record'; readonly appId: string; readonly recordId: string }
  | { readonly kind: 'new'; readonly appId: string; readonly name: string; readonly n: number; readonly draft: boolean }
  | { readonly kind: 'schema'; readonly appId: string }
  | { readonly kind: 'view'; readonly appId: string; readonly viewId: string }
  | { readonly kind: 'directory'; readonly appId?: string };

/** A portal document's address, parsed: the portal, and which of its documents. */
export type DocumentAddress = DocumentPath & { readonly portalId: string };

/** The parts of a URI this module reads; vscode.Uri has them, so does a parsed string. */
export interface UriLike {
  readonly scheme: string;
  readonly authority: string;
  readonly path: string;
}

export const NEW_FOLDER = 'new';
export const SCHEMA_FOLDER = 'schema';
export const SCHEMA_FILE = 'record.json';
export const VIEWS_FOLDER = 'views';

const ID = /^[^/\\?#\s]+$/;
/** An app's segment: its id, then (after a space) its name. */
const APP_SEGMENT = /^([^/\\?#\s]+)(?: .*)?$/;
/** A record's segment: its id, after its title and " · " when named. */
const RECORD_SEGMENT = /^(?:.* · )?([^/\\?#\s]+)\.json$/;
const NAMES_SEPARATOR = ' · ';
const MAX_NAME = 60;
const NEW_NAME = /^new-(record|draft)-(\d+)\.json$/;
/** A view's grid segment: its id after its names and " · "; or, as older versions wrote it, ending in .grid. */
const VIEW_SEGMENT = /^.* · ([^/\\?#\s.]+)$/;
const OLDER_VIEW_SEGMENT = /^(?:.* · )?([^/\\?#\s]+)\.grid$/;

/** A non-empty id without the characters that would break a URI path segment or a storage key. */
export function isId(value: unknown): value is string {
  return typeof value === 'string' && ID.test(value);
}

export function parseDocumentPath(path: string): DocumentPath | undefined {
  const segments = path.split('/').filter((segment) => segment !== '');
  if (segments.length === 0) return { kind: 'directory' };
  const [appSegment, second, third] = segments;
  const appId = APP_SEGMENT.exec(appSegment)?.[1];
  if (appId === undefined || segments.length > 3) return undefined;
  if (segments.length === 1) return { kind: 'directory', appId };
  if (segments.length === 2) {
    if (second === NEW_FOLDER || second === SCHEMA_FOLDER || second === VIEWS_FOLDER) return { kind: 'directory', appId };
    const recordId = RECORD_SEGMENT.exec(second)?.[1];
    return recordId === undefined ? undefined : { kind: 'record', appId, recordId };
  }
  if (second === SCHEMA_FOLDER && third === SCHEMA_FILE) return { kind: 'schema', appId };
  const created = second === NEW_FOLDER ? NEW_NAME.exec(third) : null;
  if (created) return { kind: 'new', appId, name: third, n: Number(created[2]), draft: created[1] === 'draft' };
  const viewId = second === VIEWS_FOLDER ? (VIEW_SEGMENT.exec(third) ?? OLDER_VIEW_SEGMENT.exec(third))?.[1] : undefined;
  if (viewId !== undefined) return { kind: 'view', appId, viewId };
  return undefined;
}

/** The address of a portal document's URI; undefined for another scheme, a bad portal id or path. */
export function parseAddress(uri: UriLike): DocumentAddress | undefined {
  if (uri.scheme !== RECORD_SCHEME || !isId(uri.authority)) return undefined;
  const path = parseDocumentPath(uri.path);
  return path ? { ...path, portalId: uri.authority } : undefined;
}

/** The record a URI addresses, when it addresses one (not a new record, a schema or a folder). */
export function recordOfUri(uri: UriLike): { portalId: string; appId: string; recordId: string } | undefined {
  const address = parseAddress(uri);
  return address?.kind === 'record' ? { portalId: address.portalId, appId: address.appId, recordId: address.recordId } : undefined;
}

/** A portal URI given as text ("portal://prod/201/5.json"), path decoded as vscode.Uri keeps it. */
export function uriOfText(text: string): UriLike | undefined {
  const match = /^portal:\/\/([^/?#]*)(\/[^?#]*)?/.exec(text);
  if (!match) return undefined;
  try {
    return { scheme: RECORD_SCHEME, authority: match[1], path: decodeURIComponent(match[2] ?? '') };
  } catch {
    return undefined;
  }
}

/** What a record's address may carry beside its ids, for its tab. */
export interface RecordNames {
  readonly title?: string;
  readonly appName?: string;
}

/** A name as one path segment's text: no slashes or control characters, one line, not too long. */
function segmentText(name: string | undefined): string {
  const text = (name ?? '')
    .replace(/\p{Cc}+/gu, ' ')
    .replace(/[/\\]/g, '∕')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > MAX_NAME ? `${text.slice(0, MAX_NAME - 1).trimEnd()}…` : text;
}

/** The record's path: named when its title is known (its app's name too, when known), else by ids. */
export function recordPath(record: { readonly appId: string; readonly recordId: string }, names: RecordNames = {}): string {
  const title = segmentText(names.title);
  if (title === '') return `/${record.appId}/${record.recordId}.json`;
  const appName = segmentText(names.appName);
  return `/${record.appId}${appName === '' ? '' : ` ${appName}`}/${title}${NAMES_SEPARATOR}${record.recordId}.json`;
}

/** The names an argument carries (a tree element, a picked record): its title and app's name, when strings. */
export function recordNamesOf(arg: unknown): RecordNames {
  if (typeof arg !== 'object' || arg === null) return {};
  const { title, appName } = arg as { title?: unknown; appName?: unknown };
  return { title: typeof title === 'string' ? title : undefined, appName: typeof appName === 'string' ? appName : undefined };
}

/** The names a view's grid address carries, for its tab: "<view> — <app> · <view_id>". */
export interface ViewNames {
  readonly viewName?: string;
  readonly appName?: string;
}

/** The path of a view's grid (the custom editor's resource): named for its tab, parsed by ids only. */
export function viewGridPath(view: { readonly appId: string; readonly viewId: string }, names: ViewNames = {}): string {
  const appName = segmentText(names.appName);
  const viewName = segmentText(names.viewName) || `View ${view.viewId}`;
  const title = appName === '' ? viewName : `${viewName} — ${appName}`;
  return `/${view.appId}${appName === '' ? '' : ` ${appName}`}/${VIEWS_FOLDER}/${title}${NAMES_SEPARATOR}${view.viewId}`;
}

/** The view's name a grid's address carries (decoration, for titles only), or undefined. */
export function viewNameOfPath(path: string): string | undefined {
  const segment = path.split('/').pop() ?? '';
  const named = /^(.*) · [^/\\?#\s]+$/.exec(segment)?.[1];
  const name = named?.split(' — ')[0]?.trim();
  return name === '' ? undefined : name;
}

/** The view a URI addresses as a grid, when it addresses one. */
export function viewOfUri(uri: UriLike): { portalId: string; appId: string; viewId: string } | undefined {
  const address = parseAddress(uri);
  return address?.kind === 'view' ? { portalId: address.portalId, appId: address.appId, viewId: address.viewId } : undefined;
}

/** A new record's document: number `n`, to be created as a draft or not. */
export function newRecordPath(appId: string, n: number, draft = false): string {
  return `/${appId}/${NEW_FOLDER}/new-${draft ? 'draft' : 'record'}-${n}.json`;
}

export function schemaPath(appId: string): string {
  return `/${appId}/${SCHEMA_FOLDER}/${SCHEMA_FILE}`;
}

/** The `$schema` value of the app's documents: portal://<portal>/<app>/schema/record.json. */
export function schemaReference(portalId: string, appId: string): string {
  return `${RECORD_SCHEME}://${portalId}${schemaPath(appId)}`;
}

/** One string per record, whatever the address's decoration: for maps and comparisons. */
export function recordKey(record: { readonly portalId: string; readonly appId: string; readonly recordId: string }): string {
  return `${record.portalId}/${record.appId}/${record.recordId}`;
}
