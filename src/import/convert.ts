// Values as files hold them to values as the portal takes them, by column kind: ISO dates to DD-MM-YYYY,
// date-times of the file's time zone to UTC, choices by name to their ids, e-mail lists to the API's list,
// numbers with a decimal comma to a decimal point. Conversion only rewrites what it recognises; whether the
// result is acceptable is decided by the one rule book, src/api/formats.ts (checkValue), so a value the
// import accepts is one the record document and the form accept, with the same message when it is not.
import { columnKind } from '../api/columnKinds';
import { DATE, DATE_TIME, checkerFor, choiceIdsOf, formatDateTime, formatHint, formatUsers, isRealDate } from '../api/formats';
import type { Column } from '../api/types';
import { utcMs, zonedToUtc } from './zonedTime';

export type DecimalSeparator = '.' | ',';

export interface ConversionOptions {
  /** The IANA time zone of the file's date-times without an offset; default UTC. */
  timeZone?: string;
  /** The file's decimal separator; default '.' (detectDecimalSeparator() reads it from sample values). */
  decimalSeparator?: DecimalSeparator;
}

export type Conversion =
  { value: string; problem?: undefined; expected?: undefined } | { value?: undefined; problem: string; expected: string };

/** convertValue() for one column and options: what depends only on them is resolved once, not per cell. */
export type Converter = (raw: string) => Conversion;

const pad = (value: number | string, width: number): string => String(value).padStart(width, '0');

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * A time of exactly midnight, in UTC or without a zone, after a date: spreadsheets and JSON exports write
 * a date that way. Midnight at another offset is another day in UTC, so it is not taken for a date.
 */
const ZERO_TIME = /[T ]00:00(?::00(?:\.0+)?)?(?:Z|[+-]00:?00)?$/i;
const NOT_DIGITS = /[^\d]/g;
/** The offsets that are UTC itself. */
const ZERO_OFFSET = /^(?:Z|[+-]00:?00)$/i;

/**
 * "2026-11-21" -> "21-11-2026", and a date written as midnight ("2026-11-21T00:00:00Z", "21-11-2026 00:00")
 * to the date; anything else unchanged (the check then says what was expected).
 */
function convertDate(text: string): string {
  const day = ZERO_TIME.test(text) ? text.replace(ZERO_TIME, '') : text;
  const iso = ISO_DATE.exec(day);
  if (iso) return `${iso[3]}-${iso[2]}-${iso[1]}`;
  return day !== text && DATE.test(day) ? day : text;
}

/**
 * "21-11-2026 14:05" or ISO 8601 ("2026-11-21T14:05", "…:30Z", "…+01:00", a date alone = midnight) to
 * "DD-MM-YYYY hh:mm" in UTC; a time without an offset is read in `timeZone`. Unrecognised: unchanged.
 */
function convertDateTime(text: string, timeZone: string): string {
  let clock: { year: number; month: number; day: number; hours: number; minutes: number; seconds: number } | undefined;
  let offset: string | undefined;
  // Each form is tried only when the one before did not match (a file's cells are all of one form).
  const api = DATE_TIME.exec(text);
  const iso = api ? null : ISO_DATE_TIME.exec(text);
  const isoDate = api || iso ? null : ISO_DATE.exec(text);
  if (api) clock = { day: +api[1], month: +api[2], year: +api[3], hours: +api[4], minutes: +api[5], seconds: 0 };
  else if (iso) {
    clock = { year: +iso[1], month: +iso[2], day: +iso[3], hours: +iso[4], minutes: +iso[5], seconds: +(iso[6] ?? 0) };
    offset = iso[7];
  } else if (isoDate) clock = { year: +isoDate[1], month: +isoDate[2], day: +isoDate[3], hours: 0, minutes: 0, seconds: 0 };
  // Out-of-range parts are left for the check, in the API's format, so its message names them.
  if (!clock || !isRealDate(clock) || clock.hours > 23 || clock.minutes > 59 || clock.seconds > 59) {
    return clock ? wallClockText(clock) : text;
  }
  if (offset === undefined && timeZone === 'UTC' && api) return text;
  // A time in UTC is written as it is, without a Date and Intl (an import converts one per row).
  const inUtc = offset === undefined ? timeZone === 'UTC' : ZERO_OFFSET.test(offset);
  if (inUtc) return wallClockText(clock);
  let instant: Date;
  if (offset === undefined) instant = zonedToUtc(clock, timeZone);
  else {
    const sign = offset.startsWith('-') ? -1 : 1;
    const digits = offset.replace(NOT_DIGITS, '');
    const minutes = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2)));
    instant = new Date(utcMs(clock.year, clock.month, clock.day, clock.hours, clock.minutes, clock.seconds) - minutes * 60_000);
  }
  const year = instant.getUTCFullYear();
  if (year < 1 || year > 9999) throw new OutOfRange('it falls outside the years 0001-9999 in UTC, which the portal cannot hold');
  return formatDateTime(instant);
}

/** A cell that reads well but names what the portal cannot hold: a problem of its row (converterFor). */
class OutOfRange extends RangeError {}

/** The API's "DD-MM-YYYY hh:mm" of a wall clock's parts (seconds dropped, as the API has minutes only). */
function wallClockText(clock: { year: number; month: number; day: number; hours: number; minutes: number }): string {
  return `${pad(clock.day, 2)}-${pad(clock.month, 2)}-${pad(clock.year, 4)} ${pad(clock.hours, 2)}:${pad(clock.minutes, 2)}`;
}

// The first group never starts with 0: "0,125" is a decimal (or refused), never 125.
const GROUPED_POINT = /^-?[1-9]\d{0,2}(?:,\d{3})+(?:\.\d+)?$/;
const GROUPED_COMMA = /^-?[1-9]\d{0,2}(?:\.\d{3})+(?:,\d+)?$/;
const SPACE_GROUPS = /^(-?[1-9]\d{0,2})((?:[ \u00a0\u202f']\d{3})+)([.,]\d+)?$/;

/**
 * A number as written with `separator` as the decimal mark to the API's plain decimal. Thousands groups
 * are removed only where they are unmistakable (1,234,567.5 / 1.234,5 / 1 234,5), so "1,5" with a point
 * separator stays "1,5" and is refused, never read as 15. A leading "+" goes (the API refuses it).
 */
export function convertNumber(text: string, separator: DecimalSeparator): string {
  let value = text.trim().replace(/^\+(?=[\d.,])/, '');
  const spaced = SPACE_GROUPS.exec(value);
  if (spaced) value = `${spaced[1]}${spaced[2].replace(/[^\d]/g, '')}${spaced[3] ?? ''}`;
  if (separator === '.') return GROUPED_POINT.test(value) ? value.replace(/,/g, '') : value;
  if (GROUPED_COMMA.test(value)) return value.replace(/\./g, '').replace(',', '.');
  return /^-?\d*,\d+$/.test(value) ? value.replace(',', '.') : value;
}

/**
 * The decimal separator most sample values use: "3,5", "0,125" and "1.234,50" vote comma, "3.5", "0.125"
 * and "1,234.50" vote point, "1,234" and "12" say nothing. A tie is a point.
 */
export function detectDecimalSeparator(samples: Iterable<string>): DecimalSeparator {
  let comma = 0;
  let point = 0;
  for (const raw of samples) {
    const text = raw.trim();
    if (/^-?[1-9]\d{0,2}[.,]\d{3}$/.test(text)) continue; // 1,234 or 1.234: either reading works
    if (/^-?[\d.]*\d,\d+$/.test(text)) comma += 1;
    else if (/^-?[\d,]*\d\.\d+$/.test(text)) point += 1;
  }
  return comma > point ? ',' : '.';
}

/** A column's choices by id and by name (lower case, trimmed; a name two choices share finds neither). */
interface ChoiceIndex {
  ids: ReadonlySet<string>;
  byName: ReadonlyMap<string, string | undefined>;
}

// Built once per column: an import converts every row's choice cells against the same list.
const choiceIndexes = new WeakMap<Column, ChoiceIndex>();

function choiceIndex(column: Column): ChoiceIndex {
  let index = choiceIndexes.get(column);
  if (!index) {
    const list = Array.isArray(column.choices) ? column.choices : [];
    const byName = new Map<string, string | undefined>();
    for (const choice of list) {
      const name = choice.name.trim().toLowerCase();
      byName.set(name, byName.has(name) ? undefined : String(choice.id));
    }
    index = { ids: choiceIdsOf(column), byName };
    choiceIndexes.set(column, index);
  }
  return index;
}

/** One choice by id, else by name (case and surrounding spaces ignored); unknown items stay as given. */
function choiceId({ ids, byName }: ChoiceIndex, item: string): string {
  const text = item.trim();
  if (ids.has(text)) return text;
  return byName.get(text.toLowerCase()) ?? text;
}

/** The cell's choice ids; a multi-select's items are separated by commas (or semicolons, as spreadsheets join lists). */
function convertChoice(index: ChoiceIndex, multiple: boolean, text: string): string {
  if (!multiple) return choiceId(index, text);
  const items = splitList(text);
  let ids = choiceId(index, items[0]);
  for (let item = 1; item < items.length; item += 1) ids += `,${choiceId(index, items[item])}`;
  return ids;
}

/** text.split(/[,;]/) without a regular expression's split, which costs several times more per cell. */
function splitList(text: string): string[] {
  const items: string[] = [];
  let start = 0;
  for (let at = 0; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if (code === 44 || code === 59) {
      items.push(text.slice(start, at));
      start = at + 1;
    }
  }
  items.push(text.slice(start));
  return items;
}

/**
 * What the import expects in a cell of `column`: formatHint's text, but a date-time is read in the file's
 * time zone and as ISO 8601 too (convertDateTime), where the API's own format is UTC.
 */
export function expectedFormat(column: Column, options: ConversionOptions = {}): string {
  if (columnKind(column) !== 'datetime') return formatHint(column);
  const zone = options.timeZone === undefined ? 'in UTC' : `in the file's time zone (${options.timeZone})`;
  return `DD-MM-YYYY hh:mm or ISO 8601, ${zone} unless it carries an offset`;
}

/** The value to send for `raw`, or why it cannot be sent and what was expected. */
export function convertValue(column: Column, raw: string, options: ConversionOptions = {}): Conversion {
  return cellConverter(column, options)(raw);
}

/**
 * convertValue() for every cell of `column`: its kind, check and choices looked up once, and for the
 * kinds whose cells repeat down a file, each distinct cell converted once.
 */
export function converterFor(column: Column, options: ConversionOptions = {}): Converter {
  const convert = cellConverter(column, options);
  const kind = columnKind(column);
  if (kind !== 'choice' && kind !== 'user' && kind !== 'date') return convert;
  // Choices and owners repeat a handful of cells down a file: each distinct cell is converted and checked
  // once (the result depends on the cell alone). Bounded, for a file of all different cells.
  const known = new Map<string, Conversion>();
  return (raw) => {
    let conversion = known.get(raw);
    if (conversion === undefined) {
      conversion = convert(raw);
      if (known.size < KNOWN_CELLS) known.set(raw, conversion);
    }
    return conversion;
  };
}

function cellConverter(column: Column, options: ConversionOptions): Converter {
  const rewrite = rewriterFor(column, options);
  const check = checkerFor(column);
  return (raw: string): Conversion => {
    let value: string;
    try {
      value = rewrite(raw);
    } catch (error) {
      if (error instanceof OutOfRange) return { problem: `"${raw}": ${error.message}`, expected: expectedFormat(column, options) };
      throw error;
    }
    const problem = check(value);
    if (problem === undefined) return { value };
    return { problem: value === raw ? problem : `${problem} (read from "${raw}")`, expected: expectedFormat(column, options) };
  };
}

/** How many distinct cells a choice or user column's converter keeps the conversion of. */
const KNOWN_CELLS = 1000;

const SHORT_DURATION = /^\d:\d{2}$/;

/** What conversion rewrites a cell of `column` to, by its kind; the check then judges the result. */
function rewriterFor(column: Column, options: ConversionOptions): (raw: string) => string {
  switch (columnKind(column)) {
    case 'text':
    case 'multiline':
      return (raw) => raw; // as typed: leading spaces and line breaks may be meant
    case 'date':
      return (raw) => convertDate(raw.trim());
    case 'datetime': {
      const timeZone = options.timeZone ?? 'UTC';
      return (raw) => convertDateTime(raw.trim(), timeZone);
    }
    case 'duration':
      return (raw) => {
        const trimmed = raw.trim();
        return SHORT_DURATION.test(trimmed) ? `0${trimmed}` : trimmed;
      };
    case 'number':
    case 'currency': {
      const separator = options.decimalSeparator ?? '.';
      return (raw) => convertNumber(raw.trim(), separator);
    }
    case 'choice': {
      const index = choiceIndex(column);
      const multiple = column.choice_type === '2';
      return (raw) => {
        const trimmed = raw.trim();
        return trimmed === '' ? '' : convertChoice(index, multiple, trimmed);
      };
    }
    case 'user':
      return (raw) => {
        const trimmed = raw.trim();
        // One address (the usual cell) is what formatUsers would make of it: itself.
        return trimmed.includes(',') || trimmed.includes(';') ? formatUsers(splitList(trimmed)) : trimmed;
      };
    default:
      return (raw) => raw.trim();
  }
}
