// The first rows of a view's answer without parsing all of it. A 100,000-row view is ~26 MB of JSON and
// JSON.parse takes about half a second of it; the grid can paint as soon as it has a screenful. So the
// answer's text is scanned just far enough to cut out the first `count` items of "data" and the
// "metadata" list, which JSON.parse then reads as usual (the same tolerant reading applies to them as to
// the rest). This is not a JSON parser: it only matches brackets outside strings, on a few kilobytes, and
// when the answer is not shaped as expected it gives up (undefined) and the caller parses the whole.

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

/**
 * The first `count` rows of "data" and the "metadata" list of a view's answer, as {data, metadata} for the
 * usual reading; undefined when the answer is not an object whose "data" key comes first or its parts do
 * not parse. Rows past `count` are not looked at.
 */
export function firstRowsOf(text: string, count: number): { data: unknown[]; metadata: unknown[] } | undefined {
  let at = skipSpace(text, 0);
  if (text[at] !== '{') return undefined;
  at = skipSpace(text, at + 1);
  let dataAt = -1;
  // "data" is usually the first key; "metadata" may come before it.
  for (let keys = 0; keys < 2 && text[at] === '"'; keys += 1) {
    const keyEnd = stringEnd(text, at);
    if (keyEnd < 0) return undefined;
    const name = text.slice(at + 1, keyEnd - 1);
    if (name === 'data') {
      dataAt = at;
      break;
    }
    const value = valueAfterKey(text, at, name);
    if (!value) return undefined;
    at = skipSpace(text, value.end);
    if (text[at] !== ',') return undefined;
    at = skipSpace(text, at + 1);
  }
  if (dataAt < 0) return undefined;
  let item = skipSpace(text, dataAt + '"data"'.length);
  if (text[item] !== ':') return undefined;
  item = skipSpace(text, item + 1);
  if (text[item] !== '[') return undefined;
  const dataStart = item;
  item = skipSpace(text, item + 1);
  let end = item;
  let rows = 0;
  while (rows < count && text[item] === '{') {
    end = valueEnd(text, item);
    if (end < 0) return undefined;
    rows += 1;
    item = skipSpace(text, end);
    if (text[item] === ',') item = skipSpace(text, item + 1);
    else break;
  }
  const metadata = findMetadata(text, dataStart);
  if (!metadata) return undefined;
  try {
    const data: unknown = JSON.parse(`[${text.slice(skipSpace(text, dataStart + 1), end)}]`);
    return Array.isArray(data) ? { data, metadata } : undefined;
  } catch {
    return undefined;
  }
}
