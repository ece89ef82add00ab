// A record as the text of its document, and back. The text is pretty JSON (two spaces): "$schema" first,
// then every column's field in position order (read-only ones too: they are shown, never sent), values as
// the portal's strings. Reading a document back keeps the values as they are typed, so the checks can say
// "f12 must be a string" rather than guess. Pure (no vscode import).
import type { Column, RecordData } from '../api/types';
import type { Body, FieldProblem } from '../records/changes';
import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';

export const SCHEMA_KEY = '$schema';

const STRICT_JSON = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false } as const;

function pretty(fields: Array<[string, string]>): string {
  const lines = fields.map(([key, value]) => `  ${JSON.stringify(key)}: ${JSON.stringify(value)}`);
  return `{\n${lines.join(',\n')}\n}\n`;
}

/**
 * The document of a record: `$schema`, then the app's columns in the order given (position order), each
 * with its value ("" when the portal sent none). Keys the portal sent that are no column are left out:
 * nothing could be done with them.
 */
export function recordText(data: RecordData, columns: readonly Column[], schemaRef: string): string {
  return pretty([
    [SCHEMA_KEY, schemaRef],
    ...columns.map((column): [string, string] => [column.field_id_in_data, data[column.field_id_in_data] ?? '']),
  ]);
}

/** The document of a record not created yet: `$schema` and every required writable field, empty. */
export function newRecordText(columns: readonly Column[], schemaRef: string, isRequiredWritable: (column: Column) => boolean): string {
  return pretty([
    [SCHEMA_KEY, schemaRef],
    ...columns.filter(isRequiredWritable).map((column): [string, string] => [column.field_id_in_data, '']),
  ]);
}

export interface TextPosition {
  /** 1-based, as people count lines. */
  line: number;
  column: number;
}

export type ParsedDocument = { ok: true; values: Record<string, unknown> } | { ok: false; message: string; offset: number };

function positionOf(text: string, offset: number): TextPosition {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

function describeParseError(error: ParseError): string {
  const words = printParseErrorCode(error.error)
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function valueOf(node: Node): unknown {
  switch (node.type) {
    case 'object':
      return Object.fromEntries(
        (node.children ?? []).map((property) => [
          property.children?.[0]?.value as string,
          property.children?.[1] ? valueOf(property.children[1]) : undefined,
        ]),
      );
    case 'array':
      return (node.children ?? []).map(valueOf);
    default:
      return node.value as unknown;
  }
}

/** The document's top-level object, strictly as JSON (no comments, no trailing commas, no key twice). */
export function parseDocument(text: string): ParsedDocument {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, STRICT_JSON);
  if (errors.length > 0) {
    const at = positionOf(text, errors[0].offset);
    return {
      ok: false,
      message: `The document is not valid JSON: ${describeParseError(errors[0])} at line ${at.line}, column ${at.column}.`,
      offset: errors[0].offset,
    };
  }
  if (!root || root.type !== 'object')
    return { ok: false, message: 'The document must be one JSON object of fields, like {"f12": "value"}.', offset: root?.offset ?? 0 };
  const seen = new Set<string>();
  for (const property of root.children ?? []) {
    const key = property.children?.[0]?.value as string;
    if (seen.has(key)) return { ok: false, message: `${key} appears twice in the document: keep one.`, offset: property.offset };
    seen.add(key);
  }
  return { ok: true, values: valueOf(root) as Record<string, unknown> };
}

/** The document's fields as strings; a value of another JSON type is a problem (the portal takes strings). */
export function fieldValues(values: Readonly<Record<string, unknown>>): Body {
  const fields: RecordData = {};
  const problems: FieldProblem[] = [];
  for (const [key, value] of Object.entries(values)) {
    if (key === SCHEMA_KEY) continue;
    if (typeof value === 'string') fields[key] = value;
    else
      problems.push({
        field: key,
        message: `must be a string in quotes, like "${typeof value === 'number' ? String(value) : 'text'}" (the portal takes every value as text)`,
      });
  }
  return { fields, problems };
}
