// The JSON Schema of an app's record documents, built from its columns, so that VS Code's JSON language
// offers the field ids (with their names) and the choice ids (with their names) and shows each field's
// name, kind, format and description on hover. Pure: no vscode import; served by src/fs as
// portal://<portal>/<app>/schema/record.json.
//
// It carries no rule that can fail (no type, pattern or additionalProperties): the JSON language reports
// those as Warnings, and what blocks a save must be an Error. The checks are the extension's own
// (src/fs/documentProblems.ts), as the user types, with the same rules as the save.
import { columnKind, isWritable, kindName } from '../api/columnKinds';
import { formatHint } from '../api/formats';
import type { Choice, Column } from '../api/types';
import { escapeMarkdown } from '../shared/markdown';

/** The subset of JSON Schema (draft-07 plus VS Code's JSON language extensions) this builder writes. */
export interface JsonSchema {
  $schema?: string;
  title?: string;
  description?: string;
  markdownDescription?: string;
  properties?: Record<string, JsonSchema>;
  /** Inserted with the property by completion: "" gives the value its quotes. */
  default?: string;
  defaultSnippets?: Array<{ label: string; description?: string; markdownDescription?: string; body: string }>;
  /** Shown beside a property in completion. */
  completionDetail?: string;
  suggestSortText?: string;
  doNotSuggest?: boolean;
  readOnly?: boolean;
}

export interface RecordSchemaOptions {
  /** The app's name, for the schema's title. */
  appName?: string;
}

export const READ_ONLY_NOTE = 'read-only: shown, never sent';

/** The kind as the portal names it ("Date & Time"), else ours. */
export function kindLabel(column: Column): string {
  const kind = columnKind(column);
  if (kind === 'choice') return column.choice_type === '2' ? 'Choice (multi-select)' : 'Choice';
  return kindName(column);
}

export function isRequiredColumn(column: Column): boolean {
  return column.required === '1';
}

function sortedChoices(column: Column): Choice[] {
  const choices = Array.isArray(column.choices) ? column.choices : [];
  return [...choices].sort((a, b) => Number(a.order) - Number(b.order));
}

/** What the value of a writable column must look like, for the message when it does not. */
export function patternMessage(column: Column, required: boolean): string {
  const name = column.field_name || column.field_id_in_data;
  const empty = required ? ` ${name} is required.` : ' Or "" to clear it.';
  return `${name}: expected ${formatHint(column)}.${empty}`;
}

function describe(column: Column, writable: boolean, required: boolean): { description: string; markdownDescription: string } {
  const name = column.field_name || column.field_id_in_data;
  const kind = kindLabel(column);
  const flags = [
    required && writable ? 'required' : undefined,
    column.unique_value === '1' ? 'unique' : undefined,
    writable ? undefined : READ_ONLY_NOTE,
  ].filter((flag): flag is string => flag !== undefined);
  const format = writable ? `Format: ${formatHint(column)}` : undefined;
  const about = column.field_description?.trim() || undefined;
  const plain = [`${name} (${kind}${flags.length ? `, ${flags.join(', ')}` : ''})`, format, about].filter(Boolean).join('\n');
  const markdown = [
    `**${escapeMarkdown(name)}** · ${escapeMarkdown(kind)} · \`${column.field_id_in_data}\`${flags.length ? ` · ${flags.map(escapeMarkdown).join(' · ')}` : ''}`,
    format && escapeMarkdown(format),
    about && escapeMarkdown(about),
  ]
    .filter(Boolean)
    .join('\n\n');
  return { description: plain, markdownDescription: markdown };
}

/**
 * Choices are offered by name, inserting their id: snippets labelled with the names. An enum would check
 * as well, but VS Code's completion lists an enum by its values ("3"), the name only beside the focused
 * one; the pattern checks instead, and the inlay hints show the name of the id chosen.
 */
function choiceProperties(column: Column, required: boolean): Partial<JsonSchema> {
  const choices = sortedChoices(column);
  if (choices.length === 0) return {};
  const snippets = choices.map((choice) => ({
    label: choice.name || choice.id,
    description: `choice id ${choice.id}${choice.color ? ` · ${choice.color}` : ''}`,
    markdownDescription: `**${escapeMarkdown(choice.name)}** · choice id \`${choice.id}\`${choice.color ? ` · ${choice.color}` : ''}`,
    body: choice.id,
  }));
  return {
    defaultSnippets: required
      ? snippets
      : [
          ...snippets,
          { label: '(none)', description: 'No choice: clears the field', markdownDescription: 'No choice: clears the field', body: '' },
        ],
  };
}

function fieldSchema(column: Column, index: number): JsonSchema {
  const writable = isWritable(column);
  const required = isRequiredColumn(column);
  const schema: JsonSchema = {
    title: column.field_name || column.field_id_in_data,
    ...describe(column, writable, required),
    completionDetail: column.field_name || undefined,
    suggestSortText: String(index).padStart(4, '0'),
  };
  if (!writable) return { ...schema, readOnly: true, doNotSuggest: true };
  // A choice completes its value from its snippets (with quotes); other fields get "" with their key.
  if (columnKind(column) === 'choice') return { ...schema, ...choiceProperties(column, required) };
  return { ...schema, default: '' };
}

/** The schema of the app's record documents; `columns` in position order (the order of completion). */
export function buildRecordSchema(columns: readonly Column[], options: RecordSchemaOptions = {}): JsonSchema {
  const properties: Record<string, JsonSchema> = {
    $schema: {
      description: "The JSON Schema of this app's records, served by Portal Explorer. Not a field: never sent.",
      doNotSuggest: true,
    },
  };
  columns.forEach((column, index) => {
    properties[column.field_id_in_data] = fieldSchema(column, index);
  });
  const app = options.appName ? ` of ${options.appName}` : '';
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: `Record${app}`,
    description: `A record${app}, keyed by field_id_in_data. Every value is a string; read-only fields are shown and never sent.`,
    properties,
  };
}

/**
 * The hover of a field's name in a record document (an inlay hint's tooltip), as Markdown: the portal's
 * name and description escaped (a name like `[Approved](https://e)` must not read as a link), each line of
 * the description on its own line.
 */
export function fieldHoverMarkdown(column: Column): string {
  const head = `**${escapeMarkdown(column.field_name || column.field_id_in_data)}** · ${escapeMarkdown(kindLabel(column))} · ${escapeMarkdown(column.field_id_in_data)}`;
  const about = column.field_description ? column.field_description.split(/\r?\n/).map(escapeMarkdown).join('  \n') : '';
  return about ? `${head}\n\n${about}` : head;
}
