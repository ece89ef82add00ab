// The address of every document of the `portal:` file system: one parse, one build. The authority is the
// portal's connection id; the path says which document:
//   /<app_id>/<record_id>.json          a record
//   /<app_id>/new/new-record-<n>.json   a record not created yet (saving it creates it)
//   /<app_id>/schema/record.json        the JSON Schema of the app's records (read-only)
// New records and schemas live one folder down so that no record id can be mistaken for them (a record
// path has exactly two segments). Pure (no `vscode` import), unit-tested in plain node.

export const RECORD_SCHEME = 'portal';

export type DocumentPath =
  | { readonly kind: 'record'; readonly appId: string; readonly recordId: string }
  | { readonly kind: 'new'; readonly appId: string; readonly name: string }
  | { readonly kind: 'schema'; readonly appId: string }
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

const ID = /^[^/\\?#\s]+$/;
const NEW_NAME = /^new-record-\d+\.json$/;

/** A non-empty id without the characters that would break a URI path segment or a storage key. */
export function isId(value: unknown): value is string {
  return typeof value === 'string' && ID.test(value);
}

export function parseDocumentPath(path: string): DocumentPath | undefined {
  const segments = path.split('/').filter((segment) => segment !== '');
  if (segments.length === 0) return { kind: 'directory' };
  const [appId, second, third] = segments;
  if (!ID.test(appId) || segments.length > 3) return undefined;
  if (segments.length === 1) return { kind: 'directory', appId };
  if (segments.length === 2) {
    if (second === NEW_FOLDER || second === SCHEMA_FOLDER) return { kind: 'directory', appId };
    const match = /^(.+)\.json$/.exec(second);
    return match && ID.test(match[1]) ? { kind: 'record', appId, recordId: match[1] } : undefined;
  }
  if (second === SCHEMA_FOLDER && third === SCHEMA_FILE) return { kind: 'schema', appId };
  if (second === NEW_FOLDER && NEW_NAME.test(third)) return { kind: 'new', appId, name: third };
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

export function recordPath(record: { readonly appId: string; readonly recordId: string }): string {
  return `/${record.appId}/${record.recordId}.json`;
}

export function newRecordPath(appId: string, n: number): string {
  return `/${appId}/${NEW_FOLDER}/new-record-${n}.json`;
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
