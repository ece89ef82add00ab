// What "Go to Record…" searches: a view's records by id, title and every text column, matching as the user
// types. The searchable text of all rows is lower-cased strings (\u0001 id \u0002 title \u0002 text ...),
// so a keystroke is a few native indexOf scans rather than a loop over 100,000 rows; an offset per row
// maps a match back to its row. It is built in slices from the view's RowStore (each row parsed once), so
// the first results come while the rest is still being indexed or still arriving. A search runs in steps
// (steps()), so a caller can spread one over several turns of the event loop. No vscode.
import type { RowStore } from '../api/rowStore';

const ROW = '\u0001';
const FIELD = '\u0002';

/** Characters of a chunk of text (whole rows): a search yields after each, a few milliseconds of indexOf. */
const CHUNK_CHARS = 1 << 20;
/** Candidates checked between two yields of a narrowed search. */
const CHECK_ROWS = 2_000;
/** Rows indexed between two looks at the clock of extendFor. */
const TIMED_ROWS = 64;

/** What a search found. */
export interface IndexMatches {
  /** Store rows, in the order shown. */
  readonly rows: number[];
  /** The same as positions in the index (for narrowing a later search). */
  readonly positions: number[];
  /** Every match was found (the limit was not reached). */
  readonly exhaustive: boolean;
  /** Rows the index held when it searched. */
  readonly indexed: number;
}

export interface IndexColumns {
  /** field_id_in_data of the title column, when the view has one. */
  titleKey?: string;
  /** field_id_in_data of the other text columns searched. */
  textKeys: readonly string[];
}

/**
 * Text that only grows, kept as flat chunks of whole rows (about CHUNK_CHARS each): appending never copies
 * what is there (one long string grown by `+=` would be copied whole again at each flattening, and a
 * million rows' text is ~100 MB), and a search scans chunk by chunk.
 */
class ChunkedText {
  readonly chunks: string[] = [];
  /** Offset of each chunk's first character in the whole text. */
  readonly chunkStarts: number[] = [];
  private pending: string[] = [];
  private pendingLength = 0;
  length = 0;

  /** Appends a row's text; returns where it starts. */
  add(piece: string): number {
    const at = this.length;
    this.pending.push(piece);
    this.pendingLength += piece.length;
    this.length += piece.length;
    if (this.pendingLength >= CHUNK_CHARS) this.flush();
    return at;
  }

  /** Makes what was added searchable (a chunk, or the end of the last one while it is small). */
  flush(): void {
    if (this.pending.length === 0) return;
    const last = this.chunks.length - 1;
    // join() makes one flat string (`+` would make a tree that indexOf flattens on the next keystroke).
    if (last >= 0 && this.chunks[last].length + this.pendingLength <= CHUNK_CHARS)
      this.chunks[last] = [this.chunks[last], ...this.pending].join('');
    else {
      this.chunkStarts.push(this.length - this.pendingLength);
      this.chunks.push(this.pending.join(''));
    }
    this.pending = [];
    this.pendingLength = 0;
  }

  /** The chunk holding offset `at`. */
  chunkAt(at: number): number {
    return lastAtOrBefore(this.chunkStarts, this.chunkStarts.length, at);
  }

  /** The text [start, end), which lies within one chunk (rows are never split). */
  slice(start: number, end: number): string {
    const chunk = this.chunkAt(start);
    const base = this.chunkStarts[chunk];
    return this.chunks[chunk].slice(start - base, end - base);
  }

  /** The first offset of `needle` (which spans no two rows), or -1. */
  indexOf(needle: string): number {
    for (let chunk = 0; chunk < this.chunks.length; chunk += 1) {
      const at = this.chunks[chunk].indexOf(needle);
      if (at >= 0) return this.chunkStarts[chunk] + at;
    }
    return -1;
  }
}

export class RecordIndex {
  private readonly text = new ChunkedText();
  /** Every indexed row's id alone (\u0001 id \u0002 ...), so the exact-id check scans a short text. */
  private readonly ids = new ChunkedText();
  private idStarts: Uint32Array = new Uint32Array(1024);
  /** Where each indexed row starts in the text, and which row of the store it is. */
  private starts: Float64Array = new Float64Array(1024);
  private rowsOf: Uint32Array = new Uint32Array(1024);
  private length = 0;
  /** Rows of the store looked at so far. */
  indexed = 0;

  constructor(
    private readonly rows: RowStore,
    private readonly columns: IndexColumns,
  ) {}

  /** Whether every row the store holds now is indexed. */
  get upToDate(): boolean {
    return this.indexed >= this.rows.length;
  }

  /** Rows indexed so far (rows without an id are not). */
  get size(): number {
    return this.length;
  }

  /** Indexes up to `count` more rows of the store (rows without a record id cannot be opened: skipped). */
  extend(count = Number.POSITIVE_INFINITY): void {
    this.addRows(count);
    this.flush();
  }

  /** Indexes rows for about `ms` milliseconds (a slice of work between two turns of the event loop). */
  extendFor(ms: number): void {
    const deadline = performance.now() + ms;
    do this.addRows(TIMED_ROWS);
    while (!this.upToDate && performance.now() < deadline);
    this.flush();
  }

  private addRows(count: number): void {
    const end = Math.min(this.rows.length, this.indexed + count);
    const keys = this.columns.textKeys.filter((key) => key !== this.columns.titleKey);
    for (let index = this.indexed; index < end; index += 1) {
      const row = this.rows.row(index);
      if (row.id === undefined) continue;
      const values = row.values;
      let piece = `${ROW}${row.id}${FIELD}${this.columns.titleKey ? (values[this.columns.titleKey] ?? '') : ''}`;
      for (const key of keys) piece += FIELD + (values[key] ?? '');
      this.add(index, piece.toLowerCase(), `${ROW}${row.id.toLowerCase()}${FIELD}`);
    }
    this.indexed = end;
  }

  private flush(): void {
    this.text.flush();
    this.ids.flush();
  }

  /**
   * Up to `limit` rows (store indices) matching every word of `query`: the record whose id is the query
   * first, then the others in the view's order. An empty query gives the first rows.
   */
  search(query: string, limit: number): number[] {
    const steps = this.steps(query, limit);
    for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value.rows;
  }

  /**
   * The search in steps: it yields after each chunk of text (or CHECK_ROWS candidates), so a caller can
   * spread it over several turns of the event loop and drop it when the user types on. `prior`: every match
   * of an earlier query that this one extends (or repeats), when all were found, and how many rows were
   * indexed then: only those and the rows indexed since are looked at.
   */
  *steps(query: string, limit: number, prior?: Pick<IndexMatches, 'positions' | 'indexed'>): Generator<void, IndexMatches> {
    const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
    const length = this.length;
    if (words.length === 0) {
      const positions = Array.from({ length: Math.min(limit, length) }, (_, position) => position);
      return this.matches(positions, length <= limit, length);
    }
    const found: number[] = [];
    const exact = this.ids.indexOf(`${ROW}${words.join(' ')}${FIELD}`);
    if (exact >= 0) found.push(lastAtOrBefore(this.idStarts, length, exact));
    const rowEnd = (position: number): number => (position + 1 < length ? this.starts[position + 1] : this.text.length);
    if (prior) {
      for (let index = 0; index < prior.positions.length; index += 1) {
        if (found.length >= limit) return this.matches(found, false, length);
        const position = prior.positions[index];
        const row = this.text.slice(this.starts[position], rowEnd(position));
        if (position !== found[0] && words.every((word) => row.includes(word))) found.push(position);
        if (index % CHECK_ROWS === CHECK_ROWS - 1) yield;
      }
    }
    const fromPosition = prior?.indexed ?? 0;
    if (fromPosition >= length) return this.matches(found, found.length < limit, length);
    // The longest word is the rarest, usually: scan for it, check the others within the row it is in.
    const [first, ...others] = [...words].sort((a, b) => b.length - a.length);
    // A snapshot: rows indexed while the search runs are searched by the next one.
    const chunks = this.text.chunks.slice();
    const chunkStarts = this.text.chunkStarts.slice();
    const startOffset = this.starts[fromPosition];
    for (let chunk = this.text.chunkAt(startOffset); chunk < chunks.length; chunk += 1) {
      const text = chunks[chunk];
      const base = chunkStarts[chunk];
      for (let at = text.indexOf(first, Math.max(0, startOffset - base)); at >= 0;) {
        if (found.length >= limit) return this.matches(found, false, length);
        const position = lastAtOrBefore(this.starts, length, base + at);
        const end = rowEnd(position) - base;
        // slice() of a flat string is a view in V8, not a copy.
        const row = others.length > 0 ? text.slice(this.starts[position] - base, end) : '';
        if (position !== found[0] && others.every((word) => row.includes(word))) found.push(position);
        at = text.indexOf(first, end);
      }
      yield;
    }
    return this.matches(found, found.length < limit, length);
  }

  private matches(positions: number[], exhaustive: boolean, indexed: number): IndexMatches {
    return { rows: positions.map((position) => this.rowsOf[position]), positions, exhaustive, indexed };
  }

  private add(row: number, piece: string, id: string): void {
    if (this.length === this.starts.length) {
      this.starts = grow(this.starts);
      this.rowsOf = grow(this.rowsOf);
      this.idStarts = grow(this.idStarts);
    }
    this.idStarts[this.length] = this.ids.add(id);
    this.starts[this.length] = this.text.add(piece);
    this.rowsOf[this.length] = row;
    this.length += 1;
  }
}

/** The last of the first `length` starts at or before `at` (binary search). */
function lastAtOrBefore(starts: ArrayLike<number>, length: number, at: number): number {
  let low = 0;
  let high = length - 1;
  while (low < high) {
    const middle = (low + high + 1) >>> 1;
    if (starts[middle] <= at) low = middle;
    else high = middle - 1;
  }
  return low;
}

function grow<T extends Uint32Array | Float64Array>(array: T): T {
  const bigger = new (array.constructor as new (length: number) => T)(array.length * 2);
  bigger.set(array);
  return bigger;
}
