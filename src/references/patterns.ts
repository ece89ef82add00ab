// References to records in plain text (issue 33): per app, a template such as `TCK-{id}` or `#{id}` names
// its records in code, comments and commit messages. One scan finds every app's references at once (one
// combined expression, prefixes longest first), because links are computed on every change of a document
// and a reference-heavy 10,000-line file must scan in a few milliseconds. A record's id is digits: the
// portal's ids are positive integers, and a looser id would take the words after a prefix for references.
// Pure (no `vscode`), unit-tested in plain node.

export interface ReferencePattern {
  readonly portalId: string;
  readonly appId: string;
  /** Like 'TCK-{id}' or '#{id}'. */
  readonly template: string;
}

export interface FoundReference {
  /** Offsets in the text, `end` exclusive. */
  readonly start: number;
  readonly end: number;
  readonly pattern: ReferencePattern;
  readonly recordId: string;
}

export const ID_PLACEHOLDER = '{id}';
const MAX_TEMPLATE = 32;
/** Longer runs of digits are not record ids (and would not survive Number()). */
const MAX_ID_DIGITS = 15;

/** A problem message, or undefined when the template can be used. */
export function checkTemplate(template: string): string | undefined {
  if (typeof template !== 'string' || template === '') return 'A reference template is empty: give one like "TCK-{id}" or "#{id}".';
  const at = template.indexOf(ID_PLACEHOLDER);
  if (at < 0) return `The reference template "${template}" has no {id}: give one like "TCK-{id}" or "#{id}".`;
  if (template.indexOf(ID_PLACEHOLDER, at + 1) >= 0) return `The reference template "${template}" has {id} more than once.`;
  if (template.length > MAX_TEMPLATE) return `The reference template "${template}" is longer than ${MAX_TEMPLATE} characters.`;
  const prefix = template.slice(0, at);
  const suffix = template.slice(at + ID_PLACEHOLDER.length);
  if (prefix === '')
    return `The reference template "${template}" must start with something before {id} (like "TCK-" or "#"): every number would be a reference.`;
  if (/[{}]/.test(prefix + suffix)) return `The reference template "${template}" has braces other than {id}.`;
  if (/\s/.test(template)) return `The reference template "${template}" has a space: a reference is one word.`;
  if (/\p{Cc}/u.test(template)) return `The reference template "${template}" has a control character.`;
  if (/[0-9]$/.test(prefix)) return `The reference template "${template}" has a digit just before {id}: the id could not be told from it.`;
  if (/^[0-9]/.test(suffix)) return `The reference template "${template}" has a digit just after {id}: the id could not be told from it.`;
  return undefined;
}

export function formatReference(pattern: ReferencePattern, recordId: string): string {
  return pattern.template.replace(ID_PLACEHOLDER, recordId);
}

/** The text before {id}: what completion waits for. */
export function referencePrefix(pattern: ReferencePattern): string {
  return pattern.template.slice(0, pattern.template.indexOf(ID_PLACEHOLDER));
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

interface Compiled {
  readonly expression: RegExp;
  /** The pattern of each alternative, by its capture group's number (1-based). */
  readonly patterns: readonly ReferencePattern[];
}

const compiledCache = new WeakMap<readonly ReferencePattern[], Compiled | null>();

/**
 * One expression for all the usable patterns. A reference stands alone: no letter, digit or `_` touches it
 * on either side (so `XTCK-1`, `a#1` and `TCK-12a` are not references). Where two templates could match at
 * one place, the longer one comes first in the alternation and wins; a template given twice (two apps)
 * belongs to the first.
 */
function compile(patterns: readonly ReferencePattern[]): Compiled | null {
  const cached = compiledCache.get(patterns);
  if (cached !== undefined) return cached;
  const seen = new Set<string>();
  const usable = patterns.filter((pattern) => {
    if (checkTemplate(pattern.template) !== undefined || seen.has(pattern.template)) return false;
    seen.add(pattern.template);
    return true;
  });
  usable.sort((a, b) => b.template.length - a.template.length);
  const alternatives = usable.map((pattern) => {
    const at = pattern.template.indexOf(ID_PLACEHOLDER);
    const prefix = escape(pattern.template.slice(0, at));
    const suffix = escape(pattern.template.slice(at + ID_PLACEHOLDER.length));
    return `${prefix}([0-9]{1,${MAX_ID_DIGITS}})${suffix}`;
  });
  const compiled =
    alternatives.length === 0
      ? null
      : { expression: new RegExp(`(?<![\\p{L}\\p{N}_])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}_])`, 'gu'), patterns: usable };
  compiledCache.set(patterns, compiled);
  return compiled;
}

/** Every reference in the text, in order; patterns whose template has a problem are left out. */
export function findReferences(text: string, patterns: readonly ReferencePattern[]): FoundReference[] {
  const compiled = compile(patterns);
  if (!compiled) return [];
  const found: FoundReference[] = [];
  // The one compiled expression, reused: a new one per scan would be interpreted again before V8 compiles
  // it (regexp tier-up), several times slower. The scan is synchronous, so nothing else moves lastIndex.
  const { expression } = compiled;
  expression.lastIndex = 0;
  for (let match = expression.exec(text); match !== null; match = expression.exec(text)) {
    for (let group = 1; group < match.length; group++) {
      const recordId = match[group];
      if (recordId === undefined) continue;
      found.push({ start: match.index, end: match.index + match[0].length, pattern: compiled.patterns[group - 1], recordId });
      break;
    }
  }
  return found;
}
