// A payload as rows of a tree: an object's fields or an array's items, each with a one-line summary, and
// whether it opens into more rows. Pure, so the tree's contents are unit-tested in node.

export interface PayloadField {
  /** The field name, or the item's index. */
  readonly key: string;
  readonly value: unknown;
  /** Objects and arrays with something inside. */
  readonly expandable: boolean;
  /** What the row shows beside the key. */
  readonly summary: string;
}

/** The longest text a row shows of a value. */
const SUMMARY_LIMIT = 120;

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length > SUMMARY_LIMIT ? `${line.slice(0, SUMMARY_LIMIT - 1)}…` : line;
}

export function summaryOf(value: unknown): string {
  if (Array.isArray(value)) return value.length === 1 ? '[1 item]' : `[${value.length} items]`;
  if (typeof value === 'object' && value !== null) {
    const count = Object.keys(value).length;
    return count === 1 ? '{1 field}' : `{${count} fields}`;
  }
  if (typeof value === 'string') return clip(JSON.stringify(value));
  return String(value);
}

function isContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  return typeof value === 'object' && value !== null;
}

/** The rows inside `value` (none for a scalar). */
export function payloadFields(value: unknown): PayloadField[] {
  if (!isContainer(value)) return [];
  const entries: Array<[string, unknown]> = Array.isArray(value)
    ? value.map((item, index) => [String(index), item])
    : Object.entries(value);
  return entries.map(([key, inner]) => ({
    key,
    value: inner,
    expandable: isContainer(inner) && Object.keys(inner).length > 0,
    summary: summaryOf(inner),
  }));
}
