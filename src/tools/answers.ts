// Answers sized for a model: plain text lines, each value cut to a length, the whole cut to a number of
// characters with a last line that says what was left out. Choice ids become names, field ids carry their
// names, and failures become one sentence with the portal's own words. Nothing here can hold a token: the
// client's errors never carry one, and record values are the only other text.
import { columnKind, isWritable, kindName } from '../api/columnKinds';
import { isCancellation, isPortalError } from '../api/errors';
import { formatHint } from '../api/formats';
import type { Column } from '../api/types';
import { classifyFailure } from '../records/failures';
import { choiceText } from '../grid/values';
import { SIGN_IN_COMMAND_TITLE, SignInRefusal, ToolRefusal } from './host';
import { choiceNames, fieldLabel } from './resolve';

/** Characters of an answer; about 3,000 tokens. */
export const MAX_ANSWER_CHARS = 12_000;
/** Characters of one value in a row or a record. */
export const MAX_VALUE_CHARS = 200;

/** A value on one line, at most `max` characters, saying how long it was when cut. */
export function shortValue(value: string, max = MAX_VALUE_CHARS): string {
  const line = value.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}… (${line.length} characters)` : line;
}

/**
 * A value quoted as JSON, so that line breaks, tabs and quotes show as \n, \t and \"; line separators
 * and invisible format characters (which could move or hide what is shown around them) as \uXXXX.
 * Cut to `max` characters when given, saying how long it was.
 */
export function quotedText(value: string, max = Infinity): string {
  const cut = value.length > max;
  const shown = JSON.stringify(cut ? value.slice(0, max - 1) : value).replace(/[\p{Cf}\p{Zl}\p{Zp}\u0085]/gu, escapeInvisible);
  return cut ? `${shown}… (${value.length} characters)` : shown;
}

function escapeInvisible(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** The value as a person reads it: choice names instead of ids. */
export function shownValue(column: Column | undefined, raw: string): string {
  if (column && columnKind(column) === 'choice') return choiceText(column.choices ?? [], raw);
  return raw;
}

/**
 * `head` and as many of `lines` as fit in `maxChars`, then `tail(left)` when lines were left out (its
 * text is counted too, so the answer stays within the bound).
 */
export function bounded(
  head: readonly string[],
  lines: readonly string[],
  tail: (left: number) => string,
  maxChars = MAX_ANSWER_CHARS,
): string {
  return boundedTaking(head, lines, tail, maxChars).text;
}

/** bounded(), and how many of `lines` it took (whether the tail was added is `taken < lines.length`). */
export function boundedTaking(
  head: readonly string[],
  lines: readonly string[],
  tail: (left: number) => string,
  maxChars = MAX_ANSWER_CHARS,
): { text: string; taken: number } {
  const out = [...head];
  let used = out.join('\n').length;
  const reserve = tail(lines.length).length + 1;
  let taken = 0;
  for (const line of lines) {
    if (used + line.length + 1 + reserve > maxChars) break;
    out.push(line);
    used += line.length + 1;
    taken += 1;
  }
  if (taken < lines.length) out.push(tail(lines.length - taken));
  return { text: out.join('\n'), taken };
}

/** One column for describeApp: id, name, kind, format, and what the API can do with it. */
export function describeColumn(column: Column): string {
  const kind = columnKind(column);
  const parts = [`${fieldLabel(column)}: ${kindName(column)}`];
  if (kind === 'choice') {
    const several = column.choice_type === '2';
    parts.push(`${several ? 'several of' : 'one of'}: ${choiceNames(column).join(', ') || 'no choices'}`);
    const fallback = column.default_value ? (column.choices ?? []).find((choice) => choice.id === column.default_value)?.name : undefined;
    if (fallback) parts.push(`default ${fallback}`);
  } else if (!isWritable(column)) {
    parts.push('read-only (the portal fills it)');
    if (kind === 'lookup' && typeof column.lookup_app_id === 'string') parts.push(`shows a field of app ${column.lookup_app_id}`);
  } else if (kind !== 'text') {
    parts.push(formatHint(column));
  }
  if (column.required === '1') parts.push('required');
  if (column.unique_value === '1') parts.push('unique');
  if (column.field_description) parts.push(`"${shortValue(column.field_description, 120)}"`);
  return `- ${parts.join('; ')}`;
}

/** Whether an error says the user must sign in again. */
function signInRequired(error: unknown): boolean {
  return isPortalError(error) && (error.code === 'unauthorized' || error.status === 401);
}

/** The portal the user must sign in to, when that is what the failure is about (`portalId`: the call's). */
export function signInPortalOf(error: unknown, portalId: string | undefined): string | undefined {
  if (error instanceof SignInRefusal) return error.portalId;
  return signInRequired(error) ? portalId : undefined;
}

/**
 * The one sentence a failed tool answers: a refusal as it is; a portal's error with its own message and,
 * when it names a field, the field's name; a sign-in that expired naming the command. Never a stack,
 * a header or a token.
 */
export function failureText(error: unknown, context: { portalLabel?: string; columns?: readonly Column[] } = {}): string {
  if (error instanceof ToolRefusal) return error.message;
  if (isCancellation(error)) return 'The call was cancelled before the portal answered.';
  if (signInRequired(error)) {
    const portal = context.portalLabel ? `"${context.portalLabel}"` : 'the portal';
    return `The sign-in to ${portal} is no longer accepted: the user must sign in again with the command "${SIGN_IN_COMMAND_TITLE}" (portal.signIn).`;
  }
  if (isPortalError(error)) {
    const message = oneLine(error.message);
    const column = error.field ? context.columns?.find((item) => item.field_id_in_data === error.field) : undefined;
    const about = column && !message.includes(`(${column.field_name})`) ? ` The field is ${fieldLabel(column)}.` : '';
    const said = error.portalMessage ? oneLine(error.portalMessage) : '';
    const portalWords = said && !message.includes(said) ? ` The portal said: ${said}` : '';
    const { verdict } = classifyFailure(error);
    const retry = verdict === 'not-taken' || verdict === 'may-have-been-done' ? ' Trying again later may help.' : '';
    return `${message}${portalWords}${about}${retry}`;
  }
  return error instanceof Error && error.message ? oneLine(error.message) : 'The tool failed for an unknown reason.';
}

/** A portal's message may hold line breaks (an HTML error page, a list): the answer stays one sentence. */
function oneLine(text: string): string {
  return text.replace(/\s*[\r\n\u2028\u2029]+\s*/g, ' ').trim();
}
