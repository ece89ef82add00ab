// The save's conflict check of many rows at once: one read of the grid's view (the same view and filters
// the grid shows) instead of one GET per row. The portal's API reads many records only through a view, and
// the grid's rows came from that same view, so its answer carries the rows with the same keys and the same
// values as the grid's copies: compared by the same rules (checkRow) it finds the same conflicts.
//
// When it is worth it: the GETs of n rows, c at once, take ceil(n / c) round trips to the portal (each
// worker's GET waits before its update); the view read takes one round trip plus the time its rows take
// to arrive and be read. The round trip is the client's recent one (PortalClient.roundTripMs), so the rule
// follows the portal's distance: next door a GET is cheap and a big view is not worth reading for a few
// rows; 200 ms away every round of GETs costs what thousands of view rows do. A few rows (no more than run
// at once) take one round of GETs, as fast as the view read: they keep the GET, which reads whole records.
//
// A row the answer cannot vouch for is checked by its own GET, exactly as before: one the answer does not
// hold (deleted, in trash, moved out of the filters, or a pending row the grid keeps in sight that the view
// does not show), and one whose copy in the answer lacks a field the check needs (a field it changed, or a
// writable field it was read with: e.g. one a GET of an earlier save brought in that the view does not
// show). A comparison over fewer fields could miss a conflict the GET would find.
//
// What it cannot change: the portal has no version or ETag, so no check is atomic with its update; a
// copy's age when its row is sent is what a check can bound. A GET's copy is one round trip old (more
// after a 429's wait); a view's answer is used for the rows begun within viewAnswerMaxAgeMs of its read,
// and the rows left after that are checked by a newer read (or by GETs, when few are left).
// Pure, but for readViewCopies (a read through the portal client).
import { isWritable } from '../../api/columnKinds';
import type { ViewFilter } from '../../api/filters';
import type { Column, RecordData } from '../../api/types';
import type { ViewStreamOptions, ViewStreamResult } from '../../api/viewStream';
import { checkRow, type RowToSave, type SaveCheck } from './conflicts';

/**
 * What one row of a view's answer costs to receive and read (ms): about 250 bytes. The gridSave bench
 * measures 5-13 µs a row next door (more when the machine is busy); counting 20 keeps a GET per row where
 * the portal is near and a busy machine makes every round trip look long.
 */
export const VIEW_ROW_MS = 0.02;
/** The round trip assumed before the client has timed one. */
export const DEFAULT_ROUND_TRIP_MS = 50;

export interface ViewReadCosts {
  /** Changed rows to check (existing records; new rows are created, not checked). */
  readonly changedRows: number;
  /** Rows the view read would bring: the rows the grid shows. */
  readonly viewRows: number;
  /** The client's recent round trip; DEFAULT_ROUND_TRIP_MS when unknown. */
  readonly roundTripMs: number | undefined;
  /** GETs sent at once. */
  readonly concurrency: number;
}

/** Whether the changed rows are checked with one read of the view rather than a GET each: when their GETs would take longer. */
export function shouldReadView({ changedRows, viewRows, roundTripMs, concurrency }: ViewReadCosts): boolean {
  const roundTrip = roundTripMs ?? DEFAULT_ROUND_TRIP_MS;
  const gets = Math.ceil(changedRows / Math.max(1, concurrency)) * roundTrip;
  const view = roundTrip + viewRows * VIEW_ROW_MS;
  return gets > view;
}

/**
 * The check of `row` against its copy in the view's answer, by checkRow's rules; undefined when the answer
 * cannot vouch for it (no copy, or a copy without a field the check needs): the row is then checked by GET.
 */
export function checkAgainstView(
  columns: readonly Column[],
  row: RowToSave,
  copy: Readonly<RecordData> | undefined,
): SaveCheck | undefined {
  if (copy === undefined) return undefined;
  for (const column of columns) {
    const field = column.field_id_in_data;
    if (copy[field] !== undefined) continue;
    if (row.edits.has(field)) return undefined;
    if (isWritable(column) && row.asRead[field] !== undefined) return undefined;
  }
  return checkRow(columns, row, copy);
}

/** The grid's view, as the save's check reads it. */
export interface ViewCheckSource {
  /** The rows the grid shows (the row count it already knows): the size of the read. */
  readonly viewRows: number;
  /** The client's recent round trip to the portal (ms), undefined when it has timed none. */
  roundTripMs(): number | undefined;
  /**
   * Reads the view once; the copies of the `wanted` records it holds, by record id (others are left out
   * as they arrive: memory for the rows wanted only). `onRows` says how many rows were read so far;
   * `onCopy`, when given, takes each wanted copy as soon as its row has come.
   */
  read(
    wanted: ReadonlySet<string>,
    signal: AbortSignal | undefined,
    onRows: (rowsRead: number) => void,
    onCopy?: (recordId: string, copy: RecordData) => void,
  ): Promise<Map<string, RecordData>>;
}

/**
 * One read of the view for the save's check, as its rows arrive: a row can be compared with its copy (and
 * sent) as soon as that copy has come, while the rest of the answer is on its way. Far from the portal the
 * read and the updates then overlap instead of following each other.
 */
export class ViewAnswer {
  readonly copies = new Map<string, RecordData>();
  /** When the read's first attempt began: every copy is at least this recent (NaN before it began). */
  readAt = Number.NaN;
  /** How long the read took, once it has ended. */
  tookMs = 0;
  private ended = false;
  private readonly waiting = new Map<string, Array<() => void>>();

  constructor(readonly wanted: ReadonlySet<string>) {}

  get reading(): boolean {
    return !this.ended;
  }

  began(now: number): void {
    if (Number.isNaN(this.readAt)) this.readAt = now;
  }

  take(recordId: string, copy: RecordData): void {
    this.copies.set(recordId, copy);
    for (const wake of this.waiting.get(recordId) ?? []) wake();
    this.waiting.delete(recordId);
  }

  /** The read is over, whether it brought every row, broke off, failed or was cancelled: nobody waits any more. */
  end(tookMs: number): void {
    this.ended = true;
    this.tookMs = tookMs;
    for (const wakes of this.waiting.values()) for (const wake of wakes) wake();
    this.waiting.clear();
  }

  /** The record's copy once its row has come; undefined when the read ended without it. */
  async copyOf(recordId: string): Promise<RecordData | undefined> {
    if (!this.copies.has(recordId) && !this.ended) {
      await new Promise<void>((resolve) => this.waiting.set(recordId, [...(this.waiting.get(recordId) ?? []), resolve]));
    }
    return this.copies.get(recordId);
  }
}

/** How the check's read hands its rows over: small batches, so that the first rows' updates start early. */
export const CHECK_BATCHES = { firstBatchRows: 50, batchRows: 500 };

/** What readViewCopies needs of the portal client. */
export interface ViewStreamSource {
  streamView(appId: string, viewId: string, filters: readonly ViewFilter[], options: ViewStreamOptions): Promise<ViewStreamResult>;
}

/**
 * The view read for the check: the copies of the `wanted` rows, as the grid holds its rows (the same read,
 * streamView, and the same rows). An answer that broke off midway still vouches for the rows it brought;
 * the others are checked by GET.
 */
export async function readViewCopies(
  source: ViewStreamSource,
  view: { readonly appId: string; readonly viewId: string; readonly filters: readonly ViewFilter[] },
  wanted: ReadonlySet<string>,
  signal: AbortSignal | undefined,
  onRows: (rowsRead: number) => void,
  {
    onCopy,
    batches,
  }: { onCopy?: (recordId: string, copy: RecordData) => void; batches?: { firstBatchRows: number; batchRows: number } } = {},
): Promise<Map<string, RecordData>> {
  const copies = new Map<string, RecordData>();
  const result = await source.streamView(view.appId, view.viewId, view.filters, {
    signal,
    ...batches,
    onBatch: ({ rows, from, to }) => {
      for (const row of rows.rows(from, to)) {
        if (row.id === undefined || !wanted.has(row.id)) continue;
        copies.set(row.id, row.values);
        onCopy?.(row.id, row.values);
      }
      onRows(to);
    },
  });
  result.rows.release();
  return copies;
}
