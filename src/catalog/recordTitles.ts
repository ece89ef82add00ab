// The title column of a view's records, as the tree and the record picker show them: the app's chosen
// title field when the view shows it, else the view's first text column (in the view's order, read from
// the view's own metadata, so titling records costs no request of its own). Only a Choice title needs the
// app's columns (for the choice names), read once per app through the catalog.
import type { ViewRow } from '../api/answers';
import { columnKind } from '../api/columnKinds';
import type { Column, ViewMetadataEntry } from '../api/types';
import type { AppTarget } from '../model/targets';
import type { Catalog } from './catalog';
import { chooseTitleField } from './titleField';

/** The view's columns as the view describes them, in the view's order. */
export function viewColumns(metadata: readonly ViewMetadataEntry[]): Column[] {
  return metadata.map((entry, index) => ({
    app_id: String(entry.app_id ?? ''),
    field_id: String(entry.id ?? ''),
    field_id_in_data: entry.field_id_in_data,
    field_name: String(entry.field_name ?? ''),
    field_description: String(entry.field_description ?? ''),
    type: '',
    type_name: String(entry.type_name ?? ''),
    position: String(index + 1),
    unique_value: '',
  }));
}

export async function titleColumnOfView(
  catalog: Catalog,
  app: AppTarget,
  chosen: string | undefined,
  read: { readonly metadata: readonly ViewMetadataEntry[] },
  signal?: AbortSignal,
): Promise<Column | undefined> {
  const title = chooseTitleField(viewColumns(read.metadata), chosen);
  if (!title || columnKind(title) !== 'choice') return title;
  const appColumns = catalog.peekColumns(app.portalId, app.appId) ?? (await catalog.columns(app.portalId, app.appId, signal));
  return appColumns.find((column) => column.field_id_in_data === title.field_id_in_data) ?? title;
}

/**
 * Columns to show before the view's metadata arrives (it follows the rows): the first row's keys, named
 * and typed from the app's columns where they match; others (a Lookup app's l<N>) by their key for now.
 */
export function provisionalMetadata(appId: string, first: ViewRow, appColumns: readonly Column[] | undefined): ViewMetadataEntry[] {
  return Object.keys(first.values).map((key) => {
    const column = appColumns?.find((candidate) => candidate.field_id_in_data === key);
    return {
      view_id: '',
      field_id_in_data: key,
      field_name: column?.field_name ?? key,
      field_description: column?.field_description ?? '',
      app_id: column ? appId : '',
      id: column?.field_id ?? '',
      type_name: column?.type_name ?? '',
    };
  });
}
