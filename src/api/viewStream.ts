// A view's answer read as it arrives. A byte loop (rowBoundaries.ts) checks that the bytes are JSON, as
// JSON.parse would, and finds the answer's outline on the way: its keys, where each row of the "data"
// list starts and ends, the "metadata" list. The bytes and those offsets go into a RowStore
// (rowStore.ts) instead of objects: a row is parsed (JSON.parse of its own few hundred bytes) only when
// someone reads it, and cannot be refused then. The "metadata" list is parsed from its bytes once it is
// complete.
//
// Before, @streamparser/json's tokenizer followed the outline and the byte loop only the rows' strings
// and brackets: it took bodies JSON.parse refuses ("[,{…}]", "[{…}{…}]", "data":[][]), which the whole
// read (readView) refused. One loop for all the answer now holds both reads to the same answers.
import { viewMetadataOf, rowKeysAreColumns } from './answers';
import { PortalError } from './errors';
import { invalidResponse } from './http';
import type { ViewMetadataEntry } from './types';
import { RowBoundaries } from './rowBoundaries';
import { RowStore } from './rowStore';

export interface ViewBatch {
  /** The store, holding every row read so far. */
  rows: RowStore;
  /** The rows [from, to) arrived since the last batch. */
  from: number;
  to: number;
  /** The answer's bytes are all in (or it broke off): no batch follows. */
  last?: true;
}

export interface ViewStreamOptions {
  /** Called with each batch, in order; reading waits for the promise it returns (back-pressure). */
  onBatch?: (batch: ViewBatch) => void | Promise<void>;
  signal?: AbortSignal;
  /**
   * Ends the read early and keeps what arrived (a user's Cancel): the answer's connection is closed, the
   * rows read so far are handed over, and the result says `stopped`. `signal` instead gives up on the read.
   */
  stop?: AbortSignal;
  /** Rows of the first batch (handed over as soon as they are read, so a grid paints at once); default 200. */
  firstBatchRows?: number;
  /** Rows of the later batches; default 5,000. */
  batchRows?: number;
}

export interface ViewStreamResult {
  rows: RowStore;
  rowsRead: number;
  /** undefined only when the answer broke off before it. */
  metadata: ViewMetadataEntry[] | undefined;
  /** Set when the answer broke off midway: the rows before it were read and handed over. */
  failure?: PortalError;
  /** Set when `stop` ended the read: the rows before it were handed over. */
  stopped?: true;
}

const FIRST_BATCH_ROWS = 200;
const BATCH_ROWS = 5_000;
/** A UTF-8 byte order mark. */
const BOM = [0xef, 0xbb, 0xbf];

export class ViewStreamReader {
  readonly rows: RowStore;
  private delivered = 0;
  /** Bytes of a byte order mark read at the answer's start; -1 once past it. */
  private bomSeen = 0;
  private problem: PortalError | undefined;
  private readonly boundaries: RowBoundaries;

  constructor(
    private readonly action: string,
    private readonly options: ViewStreamOptions = {},
  ) {
    this.rows = new RowStore(action);
    const rows = this.rows;
    this.boundaries = new RowBoundaries({
      row: (start, end) => rows.addRow(start, end),
      metadata: (start, end) => this.readMetadata(start, end),
      text: (start, end) => rows.text(start, end),
      rowCount: () => rows.length,
    });
  }

  /** Rows handed over so far. */
  get rowsRead(): number {
    return this.delivered;
  }

  /** Reads the body as it arrives; throws PortalError (invalid-response) when it is not a view's answer. */
  async read(body: AsyncIterable<Uint8Array | string>): Promise<void> {
    try {
      for await (const piece of body) {
        this.options.signal?.throwIfAborted();
        this.options.stop?.throwIfAborted();
        const bytes = this.withoutBom(typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece);
        if (this.problem) throw this.problem;
        if (bytes.length === 0) continue;
        const base = this.rows.receivedBytes;
        this.rows.appendBytes(bytes);
        this.boundaries.scan(bytes, base);
        if (this.boundaries.problem) this.fail(this.boundaries.problem);
        if (this.problem) throw this.problem;
        const wanted = this.delivered === 0 ? (this.options.firstBatchRows ?? FIRST_BATCH_ROWS) : (this.options.batchRows ?? BATCH_ROWS);
        if (this.rows.length - this.delivered >= wanted) await this.handOver();
      }
    } catch (error) {
      // Broken off midway: the rows read before the break are handed over too, then the failure.
      this.rows.seal();
      if (!this.options.signal?.aborted) await this.handOver(true);
      throw error;
    }
    this.rows.seal();
    await this.handOver(true);
    if (!this.boundaries.done) throw invalidResponse(this.action, 'it ends before the JSON does.');
    if (!this.boundaries.sawData) throw invalidResponse(this.action, 'it has no "data" list of rows.');
    if (!this.rows.metadata) throw invalidResponse(this.action, 'it has no "metadata" list.');
  }

  /**
   * `bytes` without what they hold of a UTF-8 byte order mark that begins the answer (RFC 8259 lets a
   * parser ignore it; the whole read does too: parseJsonBody). Only the start of one is no JSON.
   */
  private withoutBom(bytes: Uint8Array): Uint8Array {
    if (this.bomSeen < 0) return bytes;
    let at = 0;
    while (at < bytes.length && this.bomSeen < BOM.length && bytes[at] === BOM[this.bomSeen]) {
      at += 1;
      this.bomSeen += 1;
    }
    if (this.bomSeen === BOM.length || at < bytes.length) {
      if (this.bomSeen > 0 && this.bomSeen < BOM.length) this.fail('it is not JSON (it begins with a part of a byte order mark).');
      this.bomSeen = -1;
    }
    return bytes.subarray(at);
  }

  /** The "metadata" list is complete: its bytes [start, end) are parsed and checked. */
  private readMetadata(start: number, end: number): void {
    try {
      const metadata = viewMetadataOf(JSON.parse(this.rows.text(start, end)) as unknown[], this.action);
      this.rows.metadata = metadata;
      this.rows.keysAreColumns = rowKeysAreColumns(metadata);
    } catch (error) {
      this.problem ??= error instanceof PortalError ? error : invalidResponse(this.action, 'its "metadata" is not JSON.');
    }
  }

  /** What was read; `failure` when the answer broke off (the rows before it were handed over). */
  result(failure?: unknown): ViewStreamResult {
    const problem =
      failure === undefined ? undefined : failure instanceof PortalError ? failure : invalidResponse(this.action, String(failure));
    return { rows: this.rows, rowsRead: this.delivered, metadata: this.rows.metadata, ...(problem ? { failure: problem } : {}) };
  }

  /** What was read before `stop` ended the read. */
  stoppedResult(): ViewStreamResult {
    this.rows.seal();
    return { rows: this.rows, rowsRead: this.delivered, metadata: this.rows.metadata, stopped: true };
  }

  private fail(detail: string): void {
    this.problem ??= invalidResponse(this.action, detail);
  }

  private async handOver(last = false): Promise<void> {
    const to = this.rows.length;
    if (to === this.delivered) return;
    const from = this.delivered;
    this.delivered = to;
    await this.options.onBatch?.({ rows: this.rows, from, to, ...(last ? { last: true as const } : {}) });
  }
}
