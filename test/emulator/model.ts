// The emulator's own model of a portal: what the seed defines and the store keeps. The wire shapes are
// built from it by the routes (columns.ts, views.ts); nothing here is sent as is.

export type Kind =
  | 'text'
  | 'multiline'
  | 'choice'
  | 'number'
  | 'date'
  | 'datetime'
  | 'email'
  | 'phone'
  | 'url'
  | 'currency'
  | 'duration'
  | 'user'
  | 'autonumber'
  | 'lookup';

/** Type code and type_name of each kind (README.md, "Column type codes"). */
export const KIND_TYPES: Record<Kind, { code: string; name: string }> = {
  text: { code: '0', name: 'Text Field' },
  multiline: { code: '1', name: 'Multiline' },
  choice: { code: '2', name: 'Choice' },
  number: { code: '3', name: 'Number' },
  date: { code: '4', name: 'Date' },
  datetime: { code: '5', name: 'Date & Time' },
  email: { code: '6', name: 'Email' },
  phone: { code: '7', name: 'Phone/Fax No.' },
  url: { code: '8', name: 'URL' },
  currency: { code: '9', name: 'Currency' },
  duration: { code: '10', name: 'Duration' },
  user: { code: '11', name: 'User' },
  autonumber: { code: '15', name: 'Auto Number' },
  lookup: { code: '16', name: 'LookUp' },
};

export const READ_ONLY_KINDS: ReadonlySet<Kind> = new Set<Kind>(['autonumber', 'lookup']);

export interface ChoiceDef {
  id: string;
  name: string;
  color: string;
}

export interface ColumnDef {
  /** Unique across the portal, so `l<N>` in a view names one column. */
  field_id: string;
  name: string;
  description?: string;
  kind: Kind;
  required?: boolean;
  unique?: boolean;
  // choice
  choiceType?: '0' | '1' | '2';
  displayFormat?: '0' | '1' | '2' | '3' | '4';
  defaultValue?: string;
  choices?: ChoiceDef[];
  // currency
  currencySymbol?: string;
  // autonumber: the first record's number
  autoStart?: number;
  // lookup: shows column lookupFieldId of the record of lookupAppId that this record links to
  lookupAppId?: string;
  lookupFieldId?: string;
}

/** How an app's records point at records of a Lookup app: a Number column holding that record's id. */
export interface LookupLink {
  appId: string;
  /** field_id of this app's column that holds the linked record's id. */
  viaFieldId: string;
}

export type OperatorCode = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9';

export interface FilterDef {
  field_id: string;
  /** The Lookup app the column comes from; absent for the app's own columns. */
  appId?: string;
  operator: OperatorCode;
  value: string;
}

export interface ViewDef {
  view_id: string;
  name: string;
  /** field_ids, of the app's own columns or of a Lookup app's columns (those appear as l<N>). */
  columns: string[];
  /** The view's own conditions, applied before the request's filters. */
  filters?: FilterDef[];
}

export interface AppDef {
  app_id: string;
  name: string;
  draftMode: boolean;
  commentsPlugin: boolean;
  columns: ColumnDef[];
  lookups: LookupLink[];
  views: ViewDef[];
}

export interface SiteDef {
  id: string;
  name: string;
  manager: string;
  apps: AppDef[];
}

export interface StoredComment {
  id: string;
  text: string;
  created_at: string;
}

export interface StoredAttachment {
  id: string;
  file_name: string;
  content_type: string;
  size: number;
  created_at: string;
  bytes: Buffer;
}

export interface StoredRecord {
  num: number;
  draft: boolean;
  trashed: boolean;
  /** Stored values keyed by field_id_in_data; LookUp values are not stored but read through the link. */
  data: Record<string, string>;
  comments: StoredComment[];
  attachments: StoredAttachment[];
  created_at: string;
  updated_at: string;
}

export const fieldKey = (fieldId: string): string => `f${fieldId}`;
export const lookupKey = (fieldId: string): string => `l${fieldId}`;
