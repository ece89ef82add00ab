// Value formats of the portal's create and update bodies (portal-api.md, "Column value formats"), one
// check per column kind and the conversions between the API's strings and JavaScript values. Pure: the
// document checks, the create-record form and the client share it, so a value refused here is the value
// the portal would refuse, and the message says what was expected and what was found.
import { columnKind, isWritable, type ColumnKind } from './columnKinds';
import { isEmail } from './email';
import { excerpt, htmlProblem } from './htmlCheck';
import type { Column, RecordData } from './types';

// ---------------------------------------------------------------------------------------------------------
// Conversions

/** A calendar date without a time zone. */
export interface DateParts {
  year: number;
  /** 1-12 */
  month: number;
  /** 1-31 */
  day: number;
}

/** The API's date, DD-MM-YYYY (groups day, month, year): its shape only, parseDate() checks the date. */
export const DATE = /^(\d{2})-(\d{2})-(\d{4})$/;
/** The API's date-time, DD-MM-YYYY hh:mm in UTC (groups day, month, year, hours, minutes): its shape only. */
export const DATE_TIME = /^(\d{2})-(\d{2})-(\d{4}) (\d{2}):(\d{2})$/;
const HOURS_MINUTES = /^(\d{2}):(\d{2})$/;

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

export function isRealDate({ year, month, day }: DateParts): boolean {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return false;
  return year >= 1 && year <= 9999 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** "21-11-2026" -> {year: 2026, month: 11, day: 21}; undefined unless DD-MM-YYYY and a real date. */
export function parseDate(text: string): DateParts | undefined {
  const match = DATE.exec(text);
  if (!match) return undefined;
  const parts = { day: Number(match[1]), month: Number(match[2]), year: Number(match[3]) };
  return isRealDate(parts) ? parts : undefined;
}

/** {year: 2026, month: 11, day: 21} -> "21-11-2026". Throws RangeError for a date that does not exist. */
export function formatDate(parts: DateParts): string {
  if (!isRealDate(parts)) throw new RangeError(`Not a date: ${parts.year}-${parts.month}-${parts.day}`);
  return `${pad(parts.day, 2)}-${pad(parts.month, 2)}-${pad(parts.year, 4)}`;
}

function parseHoursMinutes(hours: string, minutes: string): { hours: number; minutes: number } | undefined {
  const h = Number(hours);
  const m = Number(minutes);
  return h <= 23 && m <= 59 ? { hours: h, minutes: m } : undefined;
}

/** "21-11-2026 14:05" (UTC) -> the Date of that instant; undefined unless the format and the values fit. */
export function parseDateTime(text: string): Date | undefined {
  const match = DATE_TIME.exec(text);
  if (!match) return undefined;
  const parts = { day: Number(match[1]), month: Number(match[2]), year: Number(match[3]) };
  const time = parseHoursMinutes(match[4], match[5]);
  if (!isRealDate(parts) || !time) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(parts.year, parts.month - 1, parts.day);
  date.setUTCHours(time.hours, time.minutes, 0, 0);
  return date;
}

/** A Date -> "DD-MM-YYYY hh:mm" in UTC; seconds are dropped (the API has minutes only). */
export function formatDateTime(date: Date): string {
  if (Number.isNaN(date.getTime())) throw new RangeError('Not a date: Invalid Date');
  const day = formatDate({ year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() });
  return `${day} ${pad(date.getUTCHours(), 2)}:${pad(date.getUTCMinutes(), 2)}`;
}

/** Largest duration the format can carry: hh is a two-digit 24-hour value. */
export const MAX_DURATION_MINUTES = 23 * 60 + 59;

/** "01:30" -> 90; undefined unless hh:mm with hh 00-23 and mm 00-59. */
export function parseDuration(text: string): number | undefined {
  const match = HOURS_MINUTES.exec(text);
  const time = match && parseHoursMinutes(match[1], match[2]);
  return time ? time.hours * 60 + time.minutes : undefined;
}

/** 90 -> "01:30". Throws RangeError outside 0..MAX_DURATION_MINUTES or for a fraction of a minute. */
export function formatDuration(minutes: number): string {
  if (!Number.isInteger(minutes) || minutes < 0 || minutes > MAX_DURATION_MINUTES) {
    throw new RangeError(`A duration must be whole minutes from 0 to ${MAX_DURATION_MINUTES} (23:59), got ${minutes}`);
  }
  return `${pad(Math.floor(minutes / 60), 2)}:${pad(minutes % 60, 2)}`;
}

/** Plain decimal notation: an optional minus, digits, an optional fraction. No exponent, no grouping, no +. */
const NUMBER = /^-?(?:\d+(?:\.\d+)?|\.\d+)$/;

/** "12.5" -> 12.5; undefined for anything that is not a plain decimal number. */
export function parseNumber(text: string): number | undefined {
  if (!NUMBER.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/** 12.5 -> "12.5"; never an exponent (1e21 -> "1000000000000000000000"), which the API may not read. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`Not a finite number: ${value}`);
  const text = String(value);
  const exponent = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!exponent) return text;
  const [, sign, lead, fraction = '', power] = exponent;
  const digits = lead + fraction;
  const point = 1 + Number(power);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** "a@x.org, b@y.org" -> ["a@x.org", "b@y.org"] (items trimmed, empty items dropped). */
export function parseUsers(text: string): string[] {
  return splitList(text);
}

/** ["a@x.org", "b@y.org"] -> "a@x.org,b@y.org". */
export function formatUsers(emails: readonly string[]): string {
  return emails
    .map((email) => email.trim())
    .filter((email) => email !== '')
    .join(',');
}

function splitList(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

// ---------------------------------------------------------------------------------------------------------
// Checks

// Phone: "any alphanumeric string", with the separators people type (emulator README: phone).
const PHONE = /^[A-Za-z0-9 +()./-]+$/;

export function isPhone(text: string): boolean {
  return PHONE.test(text) && /[A-Za-z0-9]/.test(text);
}

/** http(s) with "//" and a host: "http:example.com" parses as a URL but is not one anyone means. */
export function isUrl(text: string): boolean {
  if (/\s/.test(text) || !/^https?:\/\/[^/?#]/i.test(text)) return false;
  try {
    return new URL(text).hostname !== '';
  } catch {
    return false;
  }
}

function choiceList(column: Column): string {
  const choices = Array.isArray(column.choices) ? column.choices : [];
  if (choices.length === 0) return 'none';
  return [...choices]
    .sort((a, b) => Number(a.order) - Number(b.order))
    .map((choice) => `${choice.id} ${choice.name}`)
    .join(', ');
}

function isMultiSelect(column: Column): boolean {
  return column.choice_type === '2';
}

/** The ids of a column's choices, by its list of choices: an import checks every row's cell against the same list. */
const choiceIds = new WeakMap<readonly unknown[], ReadonlySet<string>>();
const NO_CHOICES: ReadonlySet<string> = new Set();

export function choiceIdsOf(column: Column): ReadonlySet<string> {
  const list = column.choices;
  if (!Array.isArray(list)) return NO_CHOICES;
  let ids = choiceIds.get(list);
  if (!ids) {
    ids = new Set(list.map((choice) => String(choice.id)));
    choiceIds.set(list, ids);
  }
  return ids;
}

/** Whether every item is a choice id and none comes twice (lists are short: pairs compared, no Set built). */
function knownOnce(items: readonly string[], ids: ReadonlySet<string>): boolean {
  for (let index = 0; index < items.length; index += 1) {
    if (!ids.has(items[index])) return false;
    for (let earlier = 0; earlier < index; earlier += 1) if (items[earlier] === items[index]) return false;
  }
  return true;
}

function checkChoice(column: Column, value: string): string | undefined {
  const ids = choiceIdsOf(column);
  // Ids exactly as the portal lists them: no spaces, in a multi-select no spaces after the commas either.
  const given = isMultiSelect(column) ? value.split(',') : undefined;
  // The usual case (every row of an import) without the arrays the message below is built from.
  if (given === undefined ? ids.has(value) : knownOnce(given, ids)) return undefined;
  return choiceProblem(column, value, given ?? [value], ids);
}

function choiceProblem(column: Column, value: string, given: readonly string[], ids: ReadonlySet<string>): string | undefined {
  const wrong = given.filter((id) => !ids.has(id));
  if (wrong.length > 0) {
    const shown = wrong.map((id) => (id === '' ? '(empty item)' : excerpt(id))).join(', ');
    const spaces = wrong.some((id) => id.trim() !== id && ids.has(id.trim())) ? ' (no spaces around the ids)' : '';
    return `not one of the choices: ${shown}${spaces} (choices: ${choiceList(column)})`;
  }
  if (new Set(given).size !== given.length) return `names a choice twice: ${excerpt(value)}`;
  return undefined;
}

function checkUsers(value: string): string | undefined {
  const wrong = value.split(',').find((item) => !isEmail(item));
  if (wrong === undefined) return undefined;
  const first =
    wrong === ''
      ? 'an empty item'
      : wrong.trim() !== wrong && isEmail(wrong.trim())
        ? `"${wrong}" (no spaces after the commas)`
        : excerpt(wrong);
  return `expected comma-separated e-mail addresses, got ${first}`;
}

function readOnlyMessage(column: Column): string {
  return `read-only (${column.type_name || 'unknown kind'}): it cannot be set through the API`;
}

const CHECKS: Record<ColumnKind, (value: string, column: Column) => string | undefined> = {
  text: () => undefined,
  multiline: (value) => {
    const problem = htmlProblem(value);
    return problem && `expected valid HTML: ${problem}`;
  },
  email: (value) => (isEmail(value) ? undefined : `expected an e-mail address like name@example.com, got ${excerpt(value)}`),
  phone: (value) => (isPhone(value) ? undefined : `expected a phone number (letters, digits, spaces, + - . / ( )), got ${excerpt(value)}`),
  url: (value) => (isUrl(value) ? undefined : `expected a URL like https://example.com, got ${excerpt(value)}`),
  number: (value) => (parseNumber(value) !== undefined ? undefined : `expected a number like 12 or -3.5, got ${excerpt(value)}`),
  currency: (value) => {
    if (parseNumber(value) !== undefined) return undefined;
    if (parseNumber(value.replace(/^[+-]?\s*\p{Sc}\s*|\s*\p{Sc}$/gu, '').trim()) !== undefined) {
      return `expected a number without a currency symbol, got ${excerpt(value)}`;
    }
    return `expected an amount like 1200.50 (no currency symbol), got ${excerpt(value)}`;
  },
  // One match each, not a test then parseDate()/parseDateTime() matching again and building a Date: the
  // same verdict (a real date; hours 00-23, minutes 00-59) for every date of an import.
  date: (value) => {
    const match = DATE.exec(value);
    if (!match) return `expected DD-MM-YYYY, got ${excerpt(value)}`;
    return isRealDate({ day: Number(match[1]), month: Number(match[2]), year: Number(match[3]) })
      ? undefined
      : `not a real date: ${value} (expected DD-MM-YYYY)`;
  },
  datetime: (value) => {
    const match = DATE_TIME.exec(value);
    if (!match) return `expected DD-MM-YYYY hh:mm (UTC), got ${excerpt(value)}`;
    const real =
      isRealDate({ day: Number(match[1]), month: Number(match[2]), year: Number(match[3]) }) &&
      parseHoursMinutes(match[4], match[5]) !== undefined;
    return real ? undefined : `not a real date and time: ${value} (expected DD-MM-YYYY hh:mm, 24-hour, UTC)`;
  },
  duration: (value) => {
    if (!HOURS_MINUTES.test(value)) return `expected hh:mm, got ${excerpt(value)}`;
    return parseDuration(value) !== undefined ? undefined : `not a duration: ${value} (expected hh:mm, hh 00-23, mm 00-59)`;
  },
  choice: (value, column) => checkChoice(column, value),
  user: (value) => checkUsers(value),
  autonumber: (_value, column) => readOnlyMessage(column),
  lookup: (_value, column) => readOnlyMessage(column),
  unknown: (_value, column) => readOnlyMessage(column),
};

/**
 * Why `value` is not acceptable for `column`, or undefined when it is. The empty string is acceptable for
 * every writable kind (it clears the field); whether a field is required is checked by missingRequired().
 */
export function checkValue(column: Column, value: string): string | undefined {
  return checkerFor(column)(value);
}

/** checkValue() for `column`, its kind looked up once: an import checks a column's cell in every row. */
export function checkerFor(column: Column): (value: string) => string | undefined {
  const check = CHECKS[columnKind(column)];
  const clears = isWritable(column);
  return (value) => (value === '' && clears ? undefined : check(value, column));
}

/** A short description of the expected format, for placeholders and hovers. */
export function formatHint(column: Column): string {
  switch (columnKind(column)) {
    case 'text':
      return 'any text';
    case 'multiline':
      return 'text or HTML';
    case 'email':
      return 'name@example.com';
    case 'phone':
      return 'a phone number, e.g. +44 20 7946 0000';
    case 'url':
      return 'https://example.com';
    case 'number':
      return 'a number, e.g. 12 or -3.5';
    case 'currency': {
      const symbol = typeof column.currency_symbol === 'string' && column.currency_symbol ? ` (shown as ${column.currency_symbol})` : '';
      return `an amount without currency symbol, e.g. 1200.50${symbol}`;
    }
    case 'date':
      return 'DD-MM-YYYY';
    case 'datetime':
      return 'DD-MM-YYYY hh:mm (UTC)';
    case 'duration':
      return 'hh:mm';
    case 'choice':
      return `${isMultiSelect(column) ? 'comma-separated choice ids' : 'a choice id'}: ${choiceList(column)}`;
    case 'user':
      return 'comma-separated e-mail addresses';
    default:
      return 'read-only';
  }
}

function isRequired(column: Column): boolean {
  return column.required === '1';
}

/**
 * field_id_in_data of every required, writable column that `data` leaves out or empty. Only "" is empty:
 * the emulator (and the documentation) do not trim, so "  " is a value.
 */
export function missingRequired(columns: readonly Column[], data: RecordData): string[] {
  return columns
    .filter((column) => isRequired(column) && isWritable(column))
    .filter((column) => (data[column.field_id_in_data] ?? '') === '')
    .map((column) => column.field_id_in_data);
}

export interface FieldProblem {
  /** The field_id_in_data at fault. */
  field: string;
  message: string;
}

/**
 * Everything the portal would refuse in a create (`creating`) or update body: unknown fields, read-only
 * fields, values the formats table rejects and, when creating, required fields left out. In `data` order,
 * then the missing fields in column order.
 */
export function checkRecord(columns: readonly Column[], data: RecordData, options: { creating: boolean }): FieldProblem[] {
  const byKey = new Map(columns.map((column) => [column.field_id_in_data, column]));
  const problems: FieldProblem[] = [];
  for (const [field, value] of Object.entries(data)) {
    const column = byKey.get(field);
    if (!column) {
      problems.push({ field, message: 'unknown field: the app has no column with this field_id_in_data' });
      continue;
    }
    const problem = checkValue(column, value);
    if (problem) problems.push({ field, message: problem });
  }
  // Creating: required fields left out or empty. Updating: only those the update would clear.
  const missing = missingRequired(columns, data).filter((field) => options.creating || data[field] !== undefined);
  for (const field of missing) {
    if (problems.some((problem) => problem.field === field)) continue;
    problems.push({ field, message: `required: ${byKey.get(field)?.field_name || field} must have a value` });
  }
  return problems;
}

export { htmlProblem } from './htmlCheck';
