// Read records by view: the view's columns (the app's own as f<N>, a Lookup app's as l<N>), its own
// conditions, the request's filters (filter_columns / filter_values / filter_apps / filter_operators) and
// the rows, serialized straight to a string. The unfiltered body is cached until any record changes.
import { badRequest } from './errors';
import type { ColumnDef, FilterDef, Kind, OperatorCode, StoredRecord, ViewDef } from './model';
import { fieldKey, KIND_TYPES, lookupKey } from './model';
import { queryParam } from './formBody';
import type { AppState, Store } from './store';
import { dateKey, dateTimeKey, durationMinutes, isNumber } from './values';

/** A column as a view or a filter reads it: from the app itself or through its link to a Lookup app. */
interface Source {
  column: ColumnDef;
  /** The Lookup app the column belongs to; undefined for the app's own columns. */
  lookupApp?: AppState;
  /** The value this source shows for a record of the app (resolved once, called per row). */
  read: (record: Readonly<StoredRecord>) => string;
}

interface Filter {
  source: Source;
  test: (cell: string) => boolean;
}

const invalid = (message: string) => badRequest('invalid_filter', message);

/** The kind whose rules compare a column's values: a LookUp column compares as the column it shows. */
function comparedKind(store: Store, column: ColumnDef): Kind {
  let current = column;
  for (let depth = 0; current.kind === 'lookup' && current.lookupFieldId && depth < 5; depth++) {
    const target = store.column(current.lookupFieldId);
    if (!target) break;
    current = target.column;
  }
  return current.kind;
}

/** For ordered kinds, the comparable key of a value (undefined when it is not one); text kinds: undefined. */
function keyFunction(kind: Kind): ((value: string) => number | undefined) | undefined {
  switch (kind) {
    case 'number':
    case 'currency':
    case 'autonumber':
      return (value) => (isNumber(value) ? Number(value) : undefined);
    case 'date':
      return dateKey;
    case 'datetime':
      return dateTimeKey;
    case 'duration':
      return durationMinutes;
    default:
      return undefined;
  }
}

const COMPARE: Record<'6' | '7' | '8' | '9', <T extends number | string>(a: T, b: T) => boolean> = {
  '6': (a, b) => a < b,
  '7': (a, b) => a <= b,
  '8': (a, b) => a > b,
  '9': (a, b) => a >= b,
};

function makeTest(kind: Kind, operator: OperatorCode, value: string, label: string): (cell: string) => boolean {
  const lower = value.toLowerCase();
  const key = keyFunction(kind);
  switch (operator) {
    case '0':
      return (cell) => cell.toLowerCase().includes(lower);
    case '1':
      return (cell) => !cell.toLowerCase().includes(lower);
    case '4':
      return (cell) => cell === '';
    case '5':
      return (cell) => cell !== '';
    case '2':
    case '3': {
      let equals: (cell: string) => boolean;
      if (value === '') equals = (cell) => cell === '';
      else if (key) {
        const wanted = key(value);
        if (wanted === undefined) throw invalid(`${value} is not a valid value to compare with ${label}.`);
        equals = (cell) => key(cell) === wanted;
      } else equals = (cell) => cell.toLowerCase() === lower;
      return operator === '2' ? equals : (cell) => !equals(cell);
    }
    default: {
      const compare = COMPARE[operator];
      if (value === '') throw invalid(`Operator ${operator} needs a value for ${label}.`);
      if (!key) return (cell) => cell !== '' && compare(cell.toLowerCase(), lower);
      const bound = key(value);
      if (bound === undefined) throw invalid(`${value} is not a valid value to compare with ${label}.`);
      return (cell) => {
        const k = key(cell);
        return k !== undefined && compare(k, bound);
      };
    }
  }
}

/** Resolves a column id (`N`, `fN` or `lN`) and the filter_apps item to a column the app can read. */
function resolveSource(store: Store, app: AppState, columnItem: string, appItem: string): Source {
  const match = /^[fl]?(\d+)$/.exec(columnItem);
  const found = match ? store.column(match[1]) : undefined;
  if (!found) throw invalid(`filter_columns names no column: ${columnItem}.`);
  const ownApp = appItem === '' || appItem === app.def.app_id;
  if (ownApp) {
    if (found.app.app_id !== app.def.app_id) {
      throw invalid(
        `Column ${columnItem} belongs to app ${found.app.app_id}; name that app in filter_apps if it is a Lookup app of app ${app.def.app_id}.`,
      );
    }
    return { column: found.column, read: store.reader(app, found.column) };
  }
  if (!app.def.lookups.some((link) => link.appId === appItem))
    throw invalid(`filter_apps names app ${appItem}, which is not a Lookup app of app ${app.def.app_id}.`);
  if (found.app.app_id !== appItem) throw invalid(`Column ${columnItem} is not a column of app ${appItem}.`);
  const lookupApp = store.app(appItem);
  if (!lookupApp) throw invalid(`No app ${appItem}.`);
  return { column: found.column, lookupApp, read: throughLink(store, app, lookupApp, found.column) };
}

/** Reads a Lookup app's column for a record of `app`, through the record's link; "" without one. */
function throughLink(store: Store, app: AppState, lookupApp: AppState, column: ColumnDef): (record: Readonly<StoredRecord>) => string {
  const linked = store.linker(app, lookupApp.def.app_id);
  const read = store.reader(lookupApp, column);
  return (record) => {
    const other = linked(record);
    return other ? read(other) : '';
  };
}

function filterOf(store: Store, app: AppState, columnItem: string, appItem: string, operator: string, value: string): Filter {
  if (!/^[0-9]$/.test(operator)) throw invalid(`Operator ${operator} is not one of the codes 0-9.`);
  const source = resolveSource(store, app, columnItem, appItem);
  return { source, test: makeTest(comparedKind(store, source.column), operator as OperatorCode, value, `column ${columnItem}`) };
}

/** The request's filters; an empty parameter counts as absent. Throws invalid_filter. */
export function parseFilters(store: Store, app: AppState, query: unknown): Filter[] {
  const list = (name: string): string[] | undefined => {
    const value = queryParam(query, name, (n) => invalid(`${n} is given more than once; separate items with |.`));
    return value === undefined || value === '' ? undefined : value.split('|');
  };
  const columns = list('filter_columns');
  const operators = list('filter_operators');
  const values = list('filter_values');
  const apps = list('filter_apps');
  if (!columns) {
    if (operators || values || apps) throw invalid('filter_columns is missing.');
    return [];
  }
  if (!operators) throw invalid('filter_operators is missing.');
  const count = columns.length;
  for (const [name, items] of [
    ['filter_operators', operators],
    ['filter_values', values],
    ['filter_apps', apps],
  ] as const) {
    if (items && items.length !== count) throw invalid(`${name} has ${items.length} items but filter_columns has ${count}.`);
  }
  return columns.map((column, i) => filterOf(store, app, column, apps?.[i] ?? '', operators[i], values?.[i] ?? ''));
}

function viewFilters(store: Store, app: AppState, defs: FilterDef[] = []): Filter[] {
  return defs.map((def) => filterOf(store, app, def.field_id, def.appId ?? '', def.operator, def.value));
}

/** The view's columns as sources with their row keys. */
function viewSources(store: Store, app: AppState, view: ViewDef): Array<Source & { key: string }> {
  return view.columns.map((fieldId) => {
    const found = store.column(fieldId);
    if (!found) throw new Error(`View ${view.view_id} names unknown column ${fieldId}.`);
    if (found.app.app_id === app.def.app_id) return { column: found.column, key: fieldKey(fieldId), read: store.reader(app, found.column) };
    const lookupApp = store.app(found.app.app_id);
    if (!lookupApp) throw new Error(`View ${view.view_id} names a column of unknown app ${found.app.app_id}.`);
    return { column: found.column, lookupApp, key: lookupKey(fieldId), read: throughLink(store, app, lookupApp, found.column) };
  });
}

export function viewMetadata(store: Store, app: AppState, view: ViewDef): unknown[] {
  return viewSources(store, app, view).map(({ column, lookupApp, key }) => ({
    view_id: view.view_id,
    field_id_in_data: key,
    field_name: column.name,
    field_description: column.description ?? '',
    app_id: (lookupApp ?? app).def.app_id,
    id: column.field_id,
    type_name: KIND_TYPES[column.kind].name,
  }));
}

/** Rows per piece of a body: enough for V8's fast JSON.stringify of same-shaped objects, small enough to
 * start sending at once. */
const ROWS_PER_PIECE = 2000;

/**
 * A view's response body in pieces of JSON text, made as they are asked for: a million-row view is never
 * held whole (about 250 MB). Columns and filters are resolved now, so a bad filter throws before anything
 * is sent.
 */
export function viewPieces(store: Store, app: AppState, view: ViewDef, requestFilters: Filter[]): Generator<string> {
  const sources = viewSources(store, app, view);
  const filters = [...viewFilters(store, app, view.filters), ...requestFilters];
  const metadata = JSON.stringify(viewMetadata(store, app, view));
  return (function* () {
    yield '{"data":[';
    let batch: Array<Record<string, string>> = [];
    let first = true;
    const flush = (): string => {
      // One object per row and one JSON.stringify per batch: V8 serializes same-shaped objects faster than
      // any string building we could do by hand (measured: 235 ms against 430 ms for 100,000 rows).
      const text = JSON.stringify(batch).slice(1, -1);
      const piece = first ? text : `,${text}`;
      first = false;
      batch = [];
      return piece;
    };
    for (const record of app.records.live()) {
      if (!filters.every((filter) => filter.test(filter.source.read(record)))) continue;
      const row: Record<string, string> = { id: String(record.num) };
      for (const source of sources) row[source.key] = source.read(record);
      row.draft = record.draft ? '1' : '0';
      batch.push(row);
      if (batch.length === ROWS_PER_PIECE) yield flush();
    }
    if (batch.length > 0) yield flush();
    yield `],"metadata":${metadata}}`;
  })();
}

/** The whole response body of a view, as a JSON string. */
export function viewBody(store: Store, app: AppState, view: ViewDef, requestFilters: Filter[]): string {
  return [...viewPieces(store, app, view, requestFilters)].join('');
}

/** Apps with more records than this are streamed, never held whole nor cached (about 50 MB of JSON). */
export const STREAM_ABOVE_RECORDS = 200_000;

/** Unfiltered view bodies, valid while the store's version stays the same; kept encoded, ready to send. */
export class ViewCache {
  private readonly bodies = new Map<string, { version: number; body: Buffer }>();

  get(store: Store, app: AppState, view: ViewDef): Buffer {
    const key = `${app.def.app_id}/${view.view_id}`;
    const cached = this.bodies.get(key);
    if (cached && cached.version === store.version) return cached.body;
    const body = Buffer.from(viewBody(store, app, view, []), 'utf8');
    this.bodies.set(key, { version: store.version, body });
    return body;
  }

  clear(): void {
    this.bodies.clear();
  }
}
