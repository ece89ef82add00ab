// The big app's records, made on demand: record n's values are a pure function of (seed, n), so nothing is
// held in memory until a record changes (store.ts keeps changed records), startup costs nothing, and a reset
// is instant. Deterministic across runs and machines.
import { STAFF } from './seed';

/** A small, fast PRNG (mulberry32) seeded per record. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));

const SUBJECT_WHAT = [
  'Printer',
  'Laptop',
  'VPN',
  'Invoice',
  'Password',
  'Delivery',
  'Monitor',
  'Badge',
  'Mailbox',
  'Order',
  'Licence',
  'Phone',
];
const SUBJECT_PROBLEM = [
  'does not start',
  'is slow',
  'shows an error',
  'was charged twice',
  'needs a reset',
  'arrived damaged',
  'is missing',
  'keeps disconnecting',
];
const SUBJECT_WHERE = [
  'in Berlin',
  'in Lyon',
  'on floor 3',
  'at the warehouse',
  'for the sales team',
  'after the update',
  'since Monday',
  '',
];

const START = Date.UTC(2024, 0, 1);
const DAY_MS = 24 * 60 * 60_000;
const SPAN_DAYS = 2 * 365;
const MAX_DUE_DAYS = 30;

// Formatting through Date objects costs more than everything else of a record; tables make it a lookup.
const DATES = Array.from({ length: SPAN_DAYS + MAX_DUE_DAYS + 1 }, (_, day) => {
  const d = new Date(START + day * DAY_MS);
  return `${pad2(d.getUTCDate())}-${pad2(d.getUTCMonth() + 1)}-${d.getUTCFullYear()}`;
});
const TIMES = Array.from({ length: 24 * 60 }, (_, minute) => `${pad2(Math.floor(minute / 60))}:${pad2(minute % 60)}`);

/** The values of Tickets record n (1-based), keyed by field_id_in_data, Auto Number included. */
export function ticketGenerator(seed: number, customers: number): (n: number) => Record<string, string> {
  return (n) => {
    const next = random(Math.imul(seed, 0x9e3779b1) ^ Math.imul(n, 0x85ebca6b));
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
    const openedDay = Math.floor(next() * SPAN_DAYS);
    const openedMinute = Math.floor(next() * 24 * 60);
    const where = pick(SUBJECT_WHERE);
    const hasDue = next() < 0.7;
    const effort = Math.floor(next() * 24 * 4) * 15;
    const cost = next() < 0.6 ? (Math.floor(next() * 500000) / 100).toFixed(2) : '';
    const customer = next() < 0.9 ? String(1 + Math.floor(next() * customers)) : '';
    const state = next() < 0.55 ? '4' : String(1 + Math.floor(next() * 3));
    return {
      f30: String(100000 + n),
      f31: `${pick(SUBJECT_WHAT)} ${pick(SUBJECT_PROBLEM)}${where ? ` ${where}` : ''}`,
      f32: customer,
      f34: String(1 + Math.floor(next() * 4)),
      f35: state,
      f36: `${DATES[openedDay]} ${TIMES[openedMinute]}`,
      f37: hasDue ? DATES[openedDay + 1 + Math.floor(next() * MAX_DUE_DAYS)] : '',
      f38: effort > 0 ? TIMES[effort] : '',
      f39: cost,
      f40: next() < 0.85 ? pick(STAFF) : '',
      f41: `user${1 + Math.floor(next() * 5000)}@customers.example.com`,
    };
  };
}
