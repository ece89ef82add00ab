// Validation of values in create and update bodies, one rule per kind of the value-formats table. Written
// independently of src/api/formats.ts on purpose: two implementations let each check the other. The exact
// rules are in README.md ("Value formats").
import { htmlProblem } from './html';
import type { ColumnDef } from './model';

const NUMBER = /^-?(?:\d+(?:\.\d+)?|\.\d+)$/;
const DATE = /^(\d{2})-(\d{2})-(\d{4})$/;
const DATE_TIME = /^(\d{2})-(\d{2})-(\d{4}) (\d{2}):(\d{2})$/;
const DURATION = /^(\d{2}):(\d{2})$/;
const PHONE = /^[A-Za-z0-9 +\-()./]+$/;
const EMAIL_LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

export function isNumber(value: string): boolean {
  return NUMBER.test(value);
}

function daysInMonth(month: number, year: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function isCalendarDate(day: string, month: string, year: string): boolean {
  const d = Number(day);
  const m = Number(month);
  const y = Number(year);
  return y >= 1 && m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(m, y);
}

const isTime = (hours: string, minutes: string): boolean => Number(hours) <= 23 && Number(minutes) <= 59;

/** YYYYMMDD as a number, or undefined for anything but a real DD-MM-YYYY date. */
export function dateKey(value: string): number | undefined {
  const m = DATE.exec(value);
  if (!m || !isCalendarDate(m[1], m[2], m[3])) return undefined;
  return Number(m[3] + m[2] + m[1]);
}

/** YYYYMMDDhhmm as a number, or undefined for anything but a real DD-MM-YYYY hh:mm. */
export function dateTimeKey(value: string): number | undefined {
  const m = DATE_TIME.exec(value);
  if (!m || !isCalendarDate(m[1], m[2], m[3]) || !isTime(m[4], m[5])) return undefined;
  return Number(m[3] + m[2] + m[1] + m[4] + m[5]);
}

/** Minutes of an hh:mm duration, or undefined. */
export function durationMinutes(value: string): number | undefined {
  const m = DURATION.exec(value);
  if (!m || !isTime(m[1], m[2])) return undefined;
  return Number(m[1]) * 60 + Number(m[2]);
}

export function isEmail(value: string): boolean {
  if (value.length > 254) return false;
  const at = value.lastIndexOf('@');
  if (at <= 0 || at > 64) return false;
  const labels = value.slice(at + 1).split('.');
  return (
    EMAIL_LOCAL.test(value.slice(0, at)) &&
    labels.length >= 2 &&
    labels.every((label) => DOMAIN_LABEL.test(label)) &&
    /^[A-Za-z]{2,}$/.test(labels[labels.length - 1])
  );
}

export function isUrl(value: string): boolean {
  if (/\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0 && /^https?:\/\/[^/?#]/i.test(value);
  } catch {
    return false;
  }
}

function choiceProblem(column: ColumnDef, value: string): string | undefined {
  const ids = new Set((column.choices ?? []).map((choice) => choice.id));
  const known = [...ids].join(', ');
  if (column.choiceType !== '2') return ids.has(value) ? undefined : `needs the id of one of its choices (${known})`;
  const items = value.split(',');
  if (!items.every((item) => ids.has(item))) return `needs comma-separated ids of its choices (${known}), without spaces`;
  if (new Set(items).size !== items.length) return 'names a choice twice';
  return undefined;
}

/**
 * Why `value` is not acceptable for `column` (a phrase to follow the field's name), or undefined when it is.
 * The empty string clears a value and is accepted for every kind; whether the field may be empty is the
 * caller's business (required fields).
 */
export function valueProblem(column: ColumnDef, value: string): string | undefined {
  if (value === '') return undefined;
  switch (column.kind) {
    case 'text':
      return undefined;
    case 'multiline': {
      const problem = htmlProblem(value);
      return problem ? `needs valid HTML: ${problem}` : undefined;
    }
    case 'email':
      return isEmail(value) ? undefined : 'needs a valid e-mail address';
    case 'phone':
      return PHONE.test(value) && /[A-Za-z0-9]/.test(value)
        ? undefined
        : 'needs a phone number: letters, digits, spaces and + - ( ) . / only';
    case 'url':
      return isUrl(value) ? undefined : 'needs a valid http or https URL with a host';
    case 'number':
      return isNumber(value) ? undefined : 'needs a number such as 42, -12.5 or 0.25 (no exponent, no thousands separator)';
    case 'currency':
      return isNumber(value) ? undefined : 'needs an amount such as 1250 or 99.95, without currency symbol or separators';
    case 'date':
      return dateKey(value) === undefined ? 'needs a real calendar date as DD-MM-YYYY' : undefined;
    case 'datetime':
      return dateTimeKey(value) === undefined ? 'needs a real date and time as DD-MM-YYYY hh:mm (24-hour, UTC)' : undefined;
    case 'duration':
      return durationMinutes(value) === undefined ? 'needs a duration as hh:mm (hh 00-23, mm 00-59)' : undefined;
    case 'choice':
      return choiceProblem(column, value);
    case 'user':
      return value.split(',').every(isEmail) ? undefined : 'needs comma-separated valid e-mail addresses, without spaces';
    case 'autonumber':
    case 'lookup':
      return 'is read-only';
  }
}
