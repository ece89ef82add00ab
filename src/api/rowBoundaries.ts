// Where each row of a view's "data" list starts and ends in the answer's bytes, found as they arrive. The
// answer's outline (its keys, where "data" begins, the "metadata" after it) is @streamparser/json's job
// (viewStream.ts); inside the list, only the row boundaries are needed, and this byte loop finds them about
// five times faster than tokenizing every string and number (measured on a 26 MB view: ~110 ms against
// ~550 ms; JSON.parse of the whole body ~250 ms). It follows strings (and their escapes) and brackets, so
// a brace inside a text value is no boundary, and that brackets match; it does not check the rest of the
// rows' JSON, which is parsed (and refused, when broken) row by row as rows are read (RowStore.raw).

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const SPACE = 0x20;
const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;

export class RowBoundaries {
  /** Brackets open inside the current row (0: between rows), and which they are. */
  private depth = 0;
  private open: Uint8Array = new Uint8Array(32);
  private inString = false;
  private escaped = false;
  private rowStart = -1;
  /** The body offset just after the list's closing bracket, once it was read. */
  end = -1;
  /** Set when something other than a row stands in the list. */
  problem: string | undefined;

  constructor(
    /** A row: the body's bytes [start, end). */
    private readonly onRow: (start: number, end: number) => void,
    /** Rows found so far (for a problem's message). */
    private readonly rowCount: () => number,
  ) {}

  /**
   * Scans `bytes`, the body's bytes from offset `base` on, starting at index `from`; stops after the list's
   * closing bracket (then `end` is set) or at a problem. Returns the index it stopped at.
   */
  scan(bytes: Uint8Array, base: number, from: number): number {
    let { depth, inString, escaped } = this;
    let index = from;
    for (; index < bytes.length; index += 1) {
      const byte = bytes[index];
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === BACKSLASH) escaped = true;
        else if (byte === QUOTE) inString = false;
        continue;
      }
      if (depth > 0) {
        if (byte === QUOTE) inString = true;
        else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
          if (depth === this.open.length) this.open = grow(this.open);
          this.open[depth] = byte;
          depth += 1;
        } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
          depth -= 1;
          if (this.open[depth] !== (byte === CLOSE_BRACE ? OPEN_BRACE : OPEN_BRACKET)) {
            this.problem = 'its brackets do not match.';
            break;
          }
          if (depth === 0) this.onRow(this.rowStart, base + index + 1);
        }
        continue;
      }
      if (byte === OPEN_BRACE) {
        this.rowStart = base + index;
        this.open[0] = OPEN_BRACE;
        depth = 1;
      } else if (byte === CLOSE_BRACKET) {
        this.end = base + index + 1;
        index += 1;
        break;
      } else if (byte !== COMMA && byte !== SPACE && byte !== LINE_FEED && byte !== CARRIAGE_RETURN && byte !== TAB) {
        this.problem = `row ${this.rowCount() + 1} is not an object.`;
        break;
      }
    }
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    return index;
  }
}

function grow(open: Uint8Array): Uint8Array {
  const bigger = new Uint8Array(open.length * 2);
  bigger.set(open);
  return bigger;
}
