// What a watched view keeps between two reads, and how a read is compared with the last: per row its record
// id and a 64-bit hash of the row's JSON bytes as the portal sent them (two 32-bit lanes), sorted by id, in
// typed arrays: 16 bytes a row and no object per row, so a 100,000-row view costs 1.6 MB between reads
// however wide its rows. Comparing parses no row: the id is found by a byte walk of the row's top-level keys,
// the hash by one pass over its bytes. Two reads are merged by id in one pass.
//
// The portal's record ids are positive integers (kept exactly in a Float64Array); a row whose id is not one
// is kept beside them in a Map by its text (none on the portals seen so far), and a row without an id cannot
// be followed, so it is left out.
import type { RowStore } from '../api/rowStore';

export type RowChangeKind = 'new' | 'changed' | 'removed';

export interface RowChange {
  readonly kind: RowChangeKind;
  readonly recordId: string;
  /** The row's index in the new read (new and changed rows). */
  readonly index?: number;
}

/** A read as kept between reads: ids ascending, each with its row's two hash lanes. */
export class ViewDigest {
  private constructor(
    /** Record ids, ascending. */
    readonly ids: Float64Array,
    /** Two lanes per id: hashes[2i], hashes[2i + 1]. */
    readonly hashes: Uint32Array,
    /** Rows whose id is not a positive integer: id text to its two lanes. */
    readonly others: ReadonlyMap<string, readonly [number, number]>,
  ) {}

  static readonly empty = new ViewDigest(new Float64Array(0), new Uint32Array(0), new Map());

  /** Rows followed. */
  get length(): number {
    return this.ids.length + this.others.size;
  }

  /** Bytes held between reads (the typed arrays; the Map of other ids is counted at 16 bytes an entry too). */
  get heldBytes(): number {
    return this.ids.byteLength + this.hashes.byteLength + this.others.size * 16;
  }

  /**
   * The digest of `rows` and what changed since `previous` (undefined: the first read, nothing is reported).
   * The rows' order in the view does not count: a row moved by the view's sort is not a change.
   */
  static compare(previous: ViewDigest | undefined, rows: RowStore): { digest: ViewDigest; changes: RowChange[] } {
    const count = rows.length;
    const ids = new Float64Array(count);
    const lanes = new Uint32Array(count * 2);
    const others = new Map<string, readonly [number, number]>();
    const otherIndex = new Map<string, number>();
    let kept = 0;
    for (let index = 0; index < count; index += 1) {
      const bytes = rows.rowBytes(index);
      const id = rowId(bytes);
      if (id === undefined) continue;
      const low = hashRow(bytes);
      const high = laneHigh;
      if (typeof id === 'number') {
        ids[kept] = id;
        lanes[kept * 2] = low;
        lanes[kept * 2 + 1] = high;
        // The row's index rides in the sort below and is dropped with it: it is not kept between reads.
        kept += 1;
        order.push(index);
      } else {
        others.set(id, [low, high]);
        otherIndex.set(id, index);
      }
    }
    const sorted = sortById(ids.subarray(0, kept), lanes, order.take());
    const digest = new ViewDigest(sorted.ids, sorted.lanes, others);
    return { digest, changes: previous === undefined ? [] : diff(previous, digest, sorted.rowIndex, otherIndex) };
  }
}

/** The rows' indexes while a digest is built (one buffer reused, so building allocates no array per read). */
const order = {
  buffer: new Uint32Array(1024),
  length: 0,
  push(index: number): void {
    if (this.length === this.buffer.length) {
      const bigger = new Uint32Array(this.buffer.length * 2);
      bigger.set(this.buffer);
      this.buffer = bigger;
    }
    this.buffer[this.length] = index;
    this.length += 1;
  },
  take(): Uint32Array {
    const taken = this.buffer.slice(0, this.length);
    this.length = 0;
    return taken;
  },
};

/** Sorts ids ascending with their lanes and row indexes; an id seen twice keeps one entry, its lanes mixed. */
function sortById(
  ids: Float64Array,
  lanes: Uint32Array,
  rowIndex: Uint32Array,
): { ids: Float64Array; lanes: Uint32Array; rowIndex: Uint32Array } {
  const count = ids.length;
  const permutation = new Uint32Array(count);
  let ascending = true;
  for (let at = 0; at < count; at += 1) {
    permutation[at] = at;
    if (at > 0 && ids[at] <= ids[at - 1]) ascending = false;
  }
  // Most views come sorted by id already: then no sort and no copy.
  if (ascending) return { ids: ids.slice(), lanes: lanes.slice(0, count * 2), rowIndex };
  permutation.sort((a, b) => ids[a] - ids[b]);
  const outIds = new Float64Array(count);
  const outLanes = new Uint32Array(count * 2);
  const outRows = new Uint32Array(count);
  let kept = 0;
  for (let at = 0; at < count; at += 1) {
    const from = permutation[at];
    if (kept > 0 && outIds[kept - 1] === ids[from]) {
      // A view that lists a record twice: either copy changing is a change of the record.
      outLanes[(kept - 1) * 2] = Math.imul(outLanes[(kept - 1) * 2] ^ lanes[from * 2], 0x01000193) >>> 0;
      outLanes[(kept - 1) * 2 + 1] = Math.imul(outLanes[(kept - 1) * 2 + 1] ^ lanes[from * 2 + 1], 0x5bd1e995) >>> 0;
      continue;
    }
    outIds[kept] = ids[from];
    outLanes[kept * 2] = lanes[from * 2];
    outLanes[kept * 2 + 1] = lanes[from * 2 + 1];
    outRows[kept] = rowIndex[from];
    kept += 1;
  }
  return { ids: outIds.slice(0, kept), lanes: outLanes.slice(0, kept * 2), rowIndex: outRows.subarray(0, kept) };
}

function diff(a: ViewDigest, b: ViewDigest, rowIndex: Uint32Array, otherIndex: ReadonlyMap<string, number>): RowChange[] {
  const changes: RowChange[] = [];
  let i = 0;
  let j = 0;
  while (i < a.ids.length || j < b.ids.length) {
    if (j >= b.ids.length || (i < a.ids.length && a.ids[i] < b.ids[j])) {
      changes.push({ kind: 'removed', recordId: String(a.ids[i]) });
      i += 1;
    } else if (i >= a.ids.length || b.ids[j] < a.ids[i]) {
      changes.push({ kind: 'new', recordId: String(b.ids[j]), index: rowIndex[j] });
      j += 1;
    } else {
      if (a.hashes[i * 2] !== b.hashes[j * 2] || a.hashes[i * 2 + 1] !== b.hashes[j * 2 + 1])
        changes.push({ kind: 'changed', recordId: String(b.ids[j]), index: rowIndex[j] });
      i += 1;
      j += 1;
    }
  }
  for (const [id, lanes] of b.others) {
    const old = a.others.get(id);
    const index = otherIndex.get(id);
    if (old === undefined) changes.push({ kind: 'new', recordId: id, index });
    else if (old[0] !== lanes[0] || old[1] !== lanes[1]) changes.push({ kind: 'changed', recordId: id, index });
  }
  for (const id of a.others.keys()) if (!b.others.has(id)) changes.push({ kind: 'removed', recordId: id });
  return changes;
}

/** The second lane of the last hashRow() (returned beside the first without an array per row). */
let laneHigh = 0;

/**
 * Two independent 32-bit hashes of the bytes in one pass: FNV-1a, and MurmurHash2's mix byte by byte with a
 * length seed. Returns the first; the second is left in laneHigh.
 */
function hashRow(bytes: Uint8Array): number {
  let low = 0x811c9dc5;
  let high = bytes.length ^ 0x9747b28c;
  for (let at = 0; at < bytes.length; at += 1) {
    const byte = bytes[at];
    low = Math.imul(low ^ byte, 0x01000193);
    high = Math.imul(high ^ byte, 0x5bd1e995);
    high ^= high >>> 15;
  }
  laneHigh = high >>> 0;
  return low >>> 0;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;

/**
 * The row's record id, from its top-level "id" key (else "record_id", as answers.ts reads rows): a number
 * when it is a positive integer (as a string or a number), else its text; undefined when the row has none.
 * The bytes are checked JSON (rowBoundaries.ts), so the walk only has to skip values, not check them.
 */
export function rowId(bytes: Uint8Array): number | string | undefined {
  let recordId: number | string | undefined;
  let at = skipSpace(bytes, 0);
  if (bytes[at] !== 0x7b) return undefined;
  at += 1;
  for (;;) {
    at = skipSpace(bytes, at);
    if (bytes[at] !== QUOTE) return recordId;
    const keyStart = at + 1;
    const keyEnd = stringEnd(bytes, at);
    at = skipSpace(bytes, keyEnd + 1);
    if (bytes[at] !== COLON) return recordId;
    at = skipSpace(bytes, at + 1);
    const valueStart = at;
    at = valueEnd(bytes, at);
    const key = keyOf(bytes, keyStart, keyEnd);
    if (key === 'id') return idOf(bytes, valueStart, at);
    if (key === 'record_id') recordId = idOf(bytes, valueStart, at);
    at = skipSpace(bytes, at);
    if (bytes[at] !== COMMA) return recordId;
    at += 1;
  }
}

function keyOf(bytes: Uint8Array, start: number, end: number): 'id' | 'record_id' | undefined {
  const length = end - start;
  if (length === 2 && bytes[start] === 0x69 && bytes[start + 1] === 0x64) return 'id';
  if (length === 9 && Buffer.from(bytes.buffer, bytes.byteOffset + start, 9).toString('latin1') === 'record_id') return 'record_id';
  return undefined;
}

function idOf(bytes: Uint8Array, start: number, end: number): number | string | undefined {
  const quoted = bytes[start] === QUOTE;
  const from = quoted ? start + 1 : start;
  const to = quoted ? end - 1 : end;
  let value = 0;
  let digits = true;
  for (let at = from; at < to; at += 1) {
    const digit = bytes[at] - 0x30;
    if (digit < 0 || digit > 9) {
      digits = false;
      break;
    }
    value = value * 10 + digit;
  }
  if (digits && to > from && bytes[from] !== 0x30 && Number.isSafeInteger(value)) return value;
  const text = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('utf8')) as unknown;
  if (typeof text === 'string' && text !== '') return text;
  if (typeof text === 'number') return String(text);
  return undefined;
}

function skipSpace(bytes: Uint8Array, at: number): number {
  while (at < bytes.length && (bytes[at] === 0x20 || bytes[at] === 0x0a || bytes[at] === 0x0d || bytes[at] === 0x09)) at += 1;
  return at;
}

/** The index of the quote that closes the string opening at `at`. */
function stringEnd(bytes: Uint8Array, at: number): number {
  for (let next = at + 1; next < bytes.length; next += 1) {
    if (bytes[next] === BACKSLASH) next += 1;
    else if (bytes[next] === QUOTE) return next;
  }
  return bytes.length;
}

/** Where the value starting at `at` ends (exclusive). */
function valueEnd(bytes: Uint8Array, at: number): number {
  if (bytes[at] === QUOTE) return stringEnd(bytes, at) + 1;
  let depth = 0;
  for (let next = at; next < bytes.length; next += 1) {
    const byte = bytes[next];
    if (byte === QUOTE) next = stringEnd(bytes, next);
    else if (byte === 0x7b || byte === 0x5b) depth += 1;
    else if (byte === 0x7d || byte === 0x5d) {
      if (depth === 0) return next;
      depth -= 1;
      if (depth === 0) return next + 1;
    } else if (depth === 0 && (byte === COMMA || byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09)) return next;
  }
  return bytes.length;
}
