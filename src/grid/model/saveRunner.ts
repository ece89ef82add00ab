// Saving the grid's changed rows: for each savable row, read the portal's copy (the conflict check), then
// send one update of only the changed fields. The portal's copies come from one read of the grid's view
// when many rows changed (viewCheck.ts: the rule, and why it finds the same conflicts; a row is sent as
// soon as its copy has come, while the rest of the answer arrives), else, and for any row that read
// cannot vouch for, from a GET of the row. A bounded number of rows at once; progress after
// each row; cancellable. A row that fails keeps its pending edits and says why: nothing is lost on any failure.
//
// A scheduler on top of the record store: what a row's check-then-update and a new row's create-once do,
// and why their retries are safe (an update after an uncertain failure is checked again, never resent
// blindly; a create is sent again only when not taken), is records/store.ts's; how often and how long
// to wait, records/retry.ts's (a Retry-After pauses every request to the portal, through its limiter).
// This file adds the view read, retried as a GET is: it changes nothing, and when it still fails each row
// is checked by its own GET (the read only saves requests). A Retry-After longer than the save waits
// fails the row with "save again later" (a person watches the progress).
import type { PortalClient } from '../../api/client';
import { isCancellation } from '../../api/errors';
import type { ViewFilter } from '../../api/filters';
import type { RecordData } from '../../api/types';
import { createBody } from '../../records/changes';
import { mayHaveBeenDone } from '../../records/failures';
import { PortalLimiter } from '../../records/limiter';
import { retryPolicy, WaitTooLong, withRetries, type Retrying } from '../../records/retry';
import type { ChangeSet } from './changeSet';
import { checkRow, type Conflict, type RowToSave, type SaveCheck } from './conflicts';
import { appRecords, checkAndUpdate, createOnce, type AppRecords } from '../../records/store';
import type { VersionSource } from '../../records/versions';
import { CHECK_BATCHES, checkAgainstView, readViewCopies, shouldReadView, ViewAnswer, type ViewCheckSource } from './viewCheck';

export type RowOutcome =
  /**
   * `sent` is what the update carried ({} when the portal already held my values); `portalCopy` the portal's
   * copy the row was checked against: with `sent` on top, what the portal holds now.
   */
  | { readonly recordId: string; readonly kind: 'saved'; readonly sent: RecordData; readonly portalCopy: Readonly<RecordData> }
  /** A new row (`recordId` its placeholder) created as record `created`; `copy` is the portal's copy. */
  | { readonly recordId: string; readonly kind: 'created'; readonly created: string; readonly sent: RecordData; readonly copy: RecordData }
  | { readonly recordId: string; readonly kind: 'conflict'; readonly conflict: Conflict }
  | { readonly recordId: string; readonly kind: 'deleted' }
  | { readonly recordId: string; readonly kind: 'failed'; readonly reason: string }
  | { readonly recordId: string; readonly kind: 'cancelled' };

export interface SaveProgress {
  readonly total: number;
  readonly done: number;
  readonly saved: number;
  readonly conflicts: number;
  readonly failed: number;
  /** Set while the view is read for the check: its rows read so far (rows whose copies came are sent meanwhile). */
  readonly viewRowsRead?: number;
}

/**
 * How long after a view's read a row's update may start and still be checked against that read (issue 35,
 * decided): a colleague's change made within that window is not seen and would be overwritten, so it is
 * kept short; the rows begun later are read again. 30 s before: long enough for a change to slip in.
 */
export const VIEW_ANSWER_MAX_AGE_MS = 5_000;

export interface SaveOptions {
  /**
   * Rows in flight at once at most. Default: the limiter's most (its window, shared by every job on the
   * portal and adapting to it, holds the requests below that), or 4 without one.
   */
  readonly concurrency?: number;
  /** The portal's limiter (its client's gate): the save's 429 pause is the portal's, shared with every job on it. */
  readonly limiter?: PortalLimiter;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: SaveProgress) => void;
  /** Attempts per step (a 429 or an uncertain failure uses one); default the retry policy's (records/retry.ts). */
  readonly maxAttempts?: number;
  /** Wait before retrying a 5xx or a dropped connection, by attempt (1, 2, ...); default the retry policy's backoff. */
  readonly backoffMs?: (attempt: number) => number;
  /** A Retry-After longer than this fails the row instead of holding the save; default 60 s. */
  readonly maxRetryAfterMs?: number;
  /** The grid's view, to check many rows with one read of it (viewCheck.ts); without it, a GET per row. */
  readonly viewCheck?: ViewCheckSource;
  /**
   * A view's answer checks the rows whose update begins within this long of the read's start; after that
   * the rows left are checked by a newer read (or GETs): how old a copy may be when a row is compared with
   * it stays bounded however long the save runs. Default VIEW_ANSWER_MAX_AGE_MS.
   */
  readonly viewAnswerMaxAgeMs?: number;
  /** The clock the view answer's age is told by (tests pass a fake one); default Date.now. */
  readonly now?: () => number;
}

export interface SaveReport {
  readonly outcomes: readonly RowOutcome[];
  /** Rows not attempted because a cell is invalid (their edits stay pending, marked). */
  readonly blocked: readonly string[];
}

function reasonOf(error: unknown): string {
  if (error instanceof WaitTooLong)
    return `${reasonOf(error.cause)} The portal asked to wait ${Math.ceil(error.waitMs / 1000)} s; save again later.`;
  return error instanceof Error && error.message ? error.message : String(error);
}

/** A scheduler of rows on top of the record store (records/store.ts: check-then-update, create-once). */
class Runner {
  /** How every request of the save is retried (records/retry.ts), and where the portal's pause is kept. */
  private readonly retrying: Retrying;
  /** The view's answer the rows are checked against, as its rows arrive. */
  private answer: ViewAnswer | undefined;
  /** The view reads on their way, and what stops them once every row is done (the rest of an answer is not needed). */
  private readonly reads = new Set<Promise<void>>();
  private readonly stopReads = new AbortController();
  /** Rows begun whose check waits for a view's answer: a newer read must bring them too. */
  private readonly awaitingAnswer = new Set<string>();

  constructor(
    private readonly changeSet: ChangeSet,
    private readonly store: AppRecords,
    private readonly options: SaveOptions,
    /** The existing rows no worker has begun yet: how many (asked before every row), and which. */
    private readonly notBegun: { count(): number; ids(): readonly string[] },
    private readonly onViewRows: (rowsRead: number | undefined) => void,
  ) {
    const failBeyondMs = options.maxRetryAfterMs ?? 60_000;
    this.retrying = {
      policy: retryPolicy({ maxAttempts: options.maxAttempts }),
      pace: options.limiter ?? new PortalLimiter({ maxRetryAfterMs: failBeyondMs }),
      signal: options.signal,
      backoffMs: options.backoffMs,
      failBeyondMs,
    };
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** Rows in flight now: the portal limiter's window when the save has it (it adapts), else the fixed number. */
  get concurrency(): number {
    return Math.max(1, this.options.concurrency ?? this.options.limiter?.state().limit ?? 4);
  }

  /** Creates the record of a new row. */
  async createRow(row: RowToSave): Promise<RowOutcome> {
    const { recordId } = row;
    const fields = createBody(this.changeSet.columns, Object.fromEntries(row.edits)).fields;
    try {
      const created = await createOnce(this.store, fields, this.retrying);
      return { recordId, kind: 'created', created: created.recordId, sent: fields, copy: created.copy };
    } catch (error) {
      if (isCancellation(error) || (this.options.signal?.aborted && !mayHaveBeenDone(error))) return { recordId, kind: 'cancelled' };
      const maybe = mayHaveBeenDone(error)
        ? ' The portal may have created the record all the same: look in the view before saving this row again.'
        : '';
      return { recordId, kind: 'failed', reason: `${reasonOf(error)}${maybe}` };
    }
  }

  async saveRow(row: RowToSave): Promise<RowOutcome> {
    const { recordId } = row;
    try {
      const byView = await this.checkByView(row);
      const check = await checkAndUpdate(
        this.store,
        recordId,
        (portalCopy) => checkRow(this.changeSet.columns, row, portalCopy),
        this.retrying,
        byView,
      );
      switch (check.kind) {
        case 'deleted':
          return { recordId, kind: 'deleted' };
        case 'conflict':
          return { recordId, kind: 'conflict', conflict: check.conflict };
        case 'already-saved':
          return this.saved(row, check.portalCopy, {});
        default:
          return this.saved(row, check.portalCopy, check.fields);
      }
    } catch (error) {
      if (isCancellation(error) || this.options.signal?.aborted) return { recordId, kind: 'cancelled' };
      return { recordId, kind: 'failed', reason: reasonOf(error) };
    }
  }

  /** The check of the row against the view's answer; undefined when it is to be checked by GET. */
  private async checkByView(row: RowToSave): Promise<SaveCheck | undefined> {
    const source = this.options.viewCheck;
    if (!source) return undefined;
    this.awaitingAnswer.add(row.recordId);
    try {
      const maxAge = this.options.viewAnswerMaxAgeMs ?? VIEW_ANSWER_MAX_AGE_MS;
      for (;;) {
        const answer = this.answer;
        if (answer) {
          // As soon as the row has come (or the read ended without it: then by GET, as a row the answer
          // does not hold, or all of them when the read could not be had).
          const copy = answer.wanted.has(row.recordId) ? await answer.copyOf(row.recordId) : undefined;
          if (copy === undefined) return undefined;
          if (this.now() - answer.readAt <= maxAge) return checkAgainstView(this.changeSet.columns, row, copy);
          // A read that takes most of the age allowed cannot bring a copy young enough: GETs instead.
          if (answer.reading || answer.tookMs * 2 > maxAge) return undefined;
          // Another worker began a newer read while this one waited: that one is awaited.
          if (this.answer !== answer) continue;
        }
        // Counted, not listed: every row asks, and a list of the rows left per row was quadratic in a big save.
        const changedRows = this.awaitingAnswer.size + this.notBegun.count();
        if (!shouldReadView({ changedRows, viewRows: source.viewRows, roundTripMs: source.roundTripMs(), concurrency: this.concurrency }))
          return undefined;
        const wanted = new Set([...this.awaitingAnswer, ...this.notBegun.ids()]);
        this.answer = new ViewAnswer(wanted);
        // Not awaited here: the rows' checks wait on the answer's copies, the read ends it however it goes,
        // and finish() stops and awaits it.
        const read = this.readView(source, this.answer);
        this.reads.add(read);
        void read.finally(() => this.reads.delete(read)); // readView never rejects
      }
    } finally {
      this.awaitingAnswer.delete(row.recordId);
    }
  }

  /** One read of the view into `answer`, retried as a GET is; never rejects (the rows not brought are checked by GET). */
  private async readView(source: ViewCheckSource, answer: ViewAnswer): Promise<void> {
    const started = this.now();
    const signal = this.options.signal ? AbortSignal.any([this.options.signal, this.stopReads.signal]) : this.stopReads.signal;
    try {
      await withRetries(
        async () => {
          answer.began(this.now());
          this.onViewRows(0);
          const copies = await source.read(
            answer.wanted,
            signal,
            (rowsRead) => this.onViewRows(rowsRead),
            (recordId, copy) => answer.take(recordId, copy),
          );
          for (const [recordId, copy] of copies) if (!answer.copies.has(recordId)) answer.take(recordId, copy);
        },
        { ...this.retrying, signal },
      );
    } catch {
      // Cancelled, or the read could not be had: its rows' checks go on by GET (where a cancel stops them).
    } finally {
      answer.end(this.now() - started);
      this.onViewRows(undefined);
    }
  }

  /** Every row is done: a view read still on its way is stopped, and its end awaited (no progress after the save). */
  async finish(): Promise<void> {
    this.stopReads.abort();
    await Promise.all([...this.reads]);
  }

  private saved(row: RowToSave, portalCopy: Readonly<RecordData>, sent: RecordData): RowOutcome {
    // What the grid shows now: an undo (or a cell typed back) while the update was on its way may have put
    // back a value other than the one sent; it is the person's last word, so it stays pending.
    const live = Object.keys(sent).map((field) => ({ recordId: row.recordId, field, value: this.changeSet.value(row.recordId, field) }));
    // The portal's copy now is the one read for the check with my fields on top.
    const base = { ...portalCopy, ...sent };
    this.changeSet.rebase(row.recordId, base);
    this.changeSet.keepAgainst(
      base,
      live.filter((cell) => cell.value !== (base[cell.field] ?? '')),
    );
    return { recordId: row.recordId, kind: 'saved', sent, portalCopy };
  }
}

/** What the grid says of a save (GridModel.afterSave). */
export interface SaveSummary {
  /** Rows saved, new rows created among them. */
  readonly saved: number;
  /** New rows created (counted in `saved` too). */
  readonly created: number;
  readonly conflicts: number;
  readonly failed: number;
  readonly deleted: number;
  readonly blocked: number;
  readonly cancelled: number;
  /**
   * Rows still pending for none of the reasons above: typed into while the save ran. They keep the tab
   * dirty (VS Code marks every edit up to the save's end as saved when the save succeeds).
   */
  readonly unsent: number;
}

/**
 * Saves every row of the change set that has pending edits and no invalid cell. Saved rows take the
 * portal's copy and leave the change set (edits typed meanwhile stay pending); conflicts and deleted rows
 * are marked changed on the portal with their edits kept; failed and cancelled rows keep their edits.
 */
export async function saveChanges(changeSet: ChangeSet, store: AppRecords, options: SaveOptions = {}): Promise<SaveReport> {
  const blocked = changeSet
    .rows()
    .filter((row) => row.problems.size > 0)
    .map((row) => row.recordId);
  // A snapshot: edits typed while the save runs are not sent now, and are not lost either.
  const rows: Array<RowToSave & { isNew: boolean }> = changeSet
    .savableRows()
    .map((row) => ({ recordId: row.recordId, asRead: row.asRead, edits: new Map(row.edits), isNew: row.isNew }));
  const outcomes: RowOutcome[] = new Array(rows.length);
  const progress = { total: rows.length, done: 0, saved: 0, conflicts: 0, failed: 0 };
  let next = 0;
  let existingLeft = rows.filter((row) => !row.isNew).length;
  const notBegun = { count: () => existingLeft, ids: () => rows.slice(next).flatMap((row) => (row.isNew ? [] : [row.recordId])) };
  // While the view is read for the check, every report says how far (rows are saved meanwhile).
  let viewRowsRead: number | undefined;
  const report = (): void => options.onProgress?.(viewRowsRead === undefined ? { ...progress } : { ...progress, viewRowsRead });
  const onViewRows = (rowsRead: number | undefined): void => {
    viewRowsRead = rowsRead;
    report();
  };
  const runner = new Runner(changeSet, store, options, notBegun, onViewRows);
  const worker = async (): Promise<void> => {
    while (next < rows.length) {
      const index = next++;
      const row = rows[index];
      if (!row.isNew) existingLeft -= 1;
      const outcome = options.signal?.aborted
        ? ({ recordId: row.recordId, kind: 'cancelled' } as const)
        : row.isNew
          ? await runner.createRow(row)
          : await runner.saveRow(row);
      outcomes[index] = outcome;
      settle(changeSet, outcome);
      progress.done += 1;
      if (outcome.kind === 'saved' || outcome.kind === 'created') progress.saved += 1;
      else if (outcome.kind === 'conflict' || outcome.kind === 'deleted') progress.conflicts += 1;
      else if (outcome.kind === 'failed') progress.failed += 1;
      report();
    }
  };
  const concurrency = Math.max(1, Math.min(options.concurrency ?? options.limiter?.maxInFlight ?? 4, rows.length));
  await Promise.all(Array.from({ length: concurrency }, worker));
  await runner.finish();
  return { outcomes, blocked };
}

function settle(changeSet: ChangeSet, outcome: RowOutcome): void {
  switch (outcome.kind) {
    case 'created':
      changeSet.created(outcome.recordId, outcome.created, outcome.copy, outcome.sent);
      break;
    case 'conflict':
      changeSet.portalChanged(outcome.recordId, outcome.conflict.portalCopy);
      break;
    case 'deleted':
      changeSet.portalChanged(outcome.recordId, 'deleted');
      break;
    case 'failed':
      changeSet.saveFailed(outcome.recordId, outcome.reason);
      break;
    default:
      break;
  }
}

/** The grid's view on its portal, as the grid shows it (its filters); `drafts`: new rows are created as drafts. */
export interface SavePortal {
  readonly client: PortalClient;
  /** The portal's limiter, which the client's requests pass (PortalService.limiter). */
  readonly limiter: PortalLimiter;
  readonly appId: string;
  readonly viewId: string;
  readonly filters: readonly ViewFilter[];
  readonly drafts: boolean;
  /** Where the store offers the copies the save reads and writes (Record History). */
  readonly history?: VersionSource;
}

/** What a grid's save runs with on its portal: the app's records, and the check against the grid's view (`viewRows` rows). */
export function savingOn(portal: SavePortal, viewRows: number): { store: AppRecords; options: SaveOptions } {
  const filters = [...portal.filters];
  const viewCheck: ViewCheckSource = {
    viewRows,
    roundTripMs: () => portal.client.roundTripMs,
    read: (wanted, signal, onRows, onCopy) =>
      readViewCopies(portal.client, { appId: portal.appId, viewId: portal.viewId, filters }, wanted, signal, onRows, {
        onCopy,
        batches: CHECK_BATCHES,
      }),
  };
  const store = appRecords(portal.client, portal.appId, { draft: portal.drafts, history: portal.history });
  return { store, options: { limiter: portal.limiter, viewCheck } };
}
