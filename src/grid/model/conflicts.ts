// What to do with one changed row at save, decided by comparing the copy of the row as read with the
// portal's copy now (read just before the update; the portal has no version or ETag to do it for us):
// - unchanged on the portal: send only my changed fields (those the portal does not already hold);
// - changed on the portal, in my fields or in others: a conflict, held back, with what Compare, Keep mine
//   and Take theirs need;
// - gone (deleted, in trash): its own outcome.
// Only writable columns are compared: a LookUp follows its linked record and an Auto Number is the
// portal's, so neither is a change anyone made to this row (the rule of record documents, copyClock.ts).
// A field someone else set to exactly my value agrees with me: it is neither a conflict nor sent again.
// Pure.
import { isWritable } from '../../api/columnKinds';
import type { Column, RecordData } from '../../api/types';
import type { ChangeSet } from './changeSet';

/** Whether the portal's copy differs from the copy read in a field they both have. */
export function differs(asRead: Readonly<RecordData>, copy: Readonly<RecordData>): boolean {
  return Object.keys(copy).some((field) => asRead[field] !== undefined && asRead[field] !== copy[field]);
}

export interface RowToSave {
  readonly recordId: string;
  readonly asRead: Readonly<RecordData>;
  readonly edits: ReadonlyMap<string, string>;
}

export interface Conflict {
  readonly recordId: string;
  /** 'same-fields': the portal changed a field I changed too; 'other-fields': only fields I left alone. */
  readonly overlap: 'same-fields' | 'other-fields';
  /** Fields the portal changed since the row was read (and not to my value), in column order. */
  readonly theirFields: readonly string[];
  /** The three copies Compare shows; Keep mine sends `mine` over `portalCopy`, Take theirs keeps `portalCopy`. */
  readonly asRead: Readonly<RecordData>;
  readonly mine: Readonly<RecordData>;
  readonly portalCopy: Readonly<RecordData>;
}

export type SaveCheck =
  /** Send `fields` (never empty). */
  | { readonly kind: 'send'; readonly fields: RecordData; readonly portalCopy: Readonly<RecordData> }
  /** The portal already holds every value of mine (e.g. an update that went through before its answer was lost). */
  | { readonly kind: 'already-saved'; readonly portalCopy: Readonly<RecordData> }
  | { readonly kind: 'conflict'; readonly conflict: Conflict }
  | { readonly kind: 'deleted' };

/** Compares a row to save with the portal's copy (undefined: deleted or in trash). */
export function checkRow(columns: readonly Column[], row: RowToSave, portalCopy: Readonly<RecordData> | undefined): SaveCheck {
  if (portalCopy === undefined) return { kind: 'deleted' };
  const theirFields: string[] = [];
  for (const column of columns) {
    const field = column.field_id_in_data;
    if (!isWritable(column) || row.asRead[field] === undefined || portalCopy[field] === undefined) continue;
    if (portalCopy[field] === row.asRead[field]) continue;
    if (row.edits.get(field) === portalCopy[field]) continue;
    theirFields.push(field);
  }
  const mine = Object.fromEntries(row.edits);
  if (theirFields.length > 0) {
    const overlap = theirFields.some((field) => row.edits.has(field)) ? 'same-fields' : 'other-fields';
    return { kind: 'conflict', conflict: { recordId: row.recordId, overlap, theirFields, asRead: row.asRead, mine, portalCopy } };
  }
  const fields: RecordData = {};
  for (const [field, value] of row.edits) if (value !== (portalCopy[field] ?? '')) fields[field] = value;
  return Object.keys(fields).length === 0 ? { kind: 'already-saved', portalCopy } : { kind: 'send', fields, portalCopy };
}

/** Keep mine: my edits now stand against the portal's copy; the next save sends them (checked again). */
export function keepMine(changeSet: ChangeSet, conflict: Conflict): void {
  changeSet.rebase(conflict.recordId, conflict.portalCopy);
}

/** Take theirs: my edits of the row are dropped; the grid shows `portalCopy` (or drops the row when deleted). */
export function takeTheirs(changeSet: ChangeSet, recordId: string, portalCopy: Readonly<RecordData> | 'deleted'): void {
  changeSet.rebase(recordId, portalCopy === 'deleted' ? {} : portalCopy, { dropEdits: true });
}
