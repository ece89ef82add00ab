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

/** The zone's offset from UTC at the instant `utcMs`, in milliseconds (east positive). */
function offsetAt(utcMs: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(utcMs))) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  const asUtc = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
  return asUtc - Math.floor(utcMs / 1000) * 1000;
}

/**
 * The instant a wall clock of `timeZone` shows. In the hour a clock skips (spring forward) the time is
 * read with the offset before the change; in the hour it repeats, the first of the two. The offsets a day
 * either side are the two a change near this time switches between (east or west of UTC alike).
 */
export function zonedToUtc(clock: WallClock, timeZone: string): Date {
  const local = Date.UTC(clock.year, clock.month - 1, clock.day, clock.hours, clock.minutes, clock.seconds ?? 0);
  const before = offsetAt(local - 86_400_000, timeZone);
  const after = offsetAt(local + 86_400_000, timeZone);
  // The readings that show this wall clock: none in a skipped hour, two in a repeated one.
  const exact = [local - before, local - after].filter((utc) => utc + offsetAt(utc, timeZone) === local);
  return new Date(exact.length > 0 ? Math.min(...exact) : local - before);
}
