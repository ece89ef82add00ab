// Runs planned operations against the portal: a bounded number of requests at once, every outcome recorded
// in the journal (the worker moves on while its line is written: see start()), retries only where a retry
// cannot duplicate.
//
// The API has no idempotency key, so a create is the one request that must not simply be sent again:
// - What a failure says about the request is decided in one place (src/records/failures.ts, where 503 is
//   argued). Not taken (429): every worker waits (Retry-After when given, else a growing delay) and the
//   request is sent again.
// - May have been done (5xx, 503 included, a dropped connection, a time-out) or taken (an unreadable 2xx):
//   the row's lookup (its value in the unique column chosen as the key) is then looked for through a
//   view; found, the row is done with that record; not found, it is sent again. Without a lookup, or when
//   the look-up itself is refused (sign-in expired, 403, the view deleted), the row is reported
//   'uncertain' and not sent again: its attempt line stays, the next run looks it up before sending.
// - The attempt is journalled (and synced) before the create is sent, so a crash or reload in between is
//   the same case: the resumed run looks for the record first. Cancel lets the requests in flight answer
//   (CANCEL_GRACE_MS) before it cuts them off, so that it leaves none of them to look for.
// Updates (PUT of the same fields) and deletes (a second delete answers 404) are safe to repeat.
// Limits: the lookup view must show records whatever their field values (no conditions that hide new
// records), and a portal still busy with a timed-out create may show it only after the look-up.
//
// A scheduler on top of the record store: every create, update and delete goes through the store's rows
// API (records/store.ts appRecords), which offers what it wrote to Record History (`history`).
import { setMaxListeners } from 'node:events';
import type { ViewRead } from '../api/client';
import { isCancellation } from '../api/errors';
import type { ViewFilter } from '../api/filters';
import type { Column, RecordData } from '../api/types';
import type { Journal, Outcome, OutcomeCounts, OutcomeEntry } from './journal';
import type { CreateLookup, Operation } from './plan';
import { readAhead } from './readAhead';
import { classifyFailure, type Failure } from '../records/failures';
import { PortalLimiter } from '../records/limiter';
import { retryPolicy, withRetries, type Retrying, type RetryPolicy } from '../records/retry';
import { appRecords, type AppRecords, type RowsClient } from '../records/store';
import type { VersionSource } from '../records/versions';

/** The part of the portal client the runner uses (the store's rows API stands on it); PortalClient fits. */
export interface RecordWriter extends RowsClient {
  readView(appId: string, viewId: string, filters: readonly ViewFilter[], signal?: AbortSignal): Promise<ViewRead>;
}

export interface RunProgress {
  /** Rows with an outcome, earlier runs of the same journal included. */
  done: number;
  total: number | undefined;
  counts: OutcomeCounts;
  /** Rows per second in this run. */
  ratePerSecond: number;
  /** Estimated from the rate; undefined until the total and a rate are known. */
  secondsLeft: number | undefined;
  /** Set while every request waits because the portal asked to (Retry-After, capped): seconds left. */
  waitingSeconds?: number;
  /** The portal's requests per second lately and whether it pushed back (then that rate is about its limit). */
  requestsPerSecond?: number;
  limited?: boolean;
  /** Requests in flight to the portal, this run's and any other job's. */
  inFlight?: number;
}

/** What a job (an import, a bulk change) passes on to the runner as it is. */
export type RunnerOptions = Pick<RunOptions, 'concurrency' | 'signal' | 'onProgress' | 'onRecordChanged' | 'limiter' | 'retry' | 'history'>;

/** A job's runner options, and none of its other fields. */
export function runnerOptionsOf(job: RunnerOptions): RunnerOptions {
  const { concurrency, signal, onProgress, onRecordChanged, limiter, retry, history } = job;
  return { concurrency, signal, onProgress, onRecordChanged, limiter, retry, history };
}

export interface RunOptions {
  appId: string;
  writer: RecordWriter;
  journal: Journal;
  /**
   * Requests at once at most; default the limiter's most (it adapts below that), or 4 without one.
   */
  concurrency?: number;
  /**
   * The portal's limiter, which the writer's requests pass (PortalClient's gate): the run waits on its
   * pause before journalling a create, and reports its rate. Without one, a limiter of the run's own
   * holds only the run's pauses.
   */
  limiter?: PortalLimiter;
  /** Create records as drafts (apps with Draft mode). */
  draft?: boolean;
  /** The view through which a create whose answer was lost is looked for, with the app's columns. */
  lookupView?: { viewId: string; columns: readonly Column[] };
  /** Rows in the whole job, for progress. */
  total?: number;
  signal?: AbortSignal;
  onProgress?: (progress: RunProgress) => void;
  /** Called once per record this run created, updated or deleted, as soon as the portal said so. */
  onRecordChanged?: (change: RecordChanged) => void;
  /** The retries (records/retry.ts); tests shorten them. */
  retry?: Partial<RetryPolicy>;
  /** Where the store offers the versions the run writes (Record History), and what brought them. */
  history?: VersionSource;
}

/** A record a run changed: the callers announce it so that open documents and views follow. */
export interface RecordChanged {
  recordId: string;
  kind: 'created' | 'updated' | 'deleted';
}

export interface RunSummary {
  counts: OutcomeCounts;
  cancelled: boolean;
}

/** What a run sends again: any failure but a refusal (the portal said no) and a cancel (the user did). */
function sendAgain(failure: Failure): boolean {
  return failure.verdict !== 'cancelled' && failure.verdict !== 'refused';
}

/** How long the requests in flight at a Cancel may take to answer before they are cut off. */
const CANCEL_GRACE_MS = 2_000;

/** Every worker's wait listens to it: more than Node's 10 listeners is the rule, not a leak. */
function stoppable(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}

export async function runOperations(operations: AsyncIterable<Operation>, options: RunOptions): Promise<RunSummary> {
  const run = new Run(options);
  return run.start(operations);
}

class Run {
  private readonly controller = stoppable();
  private finishedHere = 0;
  private readonly startedAt = performance.now();
  /** Attempt lines written ahead of their request, by row. */
  private readonly prepared = new Map<number, Promise<void>>();
  private readonly retry: RetryPolicy;
  private readonly concurrency: number;
  /** Where the portal's pause is kept: shared with every job on the portal when the caller gave its limiter. */
  private readonly pace: PortalLimiter;
  /** The app's records, through the store's rows API. */
  private readonly records: AppRecords;
  /** How every request of the run is retried (records/retry.ts), and where the portal's pause is kept. */
  private readonly retrying: Retrying;

  constructor(private readonly options: RunOptions) {
    this.records = appRecords(options.writer, options.appId, { draft: options.draft, history: options.history });
    this.retry = retryPolicy(options.retry);
    this.concurrency = Math.max(1, options.concurrency ?? options.limiter?.maxInFlight ?? 4);
    this.pace =
      options.limiter ??
      new PortalLimiter({ maxInFlight: this.concurrency, initialInFlight: this.concurrency, maxRetryAfterMs: this.retry.maxRetryAfterMs });
    this.retrying = {
      policy: this.retry,
      pace: this.pace,
      // A stop ends the waits (the rows are left for the resumed run); the requests have their own cancel.
      signal: this.stopping.signal,
      // The progress says at once that every request waits.
      onPause: () => this.options.onProgress?.(this.progress()),
    };
  }

  /** Aborted at Cancel (or a failure): no request starts after it, and waits end. */
  private readonly stopping = stoppable();

  private get signal(): AbortSignal {
    return this.controller.signal;
  }

  /**
   * Whether `stopping` was aborted, kept here rather than read from its signal: on Node 20 every
   * AbortSignal has a map of its own, so code optimized reading one run's signal was thrown away at the
   * next run's first row (--trace-deopt: "wrong map" in the runner's worker, create and this getter).
   */
  private halted = false;

  private get stopped(): boolean {
    return this.halted;
  }

  private halt(reason: unknown): void {
    this.halted = true;
    this.stopping.abort(reason);
  }

  async start(operations: AsyncIterable<Operation>): Promise<RunSummary> {
    const outer = this.options.signal;
    // At Cancel the requests in flight are let finish for a moment, their outcomes journalled: cut off,
    // each would have to be looked for on resume, or, without a key to look by, be reported uncertain.
    let grace: ReturnType<typeof setTimeout> | undefined;
    const abort = (): void => {
      this.halt(outer?.reason);
      grace ??= setTimeout(() => this.controller.abort(outer?.reason), CANCEL_GRACE_MS);
    };
    if (outer?.aborted) {
      this.halt(outer.reason);
      this.controller.abort(outer.reason);
    }
    outer?.addEventListener('abort', abort, { once: true });
    const iterator = operations[Symbol.asyncIterator]();
    const concurrency = this.concurrency;
    // A group's attempt lines are written and synced together, its rows read ahead of the requests (how
    // many: readAhead.ts).
    const { take, settled } = readAhead(iterator, concurrency, {
      prepare: (operation) => this.prepare(operation),
      stopped: () => this.stopped,
    });
    let failure: unknown;
    const fail = (error: unknown): void => {
      failure ??= error;
      this.halt(error);
      this.controller.abort(error);
    };
    /** Writes of outcome lines under way: the lines of one write share a promise, followed once. */
    const unwritten = new Set<Promise<void>>();
    let lastWrite: Promise<void> | undefined;
    const follow = (write: Promise<void>): void => {
      // Progress once the write's lines are written: the rows they record count as done from then on.
      const followed = write
        .then(() => this.options.onProgress?.(this.progress()))
        .catch(fail)
        .finally(() => unwritten.delete(followed));
      unwritten.add(followed);
    };
    const worker = async (): Promise<void> => {
      try {
        for (;;) {
          const ready = take();
          const operation = ready instanceof Promise ? await ready : ready;
          if (!operation || this.stopped) return;
          const outcome = await this.execute(operation);
          if (outcome === undefined) return; // cancelled while in flight: no outcome, resumed later
          const { outcome: kind, recordId } = outcome;
          if ((kind === 'created' || kind === 'updated' || kind === 'deleted') && recordId !== undefined)
            this.options.onRecordChanged?.({ recordId, kind });
          // The worker goes on to its next request while the line is written: an outcome line is not
          // synced, and one lost costs the resumed run a look-up, never a duplicate.
          const written = this.options.journal.record(outcome);
          this.finishedHere += 1;
          if (written !== lastWrite) follow((lastWrite = written));
        }
      } catch (error) {
        fail(error);
      }
    };
    try {
      await Promise.all(Array.from({ length: concurrency }, worker));
      await settled();
      await this.withdrawUnsent();
      await this.options.journal.settle().catch(fail);
      while (unwritten.size > 0) await Promise.all(unwritten);
    } finally {
      clearTimeout(grace);
      outer?.removeEventListener('abort', abort);
      await iterator.return?.();
    }
    if (failure !== undefined && !isCancellation(failure)) throw failure;
    return { counts: this.options.journal.counts(), cancelled: outer?.aborted === true };
  }

  /** The rows whose outcome lines are written, earlier runs' included. */
  private progress(): RunProgress {
    const { journal, total } = this.options;
    const counts = journal.writtenCounts();
    const done = Object.values(counts).reduce((sum, count) => sum + count, 0);
    const seconds = (performance.now() - this.startedAt) / 1000;
    const ratePerSecond = seconds > 0 ? this.finishedHere / seconds : 0;
    const secondsLeft = total !== undefined && ratePerSecond > 0 ? Math.max(0, total - done) / ratePerSecond : undefined;
    const portal = this.pace.state();
    const progress: RunProgress = {
      done,
      total,
      counts,
      ratePerSecond,
      secondsLeft,
      requestsPerSecond: portal.ratePerSecond,
      limited: portal.limited,
      inFlight: portal.inFlight,
    };
    if (portal.pausedMs > 0) progress.waitingSeconds = Math.ceil(portal.pausedMs / 1000);
    return progress;
  }

  private async execute(operation: Operation): Promise<Omit<OutcomeEntry, 'type'> | undefined> {
    const { row } = operation;
    switch (operation.kind) {
      case 'invalid':
        return { row, outcome: 'failed', reason: operation.problems.map((problem) => `${problem.column}: ${problem.message}`).join('; ') };
      case 'unchanged':
        return { row, outcome: 'unchanged', recordId: operation.recordId };
      case 'create':
        return this.create(row, operation.data, operation.lookup);
      case 'update':
        return this.repeatable(row, 'updated', operation.recordId, (signal) =>
          this.records.update(operation.recordId, operation.changes, signal, { publish: operation.publish, base: operation.base }),
        );
      case 'delete':
        return this.repeatable(row, 'deleted', operation.recordId, (signal) => this.records.delete(operation.recordId, signal));
    }
  }

  /**
   * Withdraws the attempt lines written ahead for rows the run stopped before sending (Cancel, a failure):
   * the resumed run then sends them without looking for them first. Should a withdrawal be lost, the row
   * is looked for, as after a crash: a read, never a duplicate.
   */
  private async withdrawUnsent(): Promise<void> {
    const rows = [...this.prepared.keys()];
    this.prepared.clear();
    await Promise.all(rows.map((row) => this.options.journal.withdraw(row).catch(() => undefined)));
  }

  /**
   * Writes the attempt line of `operation` ahead. Not for a create without a lookup: should the run stop
   * before sending it, the resumed run could not tell it was never sent and would report it uncertain.
   */
  private prepare(operation: Operation): void {
    const { journal } = this.options;
    if (journal.unfinishedAttempt(operation.row) !== undefined) return;
    if (operation.kind === 'create' && operation.lookup && this.options.lookupView)
      this.prepared.set(operation.row, journal.attempt(operation.row, operation.lookup));
    else if (operation.kind === 'update' || operation.kind === 'delete') this.prepared.set(operation.row, journal.attempt(operation.row));
    this.prepared.get(operation.row)?.catch(() => undefined); // awaited, and its failure met, when the row is sent
  }

  /** Whether an earlier run may have sent the row's request (its attempt line was not written by this run). */
  private sentBefore(row: number): boolean {
    return !this.prepared.has(row) && this.options.journal.unfinishedAttempt(row) !== undefined;
  }

  /** The row's attempt line on disk: the one written ahead, else written now. */
  private attemptWritten(row: number, lookup?: CreateLookup): Promise<void> {
    const ahead = this.prepared.get(row);
    this.prepared.delete(row);
    return ahead ?? this.options.journal.attempt(row, lookup);
  }

  /** Whether a request must wait at the gate (no promise when it need not). */
  private held(): boolean {
    return this.stopped || this.pace.pausedMs() > 0;
  }

  /** Every worker holds back while the portal asked to wait (Cancel ends the wait: it throws then). */
  private async gate(): Promise<void> {
    await this.pace.whenOpen(this.stopping.signal);
    this.stopping.signal.throwIfAborted();
  }

  /**
   * A row's create, once (the store's rows API sends it; records/retry.ts's withRetries waits between the
   * attempts: as long as the portal asked, up to the cap, and every request to the portal with it, else
   * a growing delay). Each attempt looks for the record first when an earlier one (or an earlier run) may
   * have made it; a Stop ends the wait, and the row is left for the resumed run.
   */
  private async create(row: number, data: RecordData, lookup: CreateLookup | undefined): Promise<Omit<OutcomeEntry, 'type'> | undefined> {
    const { journal } = this.options;
    let mayExist = this.sentBefore(row);
    let lastReason = '';
    const attempt = async (): Promise<Omit<OutcomeEntry, 'type'> | undefined> => {
      if (mayExist) {
        if (!lookup || !this.options.lookupView) {
          return {
            row,
            outcome: 'uncertain',
            reason: `the portal may have created this record (${lastReason || 'an earlier run stopped before its answer'}); with no key column to look for it, it was not sent again: check the app`,
          };
        }
        const found = await this.find(lookup).catch((error: unknown) => classifyFailure(error));
        if (!Array.isArray(found)) {
          if (found.verdict === 'cancelled' || this.stopped) return undefined;
          // Failed or sent again, the row would be created a second time by a resumed run or the failures file.
          return {
            row,
            outcome: 'uncertain',
            reason: `the portal may have created this record (${lastReason || 'an earlier run stopped before its answer'}), and it could not be looked up (${found.reason}): it was not sent again; importing the file again looks it up first`,
          };
        }
        if (found.length === 1) return { row, outcome: 'created', recordId: found[0] };
        if (found.length > 1)
          return { row, outcome: 'uncertain', reason: `records ${found.join(', ')} all have ${lookup.field} = ${lookup.value}` };
        mayExist = false;
        // The look-up took a while: the portal may have asked every request to wait since.
        if (this.held()) await this.gate();
      }
      // The wait for the portal came first (withRetries), then the journal: a run cancelled while the portal
      // asks to wait leaves no attempt behind (a create without a look-up would be reported uncertain on resume).
      await this.attemptWritten(row, lookup);
      if (this.stopped) {
        await journal.withdraw(row); // stopped while the line was written: never sent
        return undefined;
      }
      try {
        // The create's answer is the copy: a read back per row would double the import's requests.
        const created = await this.records.create(data, this.signal, { readBack: false });
        return { row, outcome: 'created', recordId: created.recordId };
      } catch (error) {
        const failure = classifyFailure(error);
        if (sendAgain(failure)) {
          lastReason = failure.reason;
          if (failure.verdict !== 'not-taken') mayExist = true;
          else if (!mayExist) await journal.withdraw(row); // not taken: a stop now leaves nothing to look for
        }
        throw error;
      }
    };
    const ended = await this.retried(attempt);
    if (ended.kind === 'done') return ended.value;
    if (ended.kind === 'stopped') return undefined;
    if (ended.kind === 'refused') return { row, outcome: 'failed', reason: ended.reason };
    // Every attempt failed.
    if (mayExist && lookup && this.options.lookupView) {
      const found = await this.find(lookup).catch(() => undefined);
      if (found?.length === 1) return { row, outcome: 'created', recordId: found[0] };
      if (found?.length === 0) return { row, outcome: 'failed', reason: `not created: the portal kept failing (${lastReason})` };
    }
    return {
      row,
      outcome: mayExist ? 'uncertain' : 'failed',
      reason: `the portal kept failing (${lastReason})${mayExist ? '; the record may exist: check the app' : ''}`,
    };
  }

  /** `attempt` with the run's retries, and how it ended: done, stopped (a cancel, a stop), refused, or failing still. */
  private async retried<T>(
    attempt: () => Promise<T>,
  ): Promise<{ kind: 'done'; value: T } | { kind: 'stopped' } | { kind: 'refused'; reason: string } | { kind: 'keptFailing' }> {
    try {
      return { kind: 'done', value: await withRetries(attempt, this.retrying, sendAgain) };
    } catch (error) {
      const failure = classifyFailure(error);
      if (failure.verdict === 'cancelled' || this.stopped) return { kind: 'stopped' };
      if (failure.verdict === 'refused') return { kind: 'refused', reason: failure.reason };
      return { kind: 'keptFailing' };
    }
  }

  /** Record ids whose `lookup.field` is exactly `lookup.value`, read through the lookup view. */
  private find(lookup: CreateLookup): Promise<string[]> {
    const view = this.options.lookupView as { viewId: string; columns: readonly Column[] };
    const column = view.columns.find((candidate) => candidate.field_id_in_data === lookup.field);
    const filter: ViewFilter = { column: column?.field_id ?? lookup.field, operator: 'equals', value: lookup.value };
    return withRetries(
      async () => {
        const read = await this.options.writer.readView(this.options.appId, view.viewId, [filter], this.signal);
        // "equals" compares text case-insensitively: keep the exact matches (all, when the view hides the field).
        return read.rows
          .filter((row) => row.values[lookup.field] === undefined || row.values[lookup.field] === lookup.value)
          .flatMap((row) => (row.id ? [row.id] : []));
      },
      this.retrying,
      sendAgain,
    );
  }

  /** An update or delete: sent again after any failure that is not a refusal (records/retry.ts waits between). */
  private async repeatable(
    row: number,
    done: Outcome,
    recordId: string,
    send: (signal: AbortSignal) => Promise<void>,
  ): Promise<Omit<OutcomeEntry, 'type'> | undefined> {
    let sentBefore = this.sentBefore(row);
    let lastReason = '';
    const attempt = async (): Promise<Omit<OutcomeEntry, 'type'>> => {
      await this.attemptWritten(row);
      try {
        await send(this.signal);
        return { row, outcome: done, recordId };
      } catch (error) {
        const failure = classifyFailure(error);
        // A delete sent before whose answer was lost: the record is in trash now, so 404 means done.
        if (failure.verdict === 'refused' && failure.status === 404 && done === 'deleted' && sentBefore)
          return { row, outcome: done, recordId };
        if (sendAgain(failure)) {
          sentBefore = true;
          lastReason = failure.reason;
        }
        throw error;
      }
    };
    const ended = await this.retried(attempt);
    if (ended.kind === 'done') return ended.value;
    if (ended.kind === 'stopped') return undefined;
    return {
      row,
      outcome: 'failed',
      recordId,
      reason: ended.kind === 'refused' ? ended.reason : `the portal kept failing (${lastReason})`,
    };
  }
}
