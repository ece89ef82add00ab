// The versions the record store offers (records/versions.ts), gathered and kept in batches: an offer
// returns at once (an import offers one per row, on its hot path). Once no offer came for GATHER_MS (or
// the first has waited MAX_GATHER_MS), what came is made into the records' texts and appended in one pass
// of the version log (each record's file read and written once, the total checked once). So a burst of
// writes (an import next door, thousands a second) is written after it, not beside it: measured, the
// files written while the import ran took it to 0.38 × its rate (test/bench/import.bench.ts). A longer
// burst is written BATCH_MOST at a time, as they come. Bounded: beyond MAX_WAITING offers waiting, new ones
// are not kept (and it is logged), so that a portal answering faster than the disk cannot grow the heap
// without end. No `vscode` import: unit-tested and benchmarked in
// plain node.
import type { RecordData } from '../api/types';
import type { RecordTarget } from '../model/targets';
import type { SeenVersion, Versions } from '../records/versions';
import type { RecordVersion, VersionLog, VersionToKeep } from './versionLog';

/** How long without an offer before what came is written (one batch). */
export const GATHER_MS = 200;
/**
 * How long the first offer of a batch waits at most, however busy the offers keep coming: long enough
 * for an import's burst on a loaded machine, where a 10,000-row import next door may take longer than
 * 5 s (a cap of 5 s then had the rest of its files written while it ran); the view asks for what waits
 * when it shows a record (flush).
 */
export const MAX_GATHER_MS = 30_000;
/** Offers that are written at once, without waiting for a pause. */
export const BATCH_MOST = 10_000;
/** Offers waiting at most (a batch being written and the next one gathering). */
export const MAX_WAITING = 30_000;

/** The fields of a version's text (the record's document: its keys that start with "$" are none). */
function fieldsOf(version: RecordVersion | undefined): RecordData {
  if (!version) return {};
  try {
    const parsed: unknown = JSON.parse(version.text);
    if (typeof parsed !== 'object' || parsed === null) return {};
    return Object.fromEntries(
      Object.entries(parsed).filter((entry): entry is [string, string] => !entry[0].startsWith('$') && typeof entry[1] === 'string'),
    );
  } catch {
    return {};
  }
}

/**
 * A version seen as the version to keep: the record's document of its fields (`textOf`); when only some
 * fields are known (a write), they go over those of the record's last version kept.
 */
export function versionToKeep(seen: SeenVersion, textOf: (data: RecordData) => string): VersionToKeep {
  return {
    record: seen.record,
    at: seen.at,
    cause: seen.cause,
    text: seen.whole ? textOf(seen.data) : (last) => textOf({ ...fieldsOf(last), ...seen.data }),
  };
}

export interface BatchesDeps {
  readonly log: VersionLog;
  /** The versions to keep of a batch (their texts, or how to make them from the last kept); may leave some out. */
  prepare(batch: readonly SeenVersion[]): Promise<VersionToKeep[]>;
  /** After a batch: the records that got a version. */
  kept?(records: readonly RecordTarget[]): void;
  warn(line: string): void;
}

export class VersionBatches implements Versions {
  private waiting: SeenVersion[] = [];
  private gathering: ReturnType<typeof setTimeout> | undefined;
  private writing: Promise<void> | undefined;
  private notKept = 0;
  /** When the last offer came, and the first of those waiting. */
  private lastOfferAt = 0;
  private firstWaitingAt = 0;

  constructor(private readonly deps: BatchesDeps) {}

  offer(version: SeenVersion): void {
    if (this.waiting.length >= MAX_WAITING) {
      this.notKept += 1;
      return;
    }
    const now = performance.now();
    if (this.waiting.length === 0) this.firstWaitingAt = now;
    this.lastOfferAt = now;
    this.waiting.push(version);
    if (this.waiting.length >= BATCH_MOST && !this.writing) {
      // Not awaited: a long burst is written as it comes; write() logs a failure.
      void this.flush();
      return;
    }
    this.gathering ??= setTimeout(() => this.flushLater(), GATHER_MS);
  }

  /** Offers waiting to be written. */
  get pending(): number {
    return this.waiting.length;
  }

  /** Writes what was offered so far; resolves once it is written (a failure is logged, not thrown). */
  async flush(): Promise<void> {
    clearTimeout(this.gathering);
    this.gathering = undefined;
    while (this.writing) await this.writing;
    if (this.waiting.length === 0) return;
    const batch = this.waiting;
    this.waiting = [];
    this.writing = this.write(batch).finally(() => (this.writing = undefined));
    await this.writing;
  }

  /** The timer stops; what waits is not written. */
  dispose(): void {
    clearTimeout(this.gathering);
    this.gathering = undefined;
  }

  private flushLater(): void {
    this.gathering = undefined;
    const now = performance.now();
    const quietFor = now - this.lastOfferAt;
    if (quietFor < GATHER_MS && now - this.firstWaitingAt < MAX_GATHER_MS) {
      // Offers keep coming: wait until they stop (or the first has waited long enough).
      this.gathering = setTimeout(() => this.flushLater(), Math.min(GATHER_MS - quietFor, MAX_GATHER_MS - (now - this.firstWaitingAt)));
      return;
    }
    // Not awaited: the timer's batch is written in the background; write() logs its failure.
    void this.flush().then(() => {
      if (this.waiting.length > 0) this.gathering ??= setTimeout(() => this.flushLater(), GATHER_MS);
    });
  }

  private async write(batch: readonly SeenVersion[]): Promise<void> {
    if (this.notKept > 0) {
      this.deps.warn(`Record History kept no version of ${this.notKept} records: too many were waiting to be written.`);
      this.notKept = 0;
    }
    try {
      const kept = await this.deps.log.appendAll(await this.deps.prepare(batch));
      if (kept.length > 0) this.deps.kept?.(kept);
    } catch (error) {
      this.deps.warn(`Record History could not keep ${batch.length} versions: ${String(error)}`);
    }
  }
}
