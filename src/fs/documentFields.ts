// The top-level fields of a record document with where they are in its text, read tolerantly (the user
// may be halfway through typing), for the checks and the field names shown beside the keys. Pure.
import { parseTree, type Node, type ParseError } from 'jsonc-parser';

export interface DocumentField {
  readonly key: string;
  /** Offset and length of the key, quotes included. */
  readonly keyOffset: number;
  readonly keyLength: number;
  /** The value as JSON gives it (undefined while it is missing). */
  readonly value: unknown;
  readonly valueOffset: number;
  readonly valueLength: number;
}

export interface DocumentFields {
  readonly fields: readonly DocumentField[];
  /** Offset of the top-level object's "{", or 0. */
  readonly objectOffset: number;
  /** The top-level value when it is something else than an object (the save refuses it). */
  readonly notAnObject?: { readonly offset: number; readonly length: number };
}

function scalar(node: Node | undefined): unknown {
  if (!node) return undefined;
  return node.type === 'object' || node.type === 'array' ? (node.type === 'array' ? [] : {}) : (node.value as unknown);
}

export function documentFields(text: string): DocumentFields {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (!root) return { fields: [], objectOffset: 0 };
  if (root.type !== 'object') return { fields: [], objectOffset: 0, notAnObject: { offset: root.offset, length: root.length } };
  const fields: DocumentField[] = [];
  for (const property of root.children ?? []) {
    const [keyNode, valueNode] = property.children ?? [];
    if (!keyNode || typeof keyNode.value !== 'string') continue;
    fields.push({
      key: keyNode.value,
      keyOffset: keyNode.offset,
      keyLength: keyNode.length,
      value: scalar(valueNode),
      valueOffset: valueNode?.offset ?? keyNode.offset + keyNode.length,
      valueLength: valueNode?.length ?? 0,
    });
  }
  return { fields, objectOffset: root.offset };
}
