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

/**
 * The operations, read ahead of the workers with their attempt lines written (prepare()): the journal
 * syncs many lines at once while requests are out, instead of one sync per request. Once no more than
 * `low` are left, the next rows up to `high` are read and prepared together, so that one write and one
 * sync carry the attempt lines of `high - low` rows.
 */
export function readAhead(iterator: AsyncIterator<Operation>, low: number, high: number, run: RunSide): ReadAhead {
  const buffer: Operation[] = [];
  let exhausted = false;
  let filling: Promise<void> | undefined;
  let failed: { error: unknown } | undefined;
  const fill = (): Promise<void> =>
    (filling ??= (async () => {
      const group: Operation[] = [];
      while (!exhausted && buffer.length + group.length < high && !run.stopped()) {
        const next = await iterator.next();
        if (next.done) exhausted = true;
        else group.push(next.value);
      }
      if (run.stopped()) return;
      // In one turn: the journal takes the group's attempt lines in one write. A row is offered to the
      // workers only once prepared, so a row taken to be sent is never one prepared after it was taken.
      for (const operation of group) run.prepare(operation);
      buffer.push(...group);
    })()
      .catch((error: unknown) => void (failed = { error }))
      .finally(() => (filling = undefined)));
  const takeNow = (): Operation | undefined => {
    if (failed) throw failed.error;
    const operation = buffer.shift();
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
