// Which change to a record an event name means. The documentation does not show the portal's event names;
// the emulator's are record.created / record.updated / record.deleted, and a real portal's may be spelled
// RECORD_UPDATE, record-edited, recordDeleted... so the name is read by its words rather than matched
// exactly. Comments and attachments do not change what a record document or the tree shows.
import type { RecordChangeKind } from '../catalog/recordEvents';

/** The words of an event name: "record.updated" -> [record, updated]; "recordDeleted" -> [record, deleted]. */
function words(event: string): string[] {
  return event
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

const STARTS: ReadonlyArray<[RecordChangeKind, readonly string[]]> = [
  ['deleted', ['delet', 'remov', 'trash', 'destroy']],
  ['created', ['creat', 'add', 'new', 'insert']],
  ['updated', ['updat', 'edit', 'chang', 'modif', 'publish', 'restor']],
];

/**
 * The record change an event stands for, or undefined for events about a record's comments or attachments.
 * An event whose name says nothing known is taken as "updated": reading the record again is always safe.
 */
export function recordChangeOf(event: string): RecordChangeKind | undefined {
  const parts = words(event);
  if (parts.some((part) => part.startsWith('comment') || part.startsWith('attachment') || part === 'file')) return undefined;
  for (const [kind, starts] of STARTS) {
    if (parts.some((part) => starts.some((start) => part.startsWith(start)))) return kind;
  }
  return 'updated';
}

/**
 * The change a webhook's event stands for once checked: "deleted" is believed only when the portal no
 * longer has the record (`readCurrent` resolves undefined). Anyone who reaches a receiver without a Secret
 * Key can send the event, and acting on it removes the record from the tree, the grid and open documents
 * without a read; a record that is still there, or a read that failed, is only read anew ("updated").
 */
export async function confirmedChange(kind: RecordChangeKind, readCurrent: () => Promise<unknown>): Promise<RecordChangeKind> {
  if (kind !== 'deleted') return kind;
  try {
    return (await readCurrent()) === undefined ? 'deleted' : 'updated';
  } catch {
    return 'updated';
  }
}
