// The rows of a view kept compactly: the answer's own bytes, copied into blocks of 1 MB as they arrive,
// and two numbers per row (where its JSON object starts and ends). No object per row or per field is kept:
// a million-row view (~250 MB of JSON) costs about its size plus 16 bytes a row, and a row becomes a
// ViewRow only when something asks for it (the grid's rows in sight, a sort key, an export line).
// `release()` gives the memory back; the store is unusable afterwards.
import { viewRowOf, type ViewRow } from './answers';
import type { ViewMetadataEntry } from './types';

const BLOCK_BYTES = 1024 * 1024;
const INITIAL_ROWS = 1024;

export class RowStore {
  /** Blocks of body bytes; block i holds the body's bytes [i * BLOCK_BYTES, (i + 1) * BLOCK_BYTES). */
  private blocks: Buffer[] = [];
  private written = 0;
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
    return this.blocks.length * BLOCK_BYTES + this.starts.byteLength + this.ends.byteLength;
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
      const offset = this.written % BLOCK_BYTES;
      if (offset === 0) this.blocks.push(Buffer.allocUnsafeSlow(BLOCK_BYTES));
      const block = this.blocks[this.blocks.length - 1];
      const take = Math.min(BLOCK_BYTES - offset, piece.length - at);
      block.set(piece.subarray(at, at + take), offset);
      at += take;
      this.written += take;
    }
  }

  /** Records a row: the JSON object at body bytes [start, end). */
  addRow(start: number, end: number): void {
    this.assertLive();
    if (this.count === this.starts.length) {
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
    const first = Math.floor(start / BLOCK_BYTES);
    const last = Math.floor((end - 1) / BLOCK_BYTES);
    if (first === last) return this.blocks[first].toString('utf8', start - first * BLOCK_BYTES, end - first * BLOCK_BYTES);
    const parts: Buffer[] = [];
    for (let block = first; block <= last; block += 1) {
      const from = block === first ? start - block * BLOCK_BYTES : 0;
      const to = block === last ? end - block * BLOCK_BYTES : BLOCK_BYTES;
      parts.push(this.blocks[block].subarray(from, to));
    }
    return Buffer.concat(parts).toString('utf8');
  }

  /** Row `index` as the portal sent it, parsed now (a few microseconds). */
  raw(index: number): unknown {
    this.assertIndex(index);
    return JSON.parse(this.text(this.starts[index], this.ends[index]));
  }

  /** Row `index`, normalised as every reader of views does it (answers.ts). */
  row(index: number): ViewRow {
    return viewRowOf(this.raw(index), index, this.keysAreColumns, this.action);
  }

  /** Rows [start, end) (clamped), in order. */
  *rows(start = 0, end = this.count): Generator<ViewRow> {
    for (let index = Math.max(0, start); index < Math.min(end, this.count); index += 1) yield this.row(index);
  }

  /** Frees the bytes; the store cannot be read any more. */
  release(): void {
    this.released = true;
    this.blocks = [];
    this.starts = new Float64Array(0);
    this.ends = new Float64Array(0);
    this.count = 0;
    this.written = 0;
  }

  get isReleased(): boolean {
    return this.released;
  }

  private assertIndex(index: number): void {
    if (!Number.isInteger(index) || index < 0 || index >= this.count) throw new RangeError(`No row ${index}: the view has ${this.count} rows.`);
  }

  private assertLive(): void {
    if (this.released) throw new Error('The rows of this view were released.');
  }
}

function grow(array: Float64Array): Float64Array {
  const bigger = new Float64Array(array.length * 2);
  bigger.set(array);
  return bigger;
}
