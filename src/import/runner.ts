// Runs planned operations against the portal: a bounded number of requests at once, every outcome in the
// journal before the worker moves on, retries only where a retry cannot duplicate.
//
// The API has no idempotency key, so a create is the one request that must not simply be sent again:
// - 429 and 503 say the portal did not take the request (RFC 9110: "not able to handle it now"): every
//   worker waits (Retry-After when given, else a growing delay) and the request is sent again.
// - Any other 5xx, a dropped connection, a time-out or an unreadable 2xx may come after the portal created
//   the record. The row's lookup (a unique column's value, or the import marker the person mapped) is
//   then looked for through a view; found, the row is done with that record; not found, it is sent again.
//   Without a lookup the row is reported 'uncertain' and not sent again: a person must check it.
// - The attempt is journalled (and synced) before the create is sent, so a crash or reload in between is
//   the same case: the resumed run looks for the record first.
// Updates (PUT of the same fields) and deletes (a second delete answers 404) are safe to repeat.
// Limits: the lookup view must show records whatever their field values (no conditions that hide new
// records), and a portal still busy with a timed-out create may show it only after the look-up.
import type { ViewRead } from '../api/client';
import { isCancellation, isPortalError } from '../api/errors';
import type { ViewFilter } from '../api/filters';
import type { Column, RecordData } from '../api/types';
import type { Journal, Outcome, OutcomeCounts, OutcomeEntry } from './journal';
import type { CreateLookup, Operation } from './plan';

/** The part of the portal client the runner uses; PortalClient fits. */
export interface RecordWriter {
  createRecord(appId: string, data: RecordData, options: { draft?: boolean }, signal?: AbortSignal): Promise<{ id: string | undefined }>;
  updateRecord(appId: string, recordId: string, changes: RecordData, options: { publish?: boolean }, signal?: AbortSignal): Promise<void>;
  deleteRecord(appId: string, recordId: string, signal?: AbortSignal): Promise<void>;
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
}

export interface RunOptions {
  appId: string;
  writer: RecordWriter;
  journal: Journal;
  /** Requests at once; default 4. */
  concurrency?: number;
  /** Create records as drafts (apps with Draft mode). */
  draft?: boolean;
  /** The view through which a create whose answer was lost is looked for, with the app's columns. */
  lookupView?: { viewId: string; columns: readonly Column[] };
  /** Rows in the whole job, for progress. */
  total?: number;
  signal?: AbortSignal;
  onProgress?: (progress: RunProgress) => void;
  /** Attempts per request before a row fails (default 8); delays grow from baseDelayMs (default 250). */
  maxAttempts?: number;
  baseDelayMs?: number;
}

export interface RunSummary {
  counts: OutcomeCounts;
  cancelled: boolean;
}

type Failure =
  | { kind: 'cancelled' }
  | { kind: 'refused'; reason: string; status?: number }
  /** The portal did not take the request: send it again after `waitMs`. */
  | { kind: 'not-taken'; reason: string; waitMs?: number }
  /** The request may have been carried out. */
  | { kind: 'unknown'; reason: string };

function classify(error: unknown): Failure {
  if (isCancellation(error)) return { kind: 'cancelled' };
  if (!isPortalError(error)) return { kind: 'refused', reason: error instanceof Error ? error.message : String(error) };
  const reason = error.portalMessage ?? error.message;
  if (error.kind === 'http' && (error.status === 429 || error.status === 503)) return { kind: 'not-taken', reason, waitMs: error.retryAfterMs };
  if (error.kind === 'http' && (error.status ?? 0) >= 500) return { kind: 'unknown', reason };
  if (error.kind === 'network' || error.kind === 'timeout' || error.kind === 'invalid-response') return { kind: 'unknown', reason: error.message };
  return { kind: 'refused', reason, status: error.status };
}

const MAX_DELAY_MS = 30_000;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

export async function runOperations(operations: AsyncIterable<Operation>, options: RunOptions): Promise<RunSummary> {
  const run = new Run(options);
  return run.start(operations);
}

class Run {
  private readonly controller = new AbortController();
  private pausedUntil = 0;
  private finishedHere = 0;
  private readonly startedAt = performance.now();
  private readonly maxAttempts: number;
  private readonly baseDelayMs: number;

  constructor(private readonly options: RunOptions) {
    this.maxAttempts = options.maxAttempts ?? 8;
    this.baseDelayMs = options.baseDelayMs ?? 250;
  }

  private get signal(): AbortSignal {
    return this.controller.signal;
  }

  async start(operations: AsyncIterable<Operation>): Promise<RunSummary> {
    const outer = this.options.signal;
    const abort = (): void => this.controller.abort(outer?.reason);
    if (outer?.aborted) abort();
    outer?.addEventListener('abort', abort, { once: true });
    const iterator = operations[Symbol.asyncIterator]();
    let failure: unknown;
    const worker = async (): Promise<void> => {
      try {
        while (!this.signal.aborted) {
          const next = await iterator.next();
          if (next.done) return;
          const outcome = await this.execute(next.value);
          if (outcome === undefined) return; // cancelled while in flight: no outcome, resumed later
          await this.options.journal.record(outcome);
          this.finishedHere += 1;
          this.report();
        }
      } catch (error) {
        failure ??= error;
        this.controller.abort(error);
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.max(1, this.options.concurrency ?? 4) }, worker));
    } finally {
      outer?.removeEventListener('abort', abort);
      await iterator.return?.();
    }
    if (failure !== undefined && !isCancellation(failure)) throw failure;
    return { counts: this.options.journal.counts(), cancelled: outer?.aborted === true };
  }

  private report(): void {
    const { journal, total, onProgress } = this.options;
    if (!onProgress) return;
    const counts = journal.counts();
    const done = Object.values(counts).reduce((sum, count) => sum + count, 0);
    const seconds = (performance.now() - this.startedAt) / 1000;
    const ratePerSecond = seconds > 0 ? this.finishedHere / seconds : 0;
    const secondsLeft = total !== undefined && ratePerSecond > 0 ? Math.max(0, total - done) / ratePerSecond : undefined;
    onProgress({ done, total, counts, ratePerSecond, secondsLeft });
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
          this.options.writer.updateRecord(this.options.appId, operation.recordId, operation.changes, { publish: operation.publish }, signal),
        );
      case 'delete':
        return this.repeatable(row, 'deleted', operation.recordId, (signal) => this.options.writer.deleteRecord(this.options.appId, operation.recordId, signal));
    }
  }

  private delay(attempt: number): number {
    return Math.min(MAX_DELAY_MS, this.baseDelayMs * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2);
  }

  /** Every worker holds back while the portal asked to wait. */
  private async gate(): Promise<void> {
    for (let wait = this.pausedUntil - Date.now(); wait > 0 && !this.signal.aborted; wait = this.pausedUntil - Date.now()) await sleep(wait, this.signal);
    this.signal.throwIfAborted();
  }

  private pause(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, Date.now() + ms);
  }

  private async create(row: number, data: RecordData, lookup: CreateLookup | undefined): Promise<Omit<OutcomeEntry, 'type'> | undefined> {
    const { journal, writer, appId } = this.options;
    let mayExist = journal.unfinishedAttempt(row) !== undefined;
    let lastReason = '';
    for (let attempt = 1; attempt <= this.maxAttempts; attempt += 1) {
      try {
        if (mayExist) {
          if (!lookup || !this.options.lookupView) {
            return { row, outcome: 'uncertain', reason: `the portal may have created this record (${lastReason || 'an earlier run stopped before its answer'}); with no unique or marker column to look for it, it was not sent again: check the app` };
          }
          const found = await this.find(lookup);
          if (found.length === 1) return { row, outcome: 'created', recordId: found[0] };
          if (found.length > 1) return { row, outcome: 'uncertain', reason: `records ${found.join(', ')} all have ${lookup.field} = ${lookup.value}` };
          mayExist = false;
        }
        await journal.attempt(row, lookup);
        await this.gate();
        const created = await writer.createRecord(appId, data, { draft: this.options.draft }, this.signal);
        return { row, outcome: 'created', recordId: created.id };
      } catch (error) {
        const failure = classify(error);
        if (failure.kind === 'cancelled' || this.signal.aborted) return undefined;
        if (failure.kind === 'refused') return { row, outcome: 'failed', reason: failure.reason };
        lastReason = failure.reason;
        if (failure.kind === 'unknown') mayExist = true;
        const wait = failure.kind === 'not-taken' ? failure.waitMs ?? this.delay(attempt) : this.delay(attempt);
        if (failure.kind === 'not-taken') this.pause(wait);
        await sleep(wait, this.signal);
        if (this.signal.aborted) return undefined;
      }
    }
    if (mayExist && lookup && this.options.lookupView) {
      const found = await this.find(lookup).catch(() => undefined);
      if (found?.length === 1) return { row, outcome: 'created', recordId: found[0] };
      if (found?.length === 0) return { row, outcome: 'failed', reason: `not created: the portal kept failing (${lastReason})` };
    }
    return { row, outcome: mayExist ? 'uncertain' : 'failed', reason: `the portal kept failing (${lastReason})${mayExist ? '; the record may exist: check the app' : ''}` };
  }

  /** Record ids whose `lookup.field` is exactly `lookup.value`, read through the lookup view. */
  private async find(lookup: CreateLookup): Promise<string[]> {
    const view = this.options.lookupView as { viewId: string; columns: readonly Column[] };
    const column = view.columns.find((candidate) => candidate.field_id_in_data === lookup.field);
    const filter: ViewFilter = { column: column?.field_id ?? lookup.field, operator: 'equals', value: lookup.value };
    for (let attempt = 1; ; attempt += 1) {
      await this.gate();
      try {
        const read = await this.options.writer.readView(this.options.appId, view.viewId, [filter], this.signal);
        // "equals" compares text case-insensitively: keep the exact matches (all, when the view hides the field).
        return read.rows.filter((row) => row.values[lookup.field] === undefined || row.values[lookup.field] === lookup.value).flatMap((row) => (row.id ? [row.id] : []));
      } catch (error) {
        const failure = classify(error);
        if (failure.kind === 'cancelled' || failure.kind === 'refused' || attempt >= this.maxAttempts) throw error;
        const wait = failure.kind === 'not-taken' ? failure.waitMs ?? this.delay(attempt) : this.delay(attempt);
        if (failure.kind === 'not-taken') this.pause(wait);
        await sleep(wait, this.signal);
      }
    }
  }

  /** An update or delete: sent again after any failure that is not a refusal. */
  private async repeatable(row: number, done: Outcome, recordId: string, send: (signal: AbortSignal) => Promise<void>): Promise<Omit<OutcomeEntry, 'type'> | undefined> {
    const { journal } = this.options;
    let sentBefore = journal.unfinishedAttempt(row) !== undefined;
    let lastReason = '';
    for (let attempt = 1; attempt <= this.maxAttempts; attempt += 1) {
      try {
        await journal.attempt(row);
        await this.gate();
        await send(this.signal);
        return { row, outcome: done, recordId };
      } catch (error) {
        const failure = classify(error);
        if (failure.kind === 'cancelled' || this.signal.aborted) return undefined;
        // A delete sent before whose answer was lost: the record is in trash now, so 404 means done.
        if (failure.kind === 'refused' && failure.status === 404 && done === 'deleted' && sentBefore) return { row, outcome: done, recordId };
        if (failure.kind === 'refused') return { row, outcome: 'failed', recordId, reason: failure.reason };
        sentBefore = true;
        lastReason = failure.reason;
        const wait = failure.kind === 'not-taken' ? failure.waitMs ?? this.delay(attempt) : this.delay(attempt);
        if (failure.kind === 'not-taken') this.pause(wait);
        await sleep(wait, this.signal);
        if (this.signal.aborted) return undefined;
      }
    }
    return { row, outcome: 'failed', recordId, reason: `the portal kept failing (${lastReason})` };
  }
}
