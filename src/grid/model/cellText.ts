// Text as people paste and copy it, per column kind, to and from the API's value formats: choices by name or
// id, dates in the user's date order or DD-MM-YYYY, date & time entered local and sent UTC (the form's
// conversion, src/shared/enteredValues.ts), numbers with the locale's separators, currency with its symbol.
// What a conversion yields is then checked by the rules of documents and the form (cellRules.ts): this file
// only reads what was meant, it never decides what is acceptable.
import { columnKind } from '../../api/columnKinds';
import { formatDate, formatUsers, type DateParts } from '../../api/formats';
import type { Column } from '../../api/types';
import { durationFromInput, localFromUtc, utcFromLocal, type UtcOffset } from '../../shared/enteredValues';
import { timeZoneProblem, zonedToUtc } from '../../import/zonedTime';
import { choiceText } from '../values';

/** The order of day, month and year in the user's locale ("21/11/2026" is DMY, "11/21/2026" MDY). */
export type DateOrder = 'DMY' | 'MDY' | 'YMD';

export interface TextOptions {
  dateOrder: DateOrder;
  /** The user's offset from UTC for date & time (see UtcOffset); undefined: this JavaScript's time zone. */
  utcOffset?: UtcOffset;
  /** The locale's decimal separator; the other of "." and "," is then read as a group separator. */
  decimalSeparator?: '.' | ',';
}

/**
 * The offset of an IANA time zone (the page's, which shows and edits date & time in it) for the times a
 * paste reads and a copy writes; undefined (this JavaScript's zone) when none or an unknown one is given.
 */
export function zoneOffset(timeZone: string | undefined): UtcOffset {
  if (!timeZone || timeZoneProblem(timeZone)) return undefined;
  return (local) =>
    (Date.UTC(local.year, local.month - 1, local.day, local.hours, local.minutes) - zonedToUtc(local, timeZone).getTime()) / 60_000;
}

/** The date order of a BCP 47 locale, as Intl formats a date in it ("en-US" -> MDY, "de" -> DMY). */
export function dateOrderOf(locale: string | undefined): DateOrder {
  const parts = new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(
    new Date(Date.UTC(2026, 10, 21)),
  );
  const order = parts
    .filter((part) => part.type === 'day' || part.type === 'month' || part.type === 'year')
    .map((part) => part.type[0].toUpperCase())
    .join('');
  return order === 'MDY' || order === 'YMD' ? order : 'DMY';
}

/** The decimal separator of a locale ("de" -> ","). */
export function decimalSeparatorOf(locale: string | undefined): '.' | ',' {
  return new Intl.NumberFormat(locale).formatToParts(1.5).find((part) => part.type === 'decimal')?.value === ',' ? ',' : '.';
}

/** A value for the cell in the API's format, or why the text could not be read as one. */
export type Conversion = { value: string; problem?: undefined } | { value?: undefined; problem: string };

const EXCERPT = 40;

function shown(text: string): string {
  const line = text.replace(/\s+/g, ' ');
  return JSON.stringify(line.length > EXCERPT ? `${line.slice(0, EXCERPT - 1)}…` : line);
}

// Dates: the API's DD-MM-YYYY (dashes) and ISO YYYY-MM-DD are read whatever the locale; with "/", "." or a
// space the numbers are read in the locale's order. Two-digit years are refused: 26 is not a year to guess.
const API_DATE = /^(\d{1,2})-(\d{1,2})-(\d{4})$/;
const ISO_DATE = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
const LOCALE_DATE = /^(\d{1,4})[/. ](\d{1,2})[/. ](\d{1,4})\.?$/;

function dateParts(text: string, order: DateOrder): DateParts | undefined {
  let match = API_DATE.exec(text);
  if (match) return { day: Number(match[1]), month: Number(match[2]), year: Number(match[3]) };
  match = ISO_DATE.exec(text);
  if (match) return { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  match = LOCALE_DATE.exec(text);
  if (!match) return undefined;
  const [a, b, c] = [match[1], match[2], match[3]];
  const parts =
    order === 'YMD' ? { year: a, month: b, day: c } : order === 'MDY' ? { month: a, day: b, year: c } : { day: a, month: b, year: c };
  if (parts.year.length !== 4 || parts.day.length > 2 || parts.month.length > 2) return undefined;
  return { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day) };
}

function dateExample(order: DateOrder): string {
  return order === 'MDY' ? '11/21/2026' : order === 'YMD' ? '2026/11/21' : '21/11/2026';
}

const ORDER_NAMES: Record<DateOrder, string> = { DMY: 'day/month/year', MDY: 'month/day/year', YMD: 'year/month/day' };

function readDate(text: string, options: TextOptions): Conversion {
  const parts = dateParts(text, options.dateOrder);
  if (parts) {
    try {
      return { value: formatDate(parts) };
    } catch {
      const order = LOCALE_DATE.test(text) ? ` (read as ${ORDER_NAMES[options.dateOrder]})` : '';
      return { problem: `not a real date: ${shown(text)}${order}` };
    }
  }
  return { problem: `expected a date as DD-MM-YYYY or ${dateExample(options.dateOrder)}, got ${shown(text)}` };
}

const TIME = /^(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?$/;

function readDateTime(text: string, options: TextOptions): Conversion {
  const split = /^(\S+)(?:\s+|T)(.+)$/.exec(text);
  const date = split ? dateParts(split[1], options.dateOrder) : undefined;
  const time = split ? TIME.exec(split[2].trim()) : null;
  if (!date || !time)
    return { problem: `expected a local date and time as DD-MM-YYYY hh:mm or ${dateExample(options.dateOrder)} hh:mm, got ${shown(text)}` };
  let hours = Number(time[1]);
  const meridiem = time[4]?.toLowerCase();
  if (meridiem && (hours < 1 || hours > 12)) return { problem: `not a time: ${shown(split?.[2] ?? '')}` };
  if (meridiem === 'pm' && hours < 12) hours += 12;
  if (meridiem === 'am' && hours === 12) hours = 0;
  const utc = utcFromLocal({ ...date, hours, minutes: Number(time[2]) }, options.utcOffset);
  return utc ? { value: utc } : { problem: `not a real date and time: ${shown(text)}` };
}

/** "1.234,5" (decimal ",") or "1,234.5" (decimal ".") -> "1234.5"; grouping is read only where it is regular. */
function readNumber(text: string, decimal: '.' | ','): string {
  const group = decimal === '.' ? ',' : '.';
  let plain = text.replace(/[\s\u00a0\u202f']/g, '');
  const escapedGroup = group === '.' ? '\\.' : ',';
  const grouped = new RegExp(`^-?\\d{1,3}(?:${escapedGroup}\\d{3})+(?:\\${decimal}\\d+)?$`);
  if (grouped.test(plain)) plain = plain.split(group).join('');
  return decimal === ',' ? plain.replace(',', '.') : plain;
}

function readCurrency(text: string, column: Column, decimal: '.' | ','): string {
  const symbol = typeof column.currency_symbol === 'string' ? column.currency_symbol.trim() : '';
  let plain = text.trim();
  if (symbol && plain.includes(symbol)) plain = plain.replace(symbol, '');
  plain = plain.replace(/^(-?)\s*\p{Sc}\s*|\s*\p{Sc}$/u, '$1').trim();
  return readNumber(plain, decimal);
}

function readChoices(text: string, column: Column): Conversion {
  const choices = Array.isArray(column.choices) ? column.choices : [];
  const multi = column.choice_type === '2';
  const items = multi
    ? text
        .split(/[,;\n]/)
        .map((item) => item.trim())
        .filter((item) => item !== '')
    : [text.trim()];
  const ids: string[] = [];
  for (const item of items) {
    // Names first: they are what people see and copy; a name that is not there may still be an id.
    const lowered = item.toLocaleLowerCase();
    const found =
      choices.find((choice) => choice.name.trim().toLocaleLowerCase() === lowered) ?? choices.find((choice) => String(choice.id) === item);
    if (!found) {
      const names = [...choices].sort((a, b) => Number(a.order) - Number(b.order)).map((choice) => choice.name);
      return { problem: `not one of the choices: ${shown(item)} (choices: ${names.join(', ') || 'none'})` };
    }
    if (!ids.includes(String(found.id))) ids.push(String(found.id));
  }
  return { value: ids.join(',') };
}

/**
 * Pasted or typed text -> the value to put in the cell, in the API's format. Empty (or white space only, for
 * kinds other than text) clears the cell. The result still has to pass the cell's check.
 */
export function textToValue(column: Column, text: string, options: TextOptions): Conversion {
  const kind = columnKind(column);
  if (kind === 'text' || kind === 'multiline') return { value: text };
  const trimmed = text.trim();
  if (trimmed === '') return { value: '' };
  const decimal = options.decimalSeparator ?? '.';
  switch (kind) {
    case 'number':
      return { value: readNumber(trimmed, decimal) };
    case 'currency':
      return { value: readCurrency(trimmed, column, decimal) };
    case 'date':
      return readDate(trimmed, options);
    case 'datetime':
      return readDateTime(trimmed, options);
    case 'duration':
      return { value: durationFromInput(trimmed.replace(/^(\d{1,2}:\d{2}):00$/, '$1')) };
    case 'choice':
      return readChoices(trimmed, column);
    case 'user':
      return { value: formatUsers(trimmed.split(/[,;\s]+/)) };
    default:
      // email, phone, url as typed; read-only kinds are refused before conversion.
      return { value: trimmed };
  }
}

/** A value in the API's format -> the text a person reads and copies: choice names, local date & time. */
export function valueToText(column: Column | undefined, value: string, options: Pick<TextOptions, 'utcOffset'>): string {
  if (!column || value === '') return value;
  switch (columnKind(column)) {
    case 'choice':
      return choiceText(Array.isArray(column.choices) ? column.choices : [], value);
    case 'datetime':
      return localFromUtc(value, options.utcOffset);
    default:
      return value;
  }
}
