// The record a LookUp cell links to. The portal's API does not say which record a LookUp follows: a LookUp
// column names the app it shows (lookup_app_id) and which of that app's columns (lookup_field_id), and the
// cell holds that column's value. So the linked record is found by that value, through a view of the
// linked app (the API reads records only through a view), filtered "equals" on that column and checked
// again here for an exact match (a portal may compare text without regard to case). Pure: no vscode.
import type { ViewRow } from '../../api/answers';
import { columnKind } from '../../api/columnKinds';
import type { ViewFilter } from '../../api/filters';
import type { Column } from '../../api/types';

/** What following a LookUp cell needs: the linked app, its column shown, and the value to look for. */
export interface LinkedLookup {
  readonly appId: string;
  /** The linked app's column the LookUp shows. */
  readonly shown: Column;
  readonly value: string;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The linked app of a LookUp column, or why the cell cannot be followed. */
export function lookupSource(column: Column | undefined): { appId: string; fieldId: string } | { problem: string } {
  if (!column || columnKind(column) !== 'lookup')
    return { problem: `${column?.field_name ?? 'This column'} is not a LookUp column: it links to no record.` };
  const appId = text(column.lookup_app_id);
  const fieldId = text(column.lookup_field_id);
  if (!appId || !fieldId)
    return {
      problem: `The portal does not say which app ${column.field_name} shows (no lookup_app_id / lookup_field_id in its columns), so its record cannot be found.`,
    };
  return { appId, fieldId };
}

/** The linked app's column a LookUp shows, among that app's columns; or why not. */
export function linkedLookup(column: Column, linkedColumns: readonly Column[], value: string): LinkedLookup | { problem: string } {
  const source = lookupSource(column);
  if ('problem' in source) return source;
  if (value === '') return { problem: `This ${column.field_name} cell is empty: it links to no record.` };
  const shown = linkedColumns.find((candidate) => candidate.field_id === source.fieldId);
  if (!shown)
    return { problem: `App ${source.appId} has no column ${source.fieldId}, which ${column.field_name} shows: refresh the Portal view.` };
  return { appId: source.appId, shown, value };
}

/** The filter that asks a view of the linked app for its records showing the value. */
export function linkedFilter(lookup: LinkedLookup): ViewFilter {
  return { column: lookup.shown.field_id, operator: 'equals', value: lookup.value };
}

/** The rows of a view of the linked app that hold exactly the value, in the view's order. */
export function linkedRows(lookup: LinkedLookup, rows: readonly ViewRow[]): ViewRow[] {
  return rows.filter((row) => row.id !== undefined && row.values[lookup.shown.field_id_in_data] === lookup.value);
}
