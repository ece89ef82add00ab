// Wall-clock times of a named time zone to UTC instants, with the zone rules of the runtime's Intl (no
// table of our own to go stale). A file exported in Berlin says "14:00" and means 13:00 UTC in winter.

export interface WallClock {
  year: number;
  month: number;
  day: number;
  hours: number;
  minutes: number;
  seconds?: number;
}

/** 400 Gregorian years, in ms: the calendar repeats itself after them. */
const FOUR_CENTURIES_MS = 146_097 * 86_400_000;

/**
 * Date.UTC of a wall clock, years 0-99 included: Date.UTC reads those as 1900-1999, so they are computed
 * 400 years later (the same calendar, leap days alike) and moved back.
 */
export function utcMs(year: number, month: number, day: number, hours: number, minutes: number, seconds = 0): number {
  if (year >= 100) return Date.UTC(year, month - 1, day, hours, minutes, seconds);
  return Date.UTC(year + 400, month - 1, day, hours, minutes, seconds) - FOUR_CENTURIES_MS;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let found = formatters.get(timeZone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, found);
  }
  return found;
}

/** Why `timeZone` cannot be used (an unknown IANA name), or undefined. */
export function timeZoneProblem(timeZone: string): string | undefined {
  try {
    formatter(timeZone);
    return undefined;
  } catch {
    return `unknown time zone "${timeZone}": use an IANA name such as UTC or Europe/Berlin`;
  }
}

/** The zone's offset from UTC at the instant `instant` (ms), in milliseconds (east positive). */
function offsetAt(instant: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(instant)))
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  const asUtc = utcMs(parts.year, parts.month, parts.day, parts.hour, parts.minute, parts.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant a wall clock of `timeZone` shows. In the hour a clock skips (spring forward) the time is
 * read with the offset before the change; in the hour it repeats, the first of the two. The offsets a day
 * either side are the two a change near this time switches between (east or west of UTC alike).
 */
export function zonedToUtc(clock: WallClock, timeZone: string): Date {
  const local = utcMs(clock.year, clock.month, clock.day, clock.hours, clock.minutes, clock.seconds);
  const before = offsetAt(local - 86_400_000, timeZone);
  const after = offsetAt(local + 86_400_000, timeZone);
  // The readings that show this wall clock: none in a skipped hour, two in a repeated one.
  const exact = [local - before, local - after].filter((utc) => utc + offsetAt(utc, timeZone) === local);
  return new Date(exact.length > 0 ? Math.min(...exact) : local - before);
}
