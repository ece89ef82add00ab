// A view's answer checked as JSON byte by byte as it arrives, finding on the way where each row of its
// "data" list starts and ends (the rows are kept as bytes, parsed only when read: rowStore.ts), the
// top-level keys, and where the "metadata" list is. It takes exactly what JSON.parse takes (the grammar
// of RFC 8259: no trailing or doubled commas, no control characters in strings, escapes and numbers as
// the grammar spells them, one value and nothing after it), so the streamed read and the whole-body one
// (JSON.parse) never disagree on whether an answer is JSON: viewReadAgreement.test.ts holds them to it.
// A byte loop rather than a tokenizer: strings, where most bytes are, take a tight loop of three
// comparisons a byte; measured on a 26 MB view the read was about as fast as with the old loop that only
// followed strings and brackets (and faster than @streamparser/json's tokenizer, which it also replaces
// for the outline).
//
// Keys that JSON.parse would let the last of overwrite the first are refused when they are "data" or
// "metadata": a streamed read has handed the first list's rows over before the second begins.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const SPACE = 0x20;
const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const SMALL_E = 0x65;
const CAPITAL_E = 0x45;
const SMALL_U = 0x75;

/** What the next byte outside a string may be. */
const enum Mode {
  /** A value (the root's, after a colon, after a comma in a list). */
  Value,
  /** Just after `[`: a value or `]`. */
  FirstItem,
  /** Just after `{`: a key or `}`. */
  FirstKey,
  /** After a comma in an object: a key. */
  Key,
  /** After a key: `:`. */
  Colon,
  /** After a value: `,` or the bracket that closes its list or object. */
  After,
  /** After the root object: only white space. */
  Done,
  /** Inside a number, at the state its grammar names. */
  Minus,
  Zero,
  Integer,
  Dot,
  Fraction,
  Exponent,
  ExponentSign,
  ExponentDigits,
  /** Inside true, false or null. */
  Literal,
  /** Inside a string, after a backslash, in the four digits of \u. */
  String,
  Escape,
  Unicode,
}

const LITERALS: Record<number, Uint8Array> = { 0x74: Buffer.from('true'), 0x66: Buffer.from('false'), 0x6e: Buffer.from('null') };
/** The characters a backslash may escape (besides u). */
const ESCAPES = new Uint8Array(128);
for (const character of '"\\/bfnrt') ESCAPES[character.charCodeAt(0)] = 1;
const HEX = new Uint8Array(128);
for (const character of '0123456789abcdefABCDEF') HEX[character.charCodeAt(0)] = 1;

function isSpace(byte: number): boolean {
  return byte === SPACE || byte === LINE_FEED || byte === CARRIAGE_RETURN || byte === TAB;
}

function isDigit(byte: number): boolean {
  return byte >= ZERO && byte <= NINE;
}

/** Whether `byte` begins a value of some kind (a row that is one but no object is refused as that). */
function startsValue(byte: number): boolean {
  return byte === OPEN_BRACKET || byte === QUOTE || byte === MINUS || isDigit(byte) || LITERALS[byte] !== undefined;
}

function shown(byte: number): string {
  return byte >= 0x21 && byte < 0x7f ? `"${String.fromCharCode(byte)}"` : `byte 0x${byte.toString(16).padStart(2, '0')}`;
}

export interface RowBoundaryEvents {
  /** A row: the body's bytes [start, end), a JSON object. */
  row(start: number, end: number): void;
  /** The "metadata" list: the body's bytes [start, end). */
  metadata(start: number, end: number): void;
  /** The text of the body's bytes [start, end) (a top-level key, to decode its escapes). */
  text(start: number, end: number): string;
  /** Rows found so far (for a problem's message). */
  rowCount(): number;
}

export class RowBoundaries {
  private mode = Mode.Value;
  /** Open lists and objects (their opening bytes), outermost first. */
  private open: Uint8Array = new Uint8Array(32);
  private depth = 0;
  /** Whether the string being read is a key; where a top-level key's string began. */
  private inKey = false;
  private keyStart = -1;
  private key: string | undefined;
  private unicodeLeft = 0;
  private literal: Uint8Array = LITERALS[0x74];
  private literalAt = 0;
  /** Where the row being read began (-1: between rows); whether the list open at depth 1 is "data". */
  private rowStart = -1;
  private inData = false;
  private metadataStart = -1;
  private readonly seen = new Set<string>();
  /** The root object was closed. */
  done = false;
  /** Set when "data" was read to its end. */
  sawData = false;
  /** Set at the first byte that is not JSON, or not a view's answer; nothing more is read. */
  problem: string | undefined;

  constructor(private readonly events: RowBoundaryEvents) {}

  /** Reads `bytes`, the body's bytes from offset `base` on; stops at a problem. */
  scan(bytes: Uint8Array, base: number): void {
    if (this.problem) return;
    const length = bytes.length;
    let mode = this.mode;
    let index = 0;
    while (index < length) {
      let byte = bytes[index];
      if (mode === Mode.String) {
        // Most of an answer's bytes: three comparisons each, until the string ends or escapes.
        while (byte !== QUOTE && byte !== BACKSLASH && byte >= SPACE) {
          index += 1;
          if (index === length) break;
          byte = bytes[index];
        }
        if (index === length) break;
        if (byte === QUOTE) mode = this.endString(base + index);
        else if (byte === BACKSLASH) mode = Mode.Escape;
        else return this.fail(`a text holds the control character 0x${byte.toString(16).padStart(2, '0')}`, base + index);
        index += 1;
        continue;
      }
      switch (mode) {
        case Mode.Escape:
          if (byte === SMALL_U) {
            mode = Mode.Unicode;
            this.unicodeLeft = 4;
          } else if (byte < 128 && ESCAPES[byte] === 1) mode = Mode.String;
          else return this.fail(`a text has the escape \\${String.fromCharCode(byte)}, which JSON has not`, base + index);
          break;
        case Mode.Unicode:
          if (byte >= 128 || HEX[byte] !== 1) return this.fail('a \\u escape has fewer than four hex digits', base + index);
          this.unicodeLeft -= 1;
          if (this.unicodeLeft === 0) mode = Mode.String;
          break;
        case Mode.Literal:
          if (byte !== this.literal[this.literalAt])
            return this.fail(`${shown(byte)} where ${Buffer.from(this.literal).toString()} goes on`, base + index);
          this.literalAt += 1;
          if (this.literalAt === this.literal.length) mode = Mode.After;
          break;
        case Mode.Minus:
          if (byte === ZERO) mode = Mode.Zero;
          else if (isDigit(byte)) mode = Mode.Integer;
          else return this.fail('a minus sign without a number', base + index);
          break;
        case Mode.Zero:
        case Mode.Integer:
        case Mode.Fraction:
          if (byte === DOT && mode !== Mode.Fraction) mode = Mode.Dot;
          else if (byte === SMALL_E || byte === CAPITAL_E) mode = Mode.Exponent;
          else if (isDigit(byte) && mode !== Mode.Zero) break;
          else if (isDigit(byte)) return this.fail('a number with a leading zero', base + index);
          else {
            // The number ended: this byte follows it.
            mode = Mode.After;
            continue;
          }
          break;
        case Mode.Dot:
          if (!isDigit(byte)) return this.fail('a number ends with its decimal point', base + index);
          mode = Mode.Fraction;
          break;
        case Mode.Exponent:
          if (byte === PLUS || byte === MINUS) mode = Mode.ExponentSign;
          else if (isDigit(byte)) mode = Mode.ExponentDigits;
          else return this.fail('a number ends with its exponent mark', base + index);
          break;
        case Mode.ExponentSign:
          if (!isDigit(byte)) return this.fail('a number ends with its exponent mark', base + index);
          mode = Mode.ExponentDigits;
          break;
        case Mode.ExponentDigits:
          if (!isDigit(byte)) {
            mode = Mode.After;
            continue;
          }
          break;
        default:
          if (isSpace(byte)) break;
          mode = this.structural(mode, byte, base + index);
          if (this.problem) return;
      }
      index += 1;
    }
    this.mode = mode;
  }

  /** A byte outside strings and numbers: what it opens, closes or separates, and what may follow it. */
  private structural(mode: Mode, byte: number, at: number): Mode {
    switch (mode) {
      case Mode.Value:
      case Mode.FirstItem:
        if (mode === Mode.FirstItem && byte === CLOSE_BRACKET) return this.close(byte, at);
        return this.value(byte, at);
      case Mode.FirstKey:
      case Mode.Key:
        if (mode === Mode.FirstKey && byte === CLOSE_BRACE) return this.close(byte, at);
        if (byte !== QUOTE) return this.unexpected(byte, at, mode === Mode.Key ? 'a key after a comma' : 'a key or }');
        this.inKey = true;
        if (this.depth === 1) this.keyStart = at;
        return Mode.String;
      case Mode.Colon:
        if (byte !== COLON) return this.unexpected(byte, at, ': after a key');
        return Mode.Value;
      case Mode.After:
        if (byte === COMMA) return this.open[this.depth - 1] === OPEN_BRACE ? Mode.Key : Mode.Value;
        if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) return this.close(byte, at);
        return this.unexpected(byte, at, this.open[this.depth - 1] === OPEN_BRACE ? ', or }' : ', or ]');
      default:
        this.fail('more follows the end of its JSON object', at);
        return mode;
    }
  }

  /** The first byte of a value. */
  private value(byte: number, at: number): Mode {
    const depth = this.depth;
    if (depth === 0 && byte !== OPEN_BRACE) {
      this.problem = 'it is not a JSON object.';
      return Mode.Done;
    }
    if (depth === 1) this.topValue(byte, at);
    else if (depth === 2 && this.inData) {
      if (byte !== OPEN_BRACE && startsValue(byte)) {
        this.problem = `row ${this.events.rowCount() + 1} is not an object.`;
        return Mode.Done;
      }
      this.rowStart = at;
    }
    if (this.problem) return Mode.Done;
    if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (depth === this.open.length) this.open = grow(this.open);
      this.open[depth] = byte;
      this.depth = depth + 1;
      return byte === OPEN_BRACE ? Mode.FirstKey : Mode.FirstItem;
    }
    if (byte === QUOTE) {
      this.inKey = false;
      return Mode.String;
    }
    if (byte === MINUS) return Mode.Minus;
    if (byte === ZERO) return Mode.Zero;
    if (isDigit(byte)) return Mode.Integer;
    const literal = LITERALS[byte];
    if (literal) {
      this.literal = literal;
      this.literalAt = 1;
      return Mode.Literal;
    }
    return this.unexpected(byte, at, 'a value');
  }

  /** A value of the root object begins: "data" and "metadata" must be lists. */
  private topValue(byte: number, at: number): void {
    if (this.key === 'data') {
      if (byte !== OPEN_BRACKET) this.problem = 'its "data" is not a list of rows.';
      else this.inData = true;
    } else if (this.key === 'metadata') {
      if (byte !== OPEN_BRACKET) this.problem = 'its "metadata" is not a list.';
      else this.metadataStart = at;
    }
  }

  private close(byte: number, at: number): Mode {
    const depth = this.depth - 1;
    if (depth < 0 || this.open[depth] !== (byte === CLOSE_BRACE ? OPEN_BRACE : OPEN_BRACKET)) {
      this.fail(`its brackets do not match: ${shown(byte)}`, at);
      return Mode.Done;
    }
    this.depth = depth;
    if (depth === 2 && this.inData && this.rowStart >= 0) {
      this.events.row(this.rowStart, at + 1);
      this.rowStart = -1;
    } else if (depth === 1) {
      if (this.inData) {
        this.inData = false;
        this.sawData = true;
      } else if (this.metadataStart >= 0) {
        this.events.metadata(this.metadataStart, at + 1);
        this.metadataStart = -1;
      }
    } else if (depth === 0) {
      this.done = true;
      return Mode.Done;
    }
    return Mode.After;
  }

  /** A string's closing quote at body offset `at`. */
  private endString(at: number): Mode {
    if (!this.inKey) return Mode.After;
    this.inKey = false;
    if (this.depth === 1) {
      const key = JSON.parse(this.events.text(this.keyStart, at + 1)) as string;
      if ((key === 'data' || key === 'metadata') && this.seen.has(key)) {
        this.problem = `it has two "${key}" lists.`;
        return Mode.Done;
      }
      this.seen.add(key);
      this.key = key;
    }
    return Mode.Colon;
  }

  private unexpected(byte: number, at: number, expected: string): Mode {
    this.fail(`${shown(byte)} where ${expected} should be`, at);
    return Mode.Done;
  }

  private fail(what: string, at: number): void {
    const row = this.rowStart >= 0 ? `, in row ${this.events.rowCount() + 1}` : '';
    this.problem ??= `it is not JSON (${what}, at byte ${at}${row}).`;
  }
}

function grow(open: Uint8Array): Uint8Array {
  const bigger = new Uint8Array(open.length * 2);
  bigger.set(open);
  return bigger;
}

const DATA_KEY = Buffer.from('"data"');
const METADATA_KEY = Buffer.from('"metadata"');
const UNICODE_ESCAPE = Buffer.from('\\u');

function occursTwice(body: Buffer, what: Buffer): boolean {
  const first = body.indexOf(what);
  return first >= 0 && body.indexOf(what, first + 1) >= 0;
}

/**
 * For the whole read (readView), once JSON.parse and viewOf took `body`: why the streamed read would
 * refuse it all the same, else undefined. Only two "data" or "metadata" keys make that happen (JSON.parse
 * keeps the last; the streamed read refuses the second, or the first already when it is no list). Most
 * answers hold each key's text once and no \u escape (which could spell a key): a search of their bytes
 * then settles it; only the others are scanned.
 */
export function streamedRefusalOf(body: Buffer): string | undefined {
  if (!occursTwice(body, DATA_KEY) && !occursTwice(body, METADATA_KEY) && body.indexOf(UNICODE_ESCAPE) < 0) return undefined;
  let rows = 0;
  const scanner = new RowBoundaries({
    row: () => void (rows += 1),
    metadata: () => undefined,
    text: (start, end) => body.toString('utf8', start, end),
    rowCount: () => rows,
  });
  const bom = body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf ? 3 : 0;
  scanner.scan(bom ? body.subarray(bom) : body, bom);
  return scanner.problem;
}
