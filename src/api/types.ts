// The portal's resources as they travel over the wire (shared/portal-api.md, "Resources and their fields").
// Every documented value is a string, flags included ("1"/"0"). Fields the documentation does not show may
// be present on a real portal; the index signatures keep them without trusting them.
//
// Pure types: imported by the host, the webview front end and the emulator's tests alike.

/** A string flag as the portal sends it. */
export type Flag = '0' | '1';

export interface AppRef {
  app_id: string;
  name: string;
  [undocumented: string]: unknown;
}

export interface Site {
  id: string;
  name: string;
  manager: string;
  apps: AppRef[];
  [undocumented: string]: unknown;
}

export interface Choice {
  id: string;
  name: string;
  /** Hex colour like #RRGGBB. */
  color: string;
  order: string;
}

/** A column (field) as returned by the list of columns. */
export interface Column {
  app_id: string;
  field_id: string;
  /** Key used in record data and request bodies, e.g. f12. */
  field_id_in_data: string;
  field_name: string;
  field_description: string;
  /** Numeric type code; the documentation shows only "0" Text Field, "2" Choice, "16" LookUp. */
  type: string;
  type_name: string;
  position: string;
  unique_value: string;
  /** Not documented for the list of columns (only for record metadata); used when a portal sends it. */
  required?: string;
  // Choice columns
  default_value?: string;
  choice_type?: string;
  choice_types?: Record<string, string>;
  display_format?: string;
  display_formats?: Record<string, string>;
  choices?: Choice[];
  [undocumented: string]: unknown;
}

/** One entry of a read record's metadata. Note: it names field_id, not field_id_in_data. */
export interface RecordMetadataEntry {
  app_id: string;
  field_id: string;
  field_name: string;
  field_description: string;
  type: string;
  type_name: string;
  position: string;
  required: string;
  [undocumented: string]: unknown;
}

/** One entry of a view's metadata. `id` is the column's id, used in filter_columns. */
export interface ViewMetadataEntry {
  view_id: string;
  field_id_in_data: string;
  field_name: string;
  field_description: string;
  app_id: string;
  id: string;
  type_name: string;
  [undocumented: string]: unknown;
}

/** Field values keyed by field_id_in_data. */
export type RecordData = Record<string, string>;

export interface ReadRecordResponse {
  data: RecordData;
  metadata: RecordMetadataEntry[];
  [undocumented: string]: unknown;
}

/** A view's rows: objects keyed by field_id_in_data (which, in a view, may carry another prefix). */
export interface ViewResponse {
  data: Array<Record<string, string>>;
  metadata: ViewMetadataEntry[];
  [undocumented: string]: unknown;
}

export interface DeleteRecordResponse {
  deleted: { id: string; deleted: string };
}

export interface TokenResponse {
  access_token: string;
  /** Seconds. */
  expires_in: number;
  token_type: string;
  scope: string | null;
  /** Absent for the client-credentials grant. */
  refresh_token?: string;
}

/** Operator codes of "Read records by view". */
export const FILTER_OPERATORS = {
  contains: '0',
  doesNotContain: '1',
  equals: '2',
  doesNotEqual: '3',
  empty: '4',
  notEmpty: '5',
  lessThan: '6',
  lessThanOrEqual: '7',
  greaterThan: '8',
  greaterThanOrEqual: '9',
} as const;

export type FilterOperatorName = keyof typeof FILTER_OPERATORS;
export type FilterOperatorCode = (typeof FILTER_OPERATORS)[FilterOperatorName];
