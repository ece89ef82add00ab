// Regular expressions for the value formats of the portal's create and update bodies, as JSON Schema
// `pattern`s: what the JSON language can check on every key press. They say the shape; what a pattern
// cannot say (31-02-2026 is no date, HTML must be well formed, a choice named twice) is left to
// src/api/formats.ts, which the document checks run too (src/fs/recordDiagnostics.ts). Pure.
import { columnKind } from '../api/columnKinds';
import type { Column } from '../api/types';

const DAY = '(?:0[1-9]|[12]\\d|3[01])';
const MONTH = '(?:0[1-9]|1[0-2])';
const YEAR = '\\d{4}';
const HOURS = '(?:[01]\\d|2[0-3])';
const MINUTES = '[0-5]\\d';
const DATE = `${DAY}-${MONTH}-${YEAR}`;
const NUMBER = '-?(?:\\d+(?:\\.\\d+)?|\\.\\d+)';
// Looser than isEmail (api/email.ts) on purpose: the exact rules give their own message, once.
const EMAIL = '[^\\s@,]+@[^\\s@,]+\\.[A-Za-z]{2,}';

function escapeRegExp(text: string): string {
  // Only syntax characters: the JSON language compiles patterns in Unicode mode, where \- is an error.
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function choiceIds(column: Column): string[] {
  return (Array.isArray(column.choices) ? column.choices : []).map((choice) => String(choice.id));
}

/** The shape of one value of the column's kind (no anchors), or undefined when any string has it. */
function shapeOf(column: Column): string | undefined {
  switch (columnKind(column)) {
    case 'date':
      return DATE;
    case 'datetime':
      return `${DATE} ${HOURS}:${MINUTES}`;
    case 'duration':
      return `${HOURS}:${MINUTES}`;
    case 'number':
    case 'currency':
      return NUMBER;
    case 'email':
      return EMAIL;
    case 'user':
      return `${EMAIL}(?:,${EMAIL})*`;
    case 'url':
      return 'https?://[^\\s/?#]+[^\\s]*';
    case 'phone':
      return '[A-Za-z0-9 +()./-]*[A-Za-z0-9][A-Za-z0-9 +()./-]*';
    case 'choice': {
      const ids = choiceIds(column);
      if (ids.length === 0) return undefined;
      const one = `(?:${ids.map(escapeRegExp).join('|')})`;
      return column.choice_type === '2' ? `${one}(?:,${one})*` : one;
    }
    default:
      return undefined;
  }
}

/**
 * The JSON Schema pattern of a writable column's values: its kind's shape, and "" too unless the column
 * is required (an update may clear an optional field, never a required one). Undefined when any value
 * goes (an optional text field).
 */
export function fieldPattern(column: Column, required: boolean): string | undefined {
  const shape = shapeOf(column);
  if (shape === undefined) return required ? '^[\\s\\S]+$' : undefined;
  return required ? `^(?:${shape})$` : `^(?:${shape})?$`;
}

/** True when `value` passes the column's pattern (or it has none): the JSON language reports the others. */
export function matchesFieldPattern(column: Column, required: boolean, value: string): boolean {
  const pattern = fieldPattern(column, required);
  return pattern === undefined || new RegExp(pattern, 'u').test(value);
}
