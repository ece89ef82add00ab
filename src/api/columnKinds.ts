// Which kind of column a Column is. The documentation lists the value formats by kind but shows only three
// type codes ("0" Text Field, "2" Choice, "16" LookUp) and four type names, so the kind is read from the
// type_name first (normalised, so "Phone/Fax No." and "phone fax no" agree) and from the code only as a
// fallback. The codes other than 0, 2 and 16 are the emulator's choice (test/emulator/README.md).
import type { Column } from './types';

export type ColumnKind =
  | 'text'
  | 'multiline'
  | 'email'
  | 'phone'
  | 'url'
  | 'number'
  | 'currency'
  | 'date'
  | 'datetime'
  | 'duration'
  | 'choice'
  | 'user'
  | 'autonumber'
  | 'lookup'
  | 'unknown';

/** Kinds the API accepts in create and update bodies (the value-formats table). */
export const WRITABLE_KINDS: ReadonlySet<ColumnKind> = new Set<ColumnKind>([
  'text',
  'multiline',
  'email',
  'phone',
  'url',
  'number',
  'currency',
  'date',
  'datetime',
  'duration',
  'choice',
  'user',
]);

const BY_NAME: Record<string, ColumnKind> = {
  textfield: 'text',
  text: 'text',
  multiline: 'multiline',
  multilinetext: 'multiline',
  textarea: 'multiline',
  email: 'email',
  phonefaxno: 'phone',
  phone: 'phone',
  phoneno: 'phone',
  url: 'url',
  number: 'number',
  currency: 'currency',
  date: 'date',
  dateonly: 'date',
  datetime: 'datetime',
  dateandtime: 'datetime',
  duration: 'duration',
  choice: 'choice',
  user: 'user',
  users: 'user',
  autonumber: 'autonumber',
  lookup: 'lookup',
};

/** Codes as the emulator assigns them; a real portal's names win over these. */
export const KIND_BY_CODE: Record<string, ColumnKind> = {
  '0': 'text',
  '1': 'multiline',
  '2': 'choice',
  '3': 'number',
  '4': 'date',
  '5': 'datetime',
  '6': 'email',
  '7': 'phone',
  '8': 'url',
  '9': 'currency',
  '10': 'duration',
  '11': 'user',
  '15': 'autonumber',
  '16': 'lookup',
};

/** Our name of each kind, in the portal's vocabulary: used where a portal sends no type_name. */
const KIND_NAMES: Record<ColumnKind, string> = {
  text: 'Text Field',
  multiline: 'Multiline',
  email: 'Email',
  phone: 'Phone/Fax No.',
  url: 'URL',
  number: 'Number',
  currency: 'Currency',
  date: 'Date',
  datetime: 'Date & Time',
  duration: 'Duration',
  choice: 'Choice',
  user: 'User',
  autonumber: 'Auto Number',
  lookup: 'LookUp',
  unknown: 'Unknown kind',
};

/** The portal's own name of the column's kind when it sends one ("Date & Time"), else ours. */
export function kindName(column: Pick<Column, 'type' | 'type_name'>): string {
  return column.type_name.trim() || KIND_NAMES[columnKind(column)];
}

/** "Date & Time" -> "datetime", "Phone/Fax No." -> "phonefaxno". */
function normaliseTypeName(typeName: string): string {
  return typeName
    .toLowerCase()
    .replace(/&/g, '')
    .replace(/[^a-z]/g, '');
}

// The portal names a handful of kinds, and every value converted or checked asks for its column's kind.
const normalisedNames = new Map<string, string>();

export function kindOfTypeName(typeName: string | undefined, typeCode?: string): ColumnKind {
  let normalised = typeName ? normalisedNames.get(typeName) : undefined;
  if (typeName && normalised === undefined) {
    normalised = normaliseTypeName(typeName);
    if (normalisedNames.size < 1000) normalisedNames.set(typeName, normalised);
  }
  const byName = normalised ? BY_NAME[normalised] : undefined;
  if (byName) return byName;
  return (typeCode !== undefined && KIND_BY_CODE[typeCode]) || 'unknown';
}

export function columnKind(column: Pick<Column, 'type' | 'type_name'>): ColumnKind {
  return kindOfTypeName(column.type_name, column.type);
}

/** Read-only kinds (Auto Number, LookUp, and anything the table does not list) are never sent. */
export function isWritable(column: Pick<Column, 'type' | 'type_name'>): boolean {
  return WRITABLE_KINDS.has(columnKind(column));
}
