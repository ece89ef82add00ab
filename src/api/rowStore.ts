// The rows of a view kept compactly: the answer's own bytes, copied into blocks as they arrive (16 KB
// first, doubling up to 1 MB, so a small view does not hold a megabyte),
// and two numbers per row (where its JSON object starts and ends). No object per row or per field is kept:
// a million-row view (~250 MB of JSON) costs about its size plus 16 bytes a row, and a row becomes a
// ViewRow only when something asks for it (the grid's rows in sight, a sort key, an export line).
// `release()` gives the memory back; the store is unusable afterwards.
import { viewRowOf, type ViewRow } from './answers';
import { invalidResponse } from './http';
import type { ViewMetadataEntry } from './types';

const FIRST_BLOCK_BYTES = 16 * 1024;
const BLOCK_BYTES = 1024 * 1024;
const INITIAL_ROWS = 256;

export class RowStore {
  /** Blocks of body bytes, in order; block i holds the body's bytes from blockStarts[i] on. */
  private blocks: Buffer[] = [];
  private blockStarts: number[] = [];
  private written = 0;
  /** Bytes of the blocks allocated so far. */
  private capacity = 0;
  private starts: Float64Array = new Float64Array(INITIAL_ROWS);
  private ends: Float64Array = new Float64Array(INITIAL_ROWS);
  private count = 0;
  private released = false;
  /** The view's metadata, once it has arrived (it follows the rows in the portal's answer). */
  metadata: ViewMetadataEntry[] | undefined;
  /** Whether id, record_id and draft are columns (the metadata says so); until it arrives, they are not. */
  keysAreColumns = false;

  constructor(private readonly action = 'Reading the view') {}

  get length(): number {
    return this.count;
  }

  /** Bytes held for the rows (whole blocks), plus the row offsets. */
  get heldBytes(): number {
    return this.capacity + this.starts.byteLength + this.ends.byteLength;
  }

  /** Bytes of the answer received so far. */
  get receivedBytes(): number {
    return this.written;
  }

  /** Appends the next piece of the answer's bytes (copied: the piece may be a view of a bigger buffer). */
  appendBytes(piece: Uint8Array): void {
    this.assertLive();
    let at = 0;
    while (at < piece.length) {
      if (this.written === this.capacity) {
        const size = Math.min(BLOCK_BYTES, this.blocks.length === 0 ? FIRST_BLOCK_BYTES : this.blocks[this.blocks.length - 1].length * 2);
        this.blocks.push(Buffer.allocUnsafeSlow(size));
        this.blockStarts.push(this.capacity);
        this.capacity += size;
      }
      const last = this.blocks.length - 1;
      const offset = this.written - this.blockStarts[last];
      const take = Math.min(this.blocks[last].length - offset, piece.length - at);
      this.blocks[last].set(piece.subarray(at, at + take), offset);
      at += take;
      this.written += take;
    }
  }

  /** Records a row: the JSON object at body bytes [start, end). */
  addRow(start: number, end: number): void {
    this.assertLive();
    if (this.count >= this.starts.length) {
      this.starts = grow(this.starts);
      this.ends = grow(this.ends);
    }
    this.starts[this.count] = start;
    this.ends[this.count] = end;
    this.count += 1;
  }

  /** The JSON text of the answer's bytes [start, end). */
  text(start: number, end: number): string {
    this.assertLive();
    const first = this.blockAt(start);
    const last = this.blockAt(end - 1);
    const base = this.blockStarts[first];
    if (first === last) return this.blocks[first].toString('utf8', start - base, end - base);
    const parts: Buffer[] = [];
    for (let block = first; block <= last; block += 1) {
      const from = block === first ? start - base : 0;
      const to = block === last ? end - this.blockStarts[block] : this.blocks[block].length;
      parts.push(this.blocks[block].subarray(from, to));
    }
    return Buffer.concat(parts).toString('utf8');
  }

  /**
   * Row `index`'s JSON bytes, unparsed (a view of the block when the row lies in one, else a copy): what a
   * watched read hashes, so comparing two reads parses no row.
   */
  rowBytes(index: number): Uint8Array {
    this.assertIndex(index);
    const start = this.starts[index];
    const end = this.ends[index];
    const first = this.blockAt(start);
    const base = this.blockStarts[first];
    if (end - base <= this.blocks[first].length) return this.blocks[first].subarray(start - base, end - base);
    const parts: Buffer[] = [];
    for (let block = first, at = start; at < end; block += 1) {
      const from = at - this.blockStarts[block];
      const to = Math.min(this.blocks[block].length, end - this.blockStarts[block]);
      parts.push(this.blocks[block].subarray(from, to));
      at += to - from;
    }
    return Buffer.concat(parts);
  }

  /** The block holding body byte `at` (binary search: blocks grow, then are all 1 MB). */
  private blockAt(at: number): number {
    let low = 0;
    let high = this.blocks.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (this.blockStarts[middle] <= at) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  /** Row `index` as the portal sent it, parsed now (a few microseconds); a row that is not JSON is refused. */
  raw(index: number): unknown {
    this.assertIndex(index);
    try {
      return JSON.parse(this.text(this.starts[index], this.ends[index]));
    } catch (error) {
      // The read checked the row's JSON (rowBoundaries.ts); a store filled by hand has had no such check.
      throw invalidResponse(this.action, `row ${index + 1} is not JSON (${error instanceof Error ? error.message : String(error)}).`);
    }
  }

  /** Row `index`, normalised as every reader of views does it (answers.ts). */
  row(index: number): ViewRow {
    return viewRowOf(this.raw(index), index, this.keysAreColumns, this.action);
  }

  /** Rows [start, end) (clamped), in order. */
  *rows(start = 0, end = this.count): Generator<ViewRow> {
    for (let index = Math.max(0, start); index < Math.min(end, this.count); index += 1) yield this.row(index);
  }

  /** The answer is over: the last block and the offsets shrink to what they hold. */
  seal(): void {
    if (this.released) return;
    const last = this.blocks.length - 1;
    if (last >= 0) {
      const used = this.written - this.blockStarts[last];
      if (used < this.blocks[last].length) {
        const exact = Buffer.allocUnsafeSlow(used);
        this.blocks[last].copy(exact, 0, 0, used);
        this.blocks[last] = exact;
        this.capacity = this.written;
      }
    }
    this.starts = this.starts.slice(0, this.count);
    this.ends = this.ends.slice(0, this.count);
  }

  /** Frees the bytes; the store cannot be read any more. */
  release(): void {
    this.released = true;
    this.blocks = [];
    this.blockStarts = [];
    this.capacity = 0;
    this.starts = new Float64Array(0);
    this.ends = new Float64Array(0);
    this.count = 0;
    this.written = 0;
  }

  get isReleased(): boolean {
    return this.released;
  }

  private assertIndex(index: number): void {
    if (!Number.isInteger(index) || index < 0 || index >= this.count)
      throw new RangeError(`No row ${index}: the view has ${this.count} rows.`);
  }

  private assertLive(): void {
    if (this.released) throw new Error('The rows of this view were released.');
  }
}

function grow(array: Float64Array): Float64Array {
  const bigger = new Float64Array(Math.max(INITIAL_ROWS, array.length * 2));
  bigger.set(array);
  return bigger;
}
