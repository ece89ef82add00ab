// CSV fields as spreadsheets read them (RFC 4180), with the guard against formula injection: cells that a
// spreadsheet would run as a formula (starting with = + - @, a tab or a carriage return) get a leading
// apostrophe, except plain numbers such as -12.5. Shared by the query export and the grid's copy, so that
// both hand a spreadsheet the same safe text. Pure.
import { parseNumber } from '../api/formats';

const FORMULA_START = /^[=+\-@\t\r]/;

/** A value a spreadsheet would not run: a formula-looking text gets a leading apostrophe. */
export function guardFormula(value: string): string {
  return FORMULA_START.test(value) && parseNumber(value) === undefined ? `'${value}` : value;
}

export function csvField(value: string): string {
  const safe = guardFormula(value);
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
