// What "any valid HTML" (the Multiline value format) lets through: text with well-formed markup. The
// emulator's rule, written down in README.md: every `<` that starts a tag (followed by a letter, `/` or `!`)
// must complete a tag; non-void elements must be closed, in order; comments must end. A lone `<` before a
// space or digit is text, as browsers read it.

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

// A start or end tag: name, then attributes (quoted values may hold `>`), then an optional `/`.
const TAG = /^<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*(\/?)>/;

/** Undefined when the markup is well formed, otherwise what is wrong. */
export function htmlProblem(html: string): string | undefined {
  const open: string[] = [];
  let index = html.indexOf('<');
  while (index >= 0) {
    const rest = html.slice(index);
    const next = rest[1] ?? '';
    if (rest.startsWith('<!--')) {
      const end = html.indexOf('-->', index + 4);
      if (end < 0) return 'a comment is not closed';
      index = html.indexOf('<', end + 3);
      continue;
    }
    if (/^<!doctype\s[^>]*>/i.test(rest)) {
      index = html.indexOf('<', index + 1);
      continue;
    }
    if (!/[a-zA-Z/!]/.test(next)) {
      index = html.indexOf('<', index + 1);
      continue;
    }
    const match = TAG.exec(rest);
    if (!match) return `a tag is not well formed near "${rest.slice(0, 20)}"`;
    const [whole, closing, rawName, , selfClosing] = match;
    const name = rawName.toLowerCase();
    if (closing) {
      if (VOID_ELEMENTS.has(name)) return `</${name}> closes an element that is never closed`;
      const expected = open.pop();
      if (expected !== name) return expected ? `</${name}> found where </${expected}> was expected` : `</${name}> has no opening tag`;
    } else if (!VOID_ELEMENTS.has(name) && !selfClosing) {
      open.push(name);
    }
    index = html.indexOf('<', index + whole.length);
  }
  const unclosed = open.pop();
  return unclosed ? `<${unclosed}> is not closed` : undefined;
}
