// After an import or a bulk change: which rows with pending edits the portal's copy moved under. Such a row
// keeps its edits and is marked changed on the portal, resolved at save like any conflict.
import type { RecordData } from '../api/types';
import type { ChangeSet } from './changeSet';
import { differs } from './conflicts';

/**
 * Marks each of `wanted` whose portal copy differs from the copy its edits started from. `readNow` holds the
 * copies the view's new read brought; a row it lacks (the filters leave it out now, the read was cancelled,
 * the record went) is asked for alone (`readCurrent`: undefined is a record gone). Returns how many were marked.
 */
export async function markChangedOnPortal(changeSet: ChangeSet, wanted: Iterable<string>, readNow: ReadonlyMap<string, RecordData>, readCurrent: (recordId: string) => Promise<RecordData | undefined>): Promise<number> {
  let marked = 0;
  for (const recordId of wanted) {
    const row = changeSet.row(recordId);
    if (!row || row.isNew) continue;
    const copy = readNow.get(recordId) ?? (await readCurrent(recordId)) ?? 'deleted';
    if (copy !== 'deleted' && !differs(row.asRead, copy)) continue;
    changeSet.portalChanged(recordId, copy);
    marked += 1;
  }
  return marked;
}
