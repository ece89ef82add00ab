// What a person types or pastes, turned into the API's value formats: shared by the create-record form
// and the grid, so that a date & time entered in one is sent exactly as in the other. Date & time is
// entered in local time and sent in UTC (portal-api.md: "time in UTC"). Pure: no DOM, no vscode.
import { formatDateTime, parseDateTime, type DateParts } from '../api/formats';

export interface LocalDateTime extends DateParts {
  /** 0-23 */
  hours: number;
  /** 0-59 */
  minutes: number;
}

/**
 * The user's offset from UTC in minutes east (UTC+1 is 60; note that Date#getTimezoneOffset has the other
 * sign). A function receives the local date & time it is asked about, so that a caller can follow daylight
 * saving time; undefined means the time zone of the running JavaScript (the webview's is the user's).
 */
export type UtcOffset = number | ((local: LocalDateTime) => number) | undefined;

function isRealTime(local: LocalDateTime): boolean {
  const { hours, minutes } = local;
  return Number.isInteger(hours) && Number.isInteger(minutes) && hours >= 0 && hours <= 23 && minutes >= 0 && minutes <= 59;
}

function isRealDay(local: DateParts): boolean {
  // Date() rolls 31-02 over into March; a date that does not exist must not be sent as another one.
  const probe = new Date(0);
  probe.setUTCFullYear(local.year, local.month - 1, local.day);
  return probe.getUTCFullYear() === local.year && probe.getUTCMonth() === local.month - 1 && probe.getUTCDate() === local.day;
}

/** A local date & time -> "DD-MM-YYYY hh:mm" in UTC; "" when the date or the time does not exist. */
export function utcFromLocal(local: LocalDateTime, offset?: UtcOffset): string {
  if (!isRealTime(local) || !isRealDay(local) || local.year < 1 || local.year > 9999) return '';
  let instant: Date;
  if (offset === undefined) {
    instant = new Date(local.year, local.month - 1, local.day, local.hours, local.minutes);
    instant.setFullYear(local.year); // years 1-99 would otherwise be read as 1901-1999
  } else {
    const minutesEast = typeof offset === 'number' ? offset : offset(local);
    instant = new Date(0);
    instant.setUTCFullYear(local.year, local.month - 1, local.day);
    instant.setUTCHours(local.hours, local.minutes - minutesEast, 0, 0);
  }
  try {
    return formatDateTime(instant);
  } catch {
    return '';
  }
}

/** "DD-MM-YYYY hh:mm" in UTC (the API's) -> the same format in local time; the value itself when unreadable. */
export function localFromUtc(apiValue: string, offset?: UtcOffset): string {
  const instant = parseDateTime(apiValue);
  if (!instant) return apiValue;
  let local: LocalDateTime;
  if (offset === undefined) {
    local = {
      year: instant.getFullYear(),
      month: instant.getMonth() + 1,
      day: instant.getDate(),
      hours: instant.getHours(),
      minutes: instant.getMinutes(),
    };
  } else {
    const utc = {
      year: instant.getUTCFullYear(),
      month: instant.getUTCMonth() + 1,
      day: instant.getUTCDate(),
      hours: instant.getUTCHours(),
      minutes: instant.getUTCMinutes(),
    };
    // A function offset is asked about a local time; the UTC time is the best first guess of it.
    const minutesEast = typeof offset === 'number' ? offset : offset(utc);
    const shifted = new Date(instant.getTime() + minutesEast * 60_000);
    local = {
      year: shifted.getUTCFullYear(),
      month: shifted.getUTCMonth() + 1,
      day: shifted.getUTCDate(),
      hours: shifted.getUTCHours(),
      minutes: shifted.getUTCMinutes(),
    };
  }
  const pad = (value: number, width = 2): string => String(value).padStart(width, '0');
  return `${pad(local.day)}-${pad(local.month)}-${pad(local.year, 4)} ${pad(local.hours)}:${pad(local.minutes)}`;
}

/** "1:30" -> "01:30": the API wants two-digit hours; anything else is left for the check to explain. */
export function durationFromInput(value: string): string {
  const trimmed = value.trim();
  return /^\d:\d{2}$/.test(trimmed) ? `0${trimmed}` : trimmed;
}
