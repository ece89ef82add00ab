// Reading JSON the portal sent, without trusting it: the documentation promises strings, a real portal may
// send numbers, null or nested values where it shows none. These helpers coerce what can be read and leave
// the decision about what is missing to the caller.

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A string, or a finite number as a string; undefined otherwise. */
export function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** A field value as the string the documentation promises: null -> "", numbers and booleans as text. */
export function fieldText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Makes every value of `record` a string, in place (no copy: views can hold 100,000 rows). */
export function coerceFieldValues(record: JsonObject): Record<string, string> {
  for (const key in record) {
    const value = record[key];
    if (typeof value !== 'string') record[key] = fieldText(value);
  }
  return record as Record<string, string>;
}

/** The "1"/"0" flags of the portal (and true/false, 1/0 from portals that send them); undefined otherwise. */
export function flagOf(value: unknown): boolean | undefined {
  if (value === '1' || value === 1 || value === true) return true;
  if (value === '0' || value === 0 || value === false) return false;
  return undefined;
}
