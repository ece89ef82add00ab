// What "Go to Record…" searches: a view's records by id, title and every text column, matching as the user
// types. The searchable text of all rows is one long lower-cased string (\u0001 id \u0002 title \u0002
// text ...), so a keystroke is a few native indexOf scans rather than a loop over 100,000 rows; an offset
// per row maps a match back to its row. It is built in slices from the view's RowStore (each row parsed
// once), so the first results come while the rest is still being indexed or still arriving. No vscode.
import type { RowStore } from '../api/rowStore';

const ROW = '\u0001';
const FIELD = '\u0002';

export interface IndexColumns {
  /** field_id_in_data of the title column, when the view has one. */
  titleKey?: string;
  /** field_id_in_data of the other text columns searched. */
  textKeys: readonly string[];
}

export class RecordIndex {
  private text = '';
  private pending: string[] = [];
  /** Every indexed row's id alone (\u0001 id \u0002 ...), so the exact-id check scans a short string. */
  private ids = '';
  private pendingIds: string[] = [];
  private idStarts: Uint32Array = new Uint32Array(1024);
  private idsLength = 0;
  /** Where each indexed row starts in the text, and which row of the store it is. */
  private starts: Uint32Array = new Uint32Array(1024);
  private rowsOf: Uint32Array = new Uint32Array(1024);
  private length = 0;
  private textLength = 0;
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

  /** Indexes up to `count` more rows of the store (rows without a record id cannot be opened: skipped). */
  extend(count = Number.POSITIVE_INFINITY): void {
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
    this.flatten(); // now, not on the next keystroke
  }

  /**
   * Up to `limit` rows (store indices) matching every word of `query`: the record whose id is the query
   * first, then the others in the view's order. An empty query gives the first rows.
   */
  search(query: string, limit: number): number[] {
    const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
    if (words.length === 0) return Array.from(this.rowsOf.subarray(0, Math.min(limit, this.length)));
    const text = this.flatten();
    const found: number[] = [];
    const exact = this.ids.indexOf(`${ROW}${words.join(' ')}${FIELD}`);
    if (exact >= 0) found.push(positionIn(this.idStarts, this.length, exact));
    // The longest word is the rarest, usually: scan for it, check the others within the row it is in.
    const [first, ...others] = [...words].sort((a, b) => b.length - a.length);
    let from = 0;
    while (found.length < limit) {
      const at = text.indexOf(first, from);
      if (at < 0) break;
      const position = this.positionAt(at);
      const end = position + 1 < this.length ? this.starts[position + 1] : text.length;
      // slice() of a flat string is a view in V8, not a copy.
      const row = others.length > 0 ? text.slice(this.starts[position], end) : '';
      if (position !== found[0] && others.every((word) => row.includes(word))) found.push(position);
      from = end;
    }
    return found.map((position) => this.rowsOf[position]);
  }

  private add(row: number, piece: string, id: string): void {
    if (this.length === this.starts.length) {
      this.starts = grow(this.starts);
      this.rowsOf = grow(this.rowsOf);
      this.idStarts = grow(this.idStarts);
    }
    this.idStarts[this.length] = this.idsLength;
    this.pendingIds.push(id);
    this.idsLength += id.length;
    this.starts[this.length] = this.textLength;
    this.rowsOf[this.length] = row;
    this.length += 1;
    this.pending.push(piece);
    this.textLength += piece.length;
  }

  private flatten(): string {
    if (this.pending.length > 0) {
      this.text += this.pending.join('');
      this.pending = [];
      this.ids += this.pendingIds.join('');
      this.pendingIds = [];
    }
    return this.text;
  }

  /** The indexed row whose text holds offset `at`. */
  private positionAt(at: number): number {
    return positionIn(this.starts, this.length, at);
  }
}

/** The last of the first `length` starts at or before `at` (binary search). */
function positionIn(starts: Uint32Array, length: number, at: number): number {
  let low = 0;
  let high = length - 1;
  while (low < high) {
    const middle = (low + high + 1) >>> 1;
    if (starts[middle] <= at) low = middle;
    else high = middle - 1;
  }
  return low;
}

function grow(array: Uint32Array): Uint32Array {
  const bigger = new Uint32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}
