// TODO comments that can become records (Create Record from TODO): a trigger word (`portal.todo.triggers`,
// default TODO, FIXME) inside a line comment or a block comment's line, in any language's comment marks. The
// title is what follows the word; the record's reference goes right after the word (`// TODO TCK-42: …`),
// where the GitHub and Jira extensions put theirs.

export const DEFAULT_TRIGGERS = 'TODO, FIXME';

/** The comment marks of the languages people write: `//`, `#`, `--`, `;`, `/*`, a block's `*`, `<!--`. */
const COMMENT_MARK = String.raw`(?:\/\/+|#+|--|;+|\/\*+|\*|<!--)`;

export interface TodoComment {
  /** The trigger word as written (`TODO`). */
  readonly trigger: string;
  /** The text after the word and its colon, without a closing comment mark; may be empty. */
  readonly title: string;
  /** Where the trigger word starts and ends in the line (UTF-16 offsets). */
  readonly start: number;
  readonly end: number;
}

/** The trigger words of the setting's text: comma- or space-separated, empty entries dropped. */
export function triggerWords(setting: string): string[] {
  return setting
    .split(/[\s,]+/)
    .map((word) => word.trim())
    .filter((word) => /^[\p{L}\p{N}_-]+$/u.test(word));
}

function escape(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
}

/** The TODO comment in `line`, if the line has one (the first trigger after a comment mark). */
export function findTodo(line: string, triggers: readonly string[]): TodoComment | undefined {
  if (triggers.length === 0) return undefined;
  // The mark starts the line or follows a space (code before a trailing comment); the word is whole and
  // written as configured (a `todo` in prose is not a trigger).
  const pattern = new RegExp(String.raw`(?:^|\s)${COMMENT_MARK}\s*(?:@)?(${triggers.map(escape).join('|')})(?![\p{L}\p{N}_])`, 'u');
  const match = pattern.exec(line);
  if (!match || match.index === undefined) return undefined;
  const trigger = match[1];
  const end = match.index + match[0].length;
  const start = end - trigger.length;
  const title = line
    .slice(end)
    // An owner or a reference in parentheses (`TODO(ana):`) and the colon are not the title.
    .replace(/^\s*(\([^)]*\))?\s*[:\-–]?\s*/u, '')
    .replace(/\s*(\*\/|-->|-\}|\*\))\s*$/u, '')
    .trim();
  return { trigger, title, start, end };
}

/** The title for a record made from a selection: its first line that says something, trimmed and bounded. */
export function titleFromSelection(text: string, maxLength = 120): string {
  const first = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .find((line) => line.length > 0);
  if (first === undefined) return '';
  return [...first].length > maxLength ? `${[...first].slice(0, maxLength - 1).join('')}…` : first;
}

/** What a record made from code says about where it came from: the file's path and line, and the code. */
export function codeContext(place: { readonly path: string; readonly line: number }, code: string, multiline: boolean): string {
  const where = `${place.path}:${place.line}`;
  if (!multiline || code.trim() === '') return where;
  return `${where}\n\n${code.replace(/\s+$/, '')}`;
}
