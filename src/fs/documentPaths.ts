// The documents of the `portal:` file system, by path (the authority is the portal's connection id):
//   /<app_id>/<record_id>.json          a record
//   /<app_id>/new/new-record-<n>.json   a record not created yet (saving it creates it)
//   /<app_id>/schema/record.json        the JSON Schema of the app's records (read-only)
// New records and schemas live one folder down so that no record id can be mistaken for them (a record
// URI has exactly two segments, which is what src/commands/targets reads). Pure, unit-tested.

export type DocumentPath =
  | { readonly kind: 'record'; readonly appId: string; readonly recordId: string }
  | { readonly kind: 'new'; readonly appId: string; readonly name: string }
  | { readonly kind: 'schema'; readonly appId: string }
  | { readonly kind: 'directory' };

export const NEW_FOLDER = 'new';
export const SCHEMA_FOLDER = 'schema';
export const SCHEMA_FILE = 'record.json';

const ID = /^[^/\\?#\s]+$/;
const NEW_NAME = /^new-record-\d+\.json$/;

export function parseDocumentPath(path: string): DocumentPath | undefined {
  const segments = path.split('/').filter((segment) => segment !== '');
  if (segments.length === 0) return { kind: 'directory' };
  const [appId, second, third] = segments;
  if (!ID.test(appId) || segments.length > 3) return undefined;
  if (segments.length === 1) return { kind: 'directory' };
  if (segments.length === 2) {
    if (second === NEW_FOLDER || second === SCHEMA_FOLDER) return { kind: 'directory' };
    const match = /^(.+)\.json$/.exec(second);
    return match && ID.test(match[1]) ? { kind: 'record', appId, recordId: match[1] } : undefined;
  }
  if (second === SCHEMA_FOLDER && third === SCHEMA_FILE) return { kind: 'schema', appId };
  if (second === NEW_FOLDER && NEW_NAME.test(third)) return { kind: 'new', appId, name: third };
  return undefined;
}

export function recordDocumentPath(appId: string, recordId: string): string {
  return `/${appId}/${recordId}.json`;
}

export function newRecordPath(appId: string, n: number): string {
  return `/${appId}/${NEW_FOLDER}/new-record-${n}.json`;
}

export function schemaPath(appId: string): string {
  return `/${appId}/${SCHEMA_FOLDER}/${SCHEMA_FILE}`;
}

/** The `$schema` value of the app's documents: portal://<portal>/<app>/schema/record.json. */
export function schemaReference(portalId: string, appId: string): string {
  return `portal://${portalId}${schemaPath(appId)}`;
}
