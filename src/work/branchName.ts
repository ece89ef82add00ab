// The branch Start Work creates for a record: a template (`portal.startWork.branchTemplate`, default
// `{id}-{slug}`) filled with the record's id and a slug of its title, then held to git's rules for ref names
// (git check-ref-format), so that whatever a title or a template holds, git takes the name as it is.

/** The placeholders a branch template may hold. */
export const BRANCH_PLACEHOLDERS = ['{id}', '{slug}', '{app}'] as const;

export const DEFAULT_BRANCH_TEMPLATE = '{id}-{slug}';

/** The longest slug: enough for a title's first words, short enough for a terminal's prompt. */
export const MAX_SLUG_LENGTH = 40;
/** The longest branch name: hosting services and file systems take far more; people read less. */
export const MAX_BRANCH_LENGTH = 100;

/**
 * A title as lowercase words joined by `-`: accents dropped (é → e), letters of other scripts kept (git
 * takes UTF-8, and a title in Greek or Japanese should still say something), everything else a separator;
 * cut at a word's end within MAX_SLUG_LENGTH.
 */
export function slugOf(title: string): string {
  const words = title
    .normalize('NFKD')
    // Only a Latin letter's marks go: a kana's voicing mark or a Cyrillic breve makes another letter.
    .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
    .normalize('NFC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
  let slug = '';
  for (const word of words) {
    const next = slug === '' ? word : `${slug}-${word}`;
    if ([...next].length > MAX_SLUG_LENGTH) {
      // One long word alone is cut rather than dropped.
      if (slug === '') slug = [...word].slice(0, MAX_SLUG_LENGTH).join('');
      break;
    }
    slug = next;
  }
  return slug;
}

/** What is wrong with a template, or undefined: it must name the record's id, so that two records never share a branch. */
export function checkBranchTemplate(template: string): string | undefined {
  if (!template.includes('{id}')) return `The branch template "${template}" must hold {id}, the record's id.`;
  const unknown = /\{[^}]*\}/g;
  for (const match of template.matchAll(unknown))
    if (!(BRANCH_PLACEHOLDERS as readonly string[]).includes(match[0]))
      return `The branch template "${template}" holds ${match[0]}; it may hold ${BRANCH_PLACEHOLDERS.join(', ')}.`;
  return undefined;
}

export interface BranchRecord {
  readonly recordId: string;
  readonly title: string;
  /** The app's name, for {app}. */
  readonly appName?: string;
}

/** The branch name for `record` from `template` (DEFAULT_BRANCH_TEMPLATE when the template is not usable). */
export function branchName(template: string, record: BranchRecord): string {
  const usable = checkBranchTemplate(template) === undefined ? template : DEFAULT_BRANCH_TEMPLATE;
  const filled = usable
    .replaceAll('{id}', record.recordId)
    .replaceAll('{slug}', slugOf(record.title))
    .replaceAll('{app}', slugOf(record.appName ?? ''));
  return refSafe(filled, record.recordId);
}

/**
 * `name` held to git check-ref-format's rules for a branch: no space, control character, `~ ^ : ? * [ \`,
 * `..` or `@{`; no part that starts with `.` or ends with `.lock`; no empty part, no `/` or `.` at the end;
 * not `-` first, not `@` alone. Separators left over by an empty placeholder (`42-`) go too. Falls back to
 * `fallback` (the record's id, itself made safe) when nothing is left.
 */
export function refSafe(name: string, fallback: string): string {
  const parts = name
    // Characters git refuses, and spaces, become the separator.
    // eslint-disable-next-line no-control-regex
    .replace(/[\x00-\x20\x7f~^:?*[\\]+/g, '-')
    .replaceAll('@{', '-')
    .split('/')
    .map((part) =>
      part
        .replace(/\.{2,}/g, '.')
        .replace(/-{2,}/g, '-')
        .replace(/^[.-]+/, '')
        .replace(/(\.lock)+$/i, '')
        .replace(/[.-]+$/, ''),
    )
    .filter((part) => part.length > 0);
  let safe = parts.join('/');
  if ([...safe].length > MAX_BRANCH_LENGTH) safe = refSafe([...safe].slice(0, MAX_BRANCH_LENGTH).join(''), fallback);
  if (safe === '' || safe === '@') return fallback === name ? 'record' : refSafe(fallback, fallback);
  return safe;
}
