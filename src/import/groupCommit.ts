// Group commit for the journal: lines appended in the same turn go out in one write, and lines that need
// no sync linger until a line that does comes to go with them, LINGER_LINES have gathered, or LINGER_MS
// have passed. A write is a trip to libuv's thread pool, and a sync a trip to the disk: each costs far
// more than a line (test/bench/import.profile.ts, parts).
//
// The lines of one write share one promise (one more, resolved after a sync, for those that need it):
// an import appends two lines per row, and a promise, a closure and a queue entry per line cost more CPU
// than the write they wait for. Each write's promises have a handler from the start, so a failed write
// whose lines nobody awaits is never an unhandled rejection; whoever awaits one still sees the failure.
import type { FileHandle } from 'node:fs/promises';

/**
 * Each write is a trip to the thread pool, which costs the machine more than the write's call: outcome
 * lines linger up to 1,024 rows (or LINGER_MS) unless a group of attempt lines takes them along. In one
 * run of imports alternating with bare creates (see readAhead.ts): 0.82 × the bare rate with 256 rows,
 * 0.88 × with 1,024.
 */
const LINGER_LINES = 1024;
const LINGER_MS = 50;

class Settled {
  readonly promise: Promise<void>;
  resolve!: () => void;
  reject!: (error: unknown) => void;

  constructor() {
    this.promise = new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    this.promise.catch(() => undefined);
  }
}

/** Lines waiting for one write, and what their writers were promised. */
class Batch<Extra> {
  readonly lines: string[] = [];
  durable = false;
  written: Settled | undefined;
  synced: Settled | undefined;
  constructor(readonly extra: Extra) {}
}

export class GroupCommit<Extra> {
  private batch: Batch<Extra>;
  /** Set when the batch's lines have waited LINGER_MS. */
  private overdue = false;
  private closing = false;
  private lingering: ReturnType<typeof setTimeout> | undefined;
  private flushing: Promise<void> | undefined;
  private unsynced: Settled[] = [];
  private syncing: Promise<void> | undefined;

  /**
   * @param fresh What a new batch carries for its owner (see `extra`).
   * @param onWritten Called with a batch's extra once its lines are written, before their promises resolve.
   */
  constructor(
    private readonly handle: Pick<FileHandle, 'write' | 'datasync'>,
    private readonly fresh: () => Extra,
    private readonly onWritten: (extra: Extra) => void,
  ) {
    this.batch = new Batch(fresh());
  }

  /** The owner's record of the lines waiting for the next write (the journal counts the outcomes in it). */
  get extra(): Extra {
    return this.batch.extra;
  }

  /**
   * Appends `line` (without its line break). Resolves once the OS has it (a crashed process loses nothing
   * the OS holds), or with `durable` once a sync that began after its write has ended.
   */
  append(line: string, durable: boolean): Promise<void> {
    const batch = this.batch;
    batch.lines.push(line);
    let settled: Settled;
    if (durable) {
      batch.durable = true;
      settled = batch.synced ??= new Settled();
    } else {
      settled = batch.written ??= new Settled();
    }
    this.kick();
    return settled.promise;
  }

  /** Writes at once what lingers, and waits for every write and sync under way. */
  async settle(): Promise<void> {
    this.closing = true;
    try {
      for (let busy = this.busy(); busy; busy = this.busy()) await busy;
    } finally {
      this.closing = false;
    }
  }

  private busy(): Promise<void> | undefined {
    this.kick();
    return this.flushing ?? this.syncing;
  }

  /** One writer at a time; it starts a microtask later, so lines appended in the same turn go out together. */
  private kick(): void {
    const { lines, durable } = this.batch;
    if (this.flushing || lines.length === 0) return;
    if (!durable && lines.length < LINGER_LINES && !this.overdue && !this.closing) {
      this.lingering ??= setTimeout(() => {
        this.lingering = undefined;
        this.overdue = true;
        this.kick();
      }, LINGER_MS);
      return;
    }
    clearTimeout(this.lingering);
    this.lingering = undefined;
    this.flushing = Promise.resolve()
      .then(() => this.flush())
      .finally(() => {
        this.flushing = undefined;
        this.kick();
      });
  }

  /** Writes the batch, in order; its durable lines join the next sync, which runs beside the writing. */
  private async flush(): Promise<void> {
    const batch = this.batch;
    this.batch = new Batch(this.fresh());
    this.overdue = false;
    try {
      await this.handle.write(`${batch.lines.join('\n')}\n`);
    } catch (error) {
      batch.written?.reject(error);
      batch.synced?.reject(error);
      return;
    }
    this.onWritten(batch.extra);
    batch.written?.resolve();
    if (batch.synced) {
      this.unsynced.push(batch.synced);
      this.startSync();
    }
  }

  /** One sync at a time; lines written while it runs are taken by the next. */
  private startSync(): void {
    if (this.syncing || this.unsynced.length === 0) return;
    this.syncing = this.sync().finally(() => {
      this.syncing = undefined;
      this.startSync();
    });
  }

  private async sync(): Promise<void> {
    while (this.unsynced.length > 0) {
      const written = this.unsynced;
      this.unsynced = [];
      try {
        await this.handle.datasync();
        for (const settled of written) settled.resolve();
      } catch (error) {
        for (const settled of written) settled.reject(error);
      }
    }
  }
}
