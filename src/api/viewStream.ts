// A view's answer read as it arrives: @streamparser/json parses the bytes piece by piece and hands over
// each row of "data" and the "metadata" list, and the rows go to the caller in batches while the rest is
// still coming. The portal sends "metadata" after "data" (the documented order), so rows are normalised
// before the metadata is known: id, record_id and draft are taken out of the values, as for any portal that
// does not name them as columns; the metadata is checked once it arrives.
//
// Why a streaming parser and which: see the commit that added this file. In short, @streamparser/json
// (no dependencies, runs in node and the browser, paths such as $.data.*, keepStack false so parsed rows
// are not kept) over stream-json, which measured 7 times slower on the same 27 MB body.
import { JSONParser } from '@streamparser/json';
import { PortalError } from './errors';
import { invalidResponse } from './http';
import { viewMetadataOf, viewRowOf, type ViewRow } from './answers';
import type { ViewMetadataEntry } from './types';

export interface ViewBatch {
  rows: ViewRow[];
  /** Rows read so far, this batch included. */
  total: number;
}

export interface ViewStreamOptions {
  /** Called with each batch, in order; the next batch waits for the promise it returns. */
  onBatch: (batch: ViewBatch) => void | Promise<void>;
  signal?: AbortSignal;
  /** Rows of the first batch (sent as soon as they are parsed, so a grid paints at once); default 200. */
  firstBatchRows?: number;
  /** Rows of the later batches; default 5,000. */
  batchRows?: number;
}

export interface ViewStreamResult {
  rowsRead: number;
  /** undefined only when the answer broke off before it. */
  metadata: ViewMetadataEntry[] | undefined;
  /** Set when the answer broke off midway: the rows before it were delivered. */
  failure?: PortalError;
}

const FIRST_BATCH_ROWS = 200;
const BATCH_ROWS = 5_000;

export class ViewStreamReader {
  private pending: ViewRow[] = [];
  private count = 0;
  private delivered = 0;
  private metadata: ViewMetadataEntry[] | undefined;
  private sawData = false;
  private problem: PortalError | undefined;

  constructor(
    private readonly action: string,
    private readonly options: ViewStreamOptions,
  ) {}

  /** Rows handed to onBatch so far. */
  get rowsRead(): number {
    return this.delivered;
  }

  /** Parses the body as it arrives; throws PortalError (invalid-response) when it is not a view's answer. */
  async read(body: AsyncIterable<Uint8Array | string>): Promise<void> {
    // $.data arrives last and empty (keepStack false took its rows out as they were emitted): it says
    // that the list was there.
    const parser = new JSONParser({ paths: ['$.data.*', '$.data', '$.metadata'], keepStack: false });
    parser.onValue = ({ value, key, stack }) => {
      if (this.problem) return;
      try {
        if (stack.length === 1 && key === 'data') {
          if (!Array.isArray(value)) throw invalidResponse(this.action, 'its "data" is not a list of rows.');
          this.sawData = true;
        } else if (stack.length === 1 && key === 'metadata') {
          if (!Array.isArray(value)) throw invalidResponse(this.action, 'its "metadata" is not a list.');
          this.metadata = viewMetadataOf(value, this.action);
        } else if (stack.length === 2 && typeof key === 'number') {
          this.pending.push(viewRowOf(value, this.count, false, this.action));
          this.count += 1;
        }
      } catch (error) {
        this.problem = error instanceof PortalError ? error : invalidResponse(this.action, String(error));
      }
    };
    parser.onError = (error) => {
      this.problem ??= invalidResponse(this.action, `it is not JSON (${error.message}).`);
    };
    try {
      for await (const piece of body) {
        this.options.signal?.throwIfAborted();
        parser.write(piece);
        if (this.problem) throw this.problem;
        const wanted = this.delivered === 0 ? (this.options.firstBatchRows ?? FIRST_BATCH_ROWS) : (this.options.batchRows ?? BATCH_ROWS);
        if (this.pending.length >= wanted) await this.flush();
      }
    } catch (error) {
      // Broken off midway: the rows parsed before the break are delivered too, then the failure.
      if (!this.options.signal?.aborted) await this.flush();
      throw error;
    }
    await this.flush();
    if (this.problem) throw this.problem;
    if (!parser.isEnded) throw invalidResponse(this.action, 'it ends before the JSON does.');
    if (!this.sawData) throw invalidResponse(this.action, 'it has no "data" list of rows.');
    if (!this.metadata) throw invalidResponse(this.action, 'it has no "metadata" list.');
  }

  /** What was read; `failure` when the answer broke off (the rows before it were delivered). */
  result(failure?: unknown): ViewStreamResult {
    const problem = failure === undefined ? undefined : failure instanceof PortalError ? failure : invalidResponse(this.action, String(failure));
    return { rowsRead: this.delivered, metadata: this.metadata, ...(problem ? { failure: problem } : {}) };
  }

  private async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const rows = this.pending;
    this.pending = [];
    this.delivered += rows.length;
    await this.options.onBatch({ rows, total: this.delivered });
  }
}
