// The operations of a run, read ahead of its workers in groups, each group prepared in one turn (its
// attempt lines written together): see the runner's prepare().
import type { Operation } from './plan';

/** Operations read ahead of the workers: take() answers at once (no promise) while some are ready. */
interface ReadAhead {
  take: () => Operation | undefined | Promise<Operation | undefined>;
  /** Resolves once no reading ahead is under way. */
  settled: () => Promise<void>;
}

/** What the reading ahead asks of the run. */
export interface RunSide {
  /** Writes the operation's attempt line ahead, where it has one. */
  prepare: (operation: Operation) => void;
  /** After Cancel or a failure: no more rows are read or prepared. */
  stopped: () => boolean;
}

/** How often, at most, the attempt lines of rows read ahead are synced, at a fast portal. */
const SYNC_EVERY_MS = 50;

/**
 * Rows per group: what the workers take in SYNC_EVERY_MS, from 48 to 240 per request at once. A sync costs
 * the machine far more than its fdatasync call (the work beside the requests, in the thread pool and the
 * disk, on the cores a portal next door shares). Measured in imports alternating with bare creates in one
 * process (a scratch harness beside the import bench): 52 syncs of 192 rows per 10,000 creates ran at
 * 0.77 × the bare rate, 13 of 768 rows at 0.87 ×, no journal at all at 0.85 ×. Fewer rows at a slow
 * portal: after a crash, the resumed run looks for each row whose attempt line was written ahead.
 */
export function groupSize(concurrency: number, taken: number, seconds: number): number {
  const rows = seconds > 0 ? Math.round((taken / seconds) * (SYNC_EVERY_MS / 1000)) : 0;
  return Math.min(concurrency * 240, Math.max(concurrency * 48, rows));
}

/**
 * The operations, read ahead of the workers with their attempt lines written (prepare()): the journal
 * syncs many lines at once while requests are out, instead of one sync per request. Once no more than 16
 * per request at once are left (they keep the requests going while the next group syncs), the next group
 * of rows is read and prepared together, so that one write and one sync carry their attempt lines.
 */
export function readAhead(iterator: AsyncIterator<Operation>, concurrency: number, run: RunSide): ReadAhead {
  const low = concurrency * 16;
  const since = performance.now();
  let taken = 0;
  const buffer: Operation[] = [];
  let exhausted = false;
  let filling: Promise<void> | undefined;
  let failed: { error: unknown } | undefined;
  const fill = (): Promise<void> =>
    (filling ??= (async () => {
      const rows: Operation[] = [];
      const size = groupSize(concurrency, taken, (performance.now() - since) / 1000);
      while (!exhausted && rows.length < size && !run.stopped()) {
        const next = await iterator.next();
        if (next.done) exhausted = true;
        else rows.push(next.value);
      }
      if (run.stopped()) return;
      // In one turn: the journal takes the group's attempt lines in one write. A row is offered to the
      // workers only once prepared, so a row taken to be sent is never one prepared after it was taken.
      for (const operation of rows) run.prepare(operation);
      buffer.push(...rows);
    })()
      .catch((error: unknown) => void (failed = { error }))
      .finally(() => (filling = undefined)));
  const takeNow = (): Operation | undefined => {
    if (failed) throw failed.error;
    const operation = buffer.shift();
    taken += 1;
    // Not awaited: reading ahead runs beside the requests; its failure is kept and thrown at the next take.
    if (buffer.length <= low) void fill();
    return operation;
  };
  const take = async (): Promise<Operation | undefined> => {
    while (buffer.length === 0 && !exhausted && !failed && !run.stopped()) await fill();
    return takeNow();
  };
  // Once the workers are done: no row is prepared after this.
  const settled = async (): Promise<void> => {
    while (filling) await filling;
  };
  return { take: () => (buffer.length > 0 ? takeNow() : take()), settled };
}
