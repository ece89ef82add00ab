// What the query panel needs to know about columns, from the two sources there are: the app's list of
// columns (kinds, choices; every column can be filtered on, shown or not) and a read view's metadata (the
// grid's columns, in the view's order, and the columns that come from Lookup apps). Pure: no vscode.
import { columnKind, kindOfTypeName } from '../../api/columnKinds';
import type { Column, ViewMetadataEntry } from '../../api/types';
import { byPosition } from '../../shared/columnOrder';
import { choiceOptions, type FilterColumn, type GridColumn } from '../../shared/protocol';
import type { GridEditColumn } from '../protocol';

function filterColumnOf(column: Column, lookupApp?: string, key = column.field_id_in_data): FilterColumn {
  const kind = columnKind(column);
  return {
    id: column.field_id,
    key,
    name: column.field_name || column.field_id_in_data,
    kind,
    ...(lookupApp ? { lookupApp } : {}),
    ...(kind === 'choice' ? { choices: choiceOptions(column), multi: column.choice_type === '2' } : {}),
  };
}

/**
 * The columns a filter row offers: the app's own, in position order, then the Lookup apps' columns that the
 * view's metadata names (their kinds and choices from `columnsOfApp` when that app's columns were read).
 */
export function filterColumns(
  appId: string,
  appColumns: readonly Column[],
  metadata: readonly ViewMetadataEntry[] = [],
  columnsOfApp: (appId: string) => readonly Column[] | undefined = () => undefined,
): FilterColumn[] {
  const own = byPosition(appColumns).map((column) => filterColumnOf(column));
  const lookups = metadata
    .filter((entry) => entry.app_id && entry.app_id !== appId && entry.id)
    .map((entry): FilterColumn => {
      const column = columnsOfApp(entry.app_id)?.find((candidate) => candidate.field_id === entry.id);
      if (column) return filterColumnOf(column, entry.app_id, entry.field_id_in_data);
      return {
        id: entry.id,
        key: entry.field_id_in_data,
        name: entry.field_name || entry.field_id_in_data,
        kind: kindOfTypeName(entry.type_name),
        lookupApp: entry.app_id,
      };
    });
  return [...own, ...lookups];
}

/** The ids of the Lookup apps a view's metadata names, to read their columns. */
export function lookupAppsOf(appId: string, metadata: readonly ViewMetadataEntry[]): string[] {
  return [...new Set(metadata.map((entry) => entry.app_id).filter((id) => id && id !== appId))];
}

/** The grid's columns, in the view's order; choices from the app's (or the Lookup app's) columns when known. */
export function gridColumns(
  appId: string,
  metadata: readonly ViewMetadataEntry[],
  columnsOfApp: (appId: string) => readonly Column[] | undefined,
): GridColumn[] {
  return metadata.map((entry) => {
    const source = columnsOfApp(entry.app_id || appId);
    const column = source?.find(
      (candidate) => candidate.field_id_in_data === entry.field_id_in_data || (entry.id !== '' && candidate.field_id === entry.id),
    );
    const kind = column ? columnKind(column) : kindOfTypeName(entry.type_name);
    return {
      key: entry.field_id_in_data,
      name: entry.field_name || column?.field_name || entry.field_id_in_data,
      kind,
      ...(kind === 'choice' && column ? { choices: choiceOptions(column) } : {}),
    };
  });
}

/** The editable grid's columns: the grid's, each of the app's own carrying its Column (for the form's inputs). */
export function gridEditColumns(
  appId: string,
  metadata: readonly ViewMetadataEntry[],
  columnsOfApp: (appId: string) => readonly Column[] | undefined,
): GridEditColumn[] {
  const own = new Map((columnsOfApp(appId) ?? []).map((column) => [column.field_id_in_data, column]));
  return gridColumns(appId, metadata, columnsOfApp).map((column) => {
    const appColumn = own.get(column.key);
    return appColumn ? { ...column, column: appColumn } : column;
  });
}

/** The columns of the app and of the Lookup apps the view shows columns of, by app id; an app whose columns cannot be read is left out. */
export async function columnsByApp(
  appId: string,
  appColumns: readonly Column[],
  metadata: readonly ViewMetadataEntry[],
  columnsOf: (appId: string) => Promise<readonly Column[]>,
): Promise<Map<string, readonly Column[]>> {
  const apps = new Map<string, readonly Column[]>([[appId, appColumns]]);
  for (const lookupApp of lookupAppsOf(appId, metadata)) {
    const columns = await columnsOf(lookupApp).catch(() => undefined);
    if (columns) apps.set(lookupApp, columns);
  }
  return apps;
}
