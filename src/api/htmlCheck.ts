// Whether a Rich Text value is well-formed HTML, as the portal's formats table asks: tags complete and
// closed in order. Not a parser of HTML: only the checks the portal makes. Pure (no vscode import).
const EXCERPT_LENGTH = 40;

/** A value as it appears in a message: short, on one line. */
export function excerpt(value: string): string {
  const oneLine = value.replace(/\s+/g, ' ');
  return oneLine.length > EXCERPT_LENGTH ? `${oneLine.slice(0, EXCERPT_LENGTH - 1)}…` : oneLine;
}

/** Elements that never have a closing tag. */
const VOID_ELEMENTS = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);
const TAG_NAME = /[A-Za-z][A-Za-z0-9-]*/y;
const ATTRIBUTE_NAME = /[^\s"'>/=]+/y;
const UNQUOTED_VALUE = /[^\s"'=<>`]+/y;
const SPACE = /\s*/y;

interface ScannedTag {
  name: string;
  closing: boolean;
  selfClosing: boolean;
  end: number;
}

function sticky(pattern: RegExp, text: string, at: number): string | undefined {
  pattern.lastIndex = at;
  return pattern.exec(text)?.[0];
}

/** The tag starting at `start` ("<" then a letter or "/"), or undefined when it is not well formed. */
function scanTag(html: string, start: number): ScannedTag | undefined {
  let at = start + 1;
  const closing = html[at] === '/';
  if (closing) at += 1;
  const name = sticky(TAG_NAME, html, at);
  if (!name) return undefined;
  at += name.length;
  for (;;) {
    const space = sticky(SPACE, html, at) ?? '';
    at += space.length;
    if (html[at] === '>') return { name: name.toLowerCase(), closing, selfClosing: false, end: at + 1 };
    if (html.startsWith('/>', at)) return { name: name.toLowerCase(), closing, selfClosing: true, end: at + 2 };
    if (space === '') return undefined; // attributes are separated by white space
    const attribute = sticky(ATTRIBUTE_NAME, html, at);
    if (!attribute) return undefined;
    at += attribute.length;
    const beforeEquals = sticky(SPACE, html, at)?.length ?? 0;
    if (html[at + beforeEquals] !== '=') continue;
    at += beforeEquals + 1;
    at += sticky(SPACE, html, at)?.length ?? 0;
    const quote = html[at];
    if (quote === '"' || quote === "'") {
      const close = html.indexOf(quote, at + 1);
      if (close < 0) return undefined;
      at = close + 1;
    } else {
      const value = sticky(UNQUOTED_VALUE, html, at);
      if (!value) return undefined;
      at += value.length;
    }
  }
}

/**
 * Why `html` is not well-formed HTML, or undefined. Plain text is valid HTML. Every "<" followed by a letter,
 * "/" or "!" must complete a tag, a comment or a doctype; elements other than void ones and "<x/>" must be
 * closed, in order. A "<" before anything else ("a < b") is text, as browsers read it.
 */
export function htmlProblem(html: string): string | undefined {
  const open: string[] = [];
  let at = html.indexOf('<');
  while (at >= 0) {
    if (html.startsWith('<!--', at)) {
      const end = html.indexOf('-->', at + 4);
      if (end < 0) return 'a comment is never closed';
      at = html.indexOf('<', end + 3);
      continue;
    }
    const next = html[at + 1] ?? '';
    if (/^<!doctype\s[^>]*>/i.test(html.slice(at, at + 200))) {
      at = html.indexOf('<', html.indexOf('>', at) + 1);
      continue;
    }
    if (!/[A-Za-z/!]/.test(next)) {
      at = html.indexOf('<', at + 1);
      continue;
    }
    const tag = scanTag(html, at);
    if (!tag) return `a tag is not well formed near "${excerpt(html.slice(at, at + 20))}"`;
    if (tag.closing) {
      const expected = open.pop();
      if (expected !== tag.name) return expected ? `</${tag.name}> closes <${expected}>` : `</${tag.name}> closes nothing`;
    } else if (!tag.selfClosing && !VOID_ELEMENTS.has(tag.name)) {
      open.push(tag.name);
    }
    at = html.indexOf('<', tag.end);
  }
  const unclosed = open.pop();
  return unclosed ? `<${unclosed}> is never closed` : undefined;
}
