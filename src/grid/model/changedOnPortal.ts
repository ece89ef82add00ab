// After an import or a bulk change: which rows with pending edits the portal's copy moved under. Such a row
// keeps its edits and is marked changed on the portal, resolved at save like any conflict.
import type { ViewRow } from '../../api/answers';
import { isCancellation } from '../../api/errors';
import type { RecordData } from '../../api/types';
import type { ChangeSet } from './changeSet';
import { differs } from './conflicts';

/**
 * Marks each of `wanted` whose portal copy differs from the copy its edits started from. `readNow` holds the
 * copies the view's new read brought; a row it lacks (the filters leave it out now, the read was cancelled,
 * the record went) is asked for alone (`readCurrent`: undefined is a record gone). Returns how many were marked.
 */
export async function markChangedOnPortal(
  changeSet: ChangeSet,
  wanted: Iterable<string>,
  readNow: ReadonlyMap<string, RecordData>,
  readCurrent: (recordId: string) => Promise<RecordData | undefined>,
): Promise<number> {
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

/**
 * The view read again after a bulk change of `recordIds` (`read` hands `observe` every row it reads and
 * resolves when it has ended), then the pending rows among them marked as markChangedOnPortal does. A read
 * that a newer one replaced (the filters run, another refresh) still marks: the rows it did not see are
 * asked for alone, so a cancellation here is not a failure.
 */
export async function readAgainAndMark(
  changeSet: ChangeSet,
  recordIds: readonly string[],
  read: (observe: (rows: readonly ViewRow[]) => void) => Promise<void>,
  readCurrent: (recordId: string) => Promise<RecordData | undefined>,
): Promise<{ wanted: string[]; marked: number }> {
  const wanted = recordIds.filter((recordId) => changeSet.row(recordId)?.isNew === false);
  const readNow = new Map<string, RecordData>();
  const lookFor = new Set(wanted);
  try {
    await read((rows) => {
      for (const row of rows) if (row.id !== undefined && lookFor.has(row.id)) readNow.set(row.id, row.values);
    });
  } catch (error) {
    if (!isCancellation(error)) throw error;
  }
  return { wanted, marked: await markChangedOnPortal(changeSet, wanted, readNow, readCurrent) };
}
