// How a column looks in the tree: an icon per kind, a description with the kind and field_id_in_data, and
// a tooltip with everything the portal says about it. Portal text goes into the tooltip escaped: names and
// descriptions are data, never markup.
import * as vscode from 'vscode';
import { columnKind, kindName, type ColumnKind } from '../api/columnKinds';
import type { Column } from '../api/types';
import { flagOf } from '../api/wire';

const ICONS: Record<ColumnKind, string> = {
  text: 'symbol-text',
  multiline: 'note',
  email: 'mail',
  phone: 'device-mobile',
  url: 'link',
  number: 'symbol-number',
  currency: 'credit-card',
  date: 'calendar',
  datetime: 'clock',
  duration: 'watch',
  choice: 'list-selection',
  user: 'person',
  autonumber: 'symbol-constant',
  lookup: 'references',
  unknown: 'symbol-misc',
};

export function columnIcon(column: Column): vscode.ThemeIcon {
  return new vscode.ThemeIcon(ICONS[columnKind(column)]);
}

export function columnDescription(column: Column): string {
  return `${kindName(column)} · ${column.field_id_in_data}`;
}

/** Markdown with every syntax character escaped: shows `text` as typed. */
export function markdownText(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|~<>&]/g, '\\$&').replace(/\r?\n/g, '  \n');
}

const HEX_COLOUR = /^#[0-9a-f]{3}(?:[0-9a-f]{3})?(?:[0-9a-f]{2})?$/i;

function swatch(color: string): string {
  return HEX_COLOUR.test(color) ? `<span style="color:${color};">■</span> ` : '';
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

export function columnTooltip(column: Column): vscode.MarkdownString {
  const lines: string[] = [];
  lines.push(`**${markdownText(column.field_name || column.field_id_in_data)}** — ${markdownText(column.field_id_in_data)}`);
  const facts = [markdownText(kindName(column)), `field id ${markdownText(column.field_id)}`];
  if (column.position !== '') facts.push(`position ${markdownText(column.position)}`);
  lines.push(facts.join(' · '));
  const required = flagOf(column.required);
  const flags = [
    required === undefined ? 'required: not said' : required ? '**Required**' : 'optional',
    flagOf(column.unique_value) ? '**Unique**' : 'not unique',
  ];
  lines.push(flags.join(' · '));
  if (text(column.field_description)) lines.push(`*${markdownText(column.field_description)}*`);
  const symbol = text(column.currency_symbol);
  if (symbol) lines.push(`Currency symbol: ${markdownText(symbol)}`);
  const lookupApp = text(column.lookup_app_id);
  if (lookupApp) lines.push(`Shows ${markdownText(text(column.lookup_field_id) ?? 'a field')} of app ${markdownText(lookupApp)}`);
  if (column.choices && column.choices.length > 0) {
    const type = column.choice_type !== undefined ? column.choice_types?.[column.choice_type] : undefined;
    const format = column.display_format !== undefined ? column.display_formats?.[column.display_format] : undefined;
    const how = [type, format].filter((value): value is string => Boolean(text(value))).map(markdownText);
    lines.push(`Choices${how.length > 0 ? ` (${how.join(', ')})` : ''}:`);
    const choices = [...column.choices].sort((a, b) => Number(a.order) - Number(b.order));
    const defaultId = text(column.default_value);
    for (const choice of choices) {
      const isDefault = defaultId !== undefined && choice.id === defaultId ? ' — default' : '';
      lines.push(
        `- ${swatch(choice.color)}${markdownText(choice.name)} (id ${markdownText(choice.id)}, ${markdownText(choice.color)})${isDefault}`,
      );
    }
  }
  const tooltip = new vscode.MarkdownString(lines.join('\n\n').replace(/\n\n- /g, '\n- '));
  // Only for the colour swatches; every portal text above is escaped.
  tooltip.supportHtml = true;
  return tooltip;
}
