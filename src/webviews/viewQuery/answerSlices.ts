// A view's answer read in slices of rows instead of all at once. A 100,000-row view is ~26 MB of JSON and
// JSON.parse takes about half a second of it, during which nothing reaches the panel. So the answer's text
// is scanned for the top-level "metadata" list and the items of "data", and JSON.parse reads one slice of
// rows at a time: the first slice (a screenful) goes to the grid at once, and each later slice is parsed
// while the panel renders the one before. The same tolerant reading (answers.ts viewOf) applies to every
// slice. This is not a JSON parser: it matches brackets outside strings to find where items end, and when
// the answer is not shaped as expected it gives up (undefined) and the caller parses the whole.

/** Index just past the string starting at `start` (a `"`), or -1 when it does not end. */
function stringEnd(text: string, start: number): number {
  for (let at = start + 1; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if (code === 0x5c /* \ */) at += 1;
    else if (code === 0x22 /* " */) return at + 1;
  }
  return -1;
}

/** Index just past the array or object starting at `start` (a `[` or `{`), or -1. */
function valueEnd(text: string, start: number): number {
  let depth = 0;
  for (let at = start; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if (code === 0x22) {
      at = stringEnd(text, at) - 1;
      if (at < 0) return -1;
    } else if (code === 0x5b || code === 0x7b) {
      depth += 1;
    } else if (code === 0x5d || code === 0x7d) {
      depth -= 1;
      if (depth === 0) return at + 1;
    }
  }
  return -1;
}

function skipSpace(text: string, at: number): number {
  while (at < text.length && /\s/.test(text[at])) at += 1;
  return at;
}

/** The value of the top-level key `"name"` found at `keyAt`: its text (an array or object), or undefined. */
function valueAfterKey(text: string, keyAt: number, name: string): { start: number; end: number } | undefined {
  let at = skipSpace(text, keyAt + name.length + 2);
  if (text[at] !== ':') return undefined;
  at = skipSpace(text, at + 1);
  if (text[at] !== '[' && text[at] !== '{') return undefined;
  const end = valueEnd(text, at);
  return end < 0 ? undefined : { start: at, end };
}

/** Where a quote at `at` is not escaped (an even number of backslashes before it): it delimits a string. */
function isUnescapedQuote(text: string, at: number): boolean {
  let backslashes = 0;
  for (let before = at - 1; before >= 0 && text.charCodeAt(before) === 0x5c; before -= 1) backslashes += 1;
  return backslashes % 2 === 0;
}

/** The top-level "metadata" list: either before "data" or the answer's last key (the documented order). */
function findMetadata(text: string, dataStart: number): unknown[] | undefined {
  const key = '"metadata"';
  // Before "data": the first occurrence outside the data list.
  const early = text.indexOf(key);
  const candidates = early >= 0 && early < dataStart ? [early] : [];
  const late = text.lastIndexOf(key);
  if (late > dataStart) candidates.push(late);
  for (const keyAt of candidates) {
    if (!isUnescapedQuote(text, keyAt)) continue;
    const value = valueAfterKey(text, keyAt, 'metadata');
    if (!value) continue;
    // After "data", accept it only when nothing but the object's end (or more top-level keys) follows.
    if (keyAt > dataStart) {
      const after = skipSpace(text, value.end);
      if (text[after] === '}' ? skipSpace(text, after + 1) !== text.length : text[after] !== ',') continue;
      const before = text.lastIndexOf(',', keyAt);
      if (before < 0 || skipSpace(text, before + 1) !== keyAt) continue;
    }
    try {
      const parsed: unknown = JSON.parse(text.slice(value.start, value.end));
      if (Array.isArray(parsed)) return parsed;
    } catch {
      // not it
    }
  }
  return undefined;
}

export interface AnswerSlices {
  metadata: unknown[];
  /** Slices of "data": `first` rows, then `size` rows each; every slice parsed only when asked for. */
  slices(first: number, size: number): Generator<unknown[]>;
}

/** Where "data" starts (its `[`), when the answer is an object whose first keys lead to it; else -1. */
function dataStartOf(text: string): number {
  let at = skipSpace(text, 0);
  if (text[at] !== '{') return -1;
  at = skipSpace(text, at + 1);
  // "data" is usually the first key; "metadata" may come before it.
  for (let keys = 0; keys < 2 && text[at] === '"'; keys += 1) {
    const keyEnd = stringEnd(text, at);
    if (keyEnd < 0) return -1;
    const name = text.slice(at + 1, keyEnd - 1);
    if (name === 'data') {
      let item = skipSpace(text, keyEnd);
      if (text[item] !== ':') return -1;
      item = skipSpace(text, item + 1);
      return text[item] === '[' ? item : -1;
    }
    const value = valueAfterKey(text, at, name);
    if (!value) return -1;
    at = skipSpace(text, value.end);
    if (text[at] !== ',') return -1;
    at = skipSpace(text, at + 1);
  }
  return -1;
}

/**
 * The answer's metadata and its rows in slices, or undefined when the answer is not an object with a "data"
 * list (first, or after "metadata") and a top-level "metadata" list. A slice that does not parse throws
 * SyntaxError, as JSON.parse of the whole would.
 */
export function answerSlices(text: string): AnswerSlices | undefined {
  const dataStart = dataStartOf(text);
  if (dataStart < 0) return undefined;
  const metadata = findMetadata(text, dataStart);
  if (!metadata) return undefined;
  return {
    metadata,
    *slices(first: number, size: number): Generator<unknown[]> {
      let item = skipSpace(text, dataStart + 1);
      let count = first;
      while (text[item] === '{') {
        const start = item;
        let end = item;
        let rows = 0;
        while (rows < count && text[item] === '{') {
          end = valueEnd(text, item);
          if (end < 0) throw new SyntaxError('A row of the answer does not end.');
          rows += 1;
          item = skipSpace(text, end);
          if (text[item] === ',') item = skipSpace(text, item + 1);
          else break;
        }
        const slice: unknown = JSON.parse(`[${text.slice(start, end)}]`);
        if (!Array.isArray(slice)) throw new SyntaxError('A slice of rows is not a list.');
        yield slice;
        count = size;
      }
      if (text[item] !== ']') throw new SyntaxError('The list of rows does not end where expected.');
    },
  };
}
