// What a reference's hover says (issue 33), as Markdown: the record's title, its choice fields with their
// colours, its USER fields, and the actions as command links; or, for a record that cannot be read, why.
// Without `vscode` (unit-tested in plain node); the values are the portal's text, escaped so that no cell can add a link or markup.
import { columnKind } from '../api/columnKinds';
import type { Column, RecordData } from '../api/types';
import { displayValue, recordTitle } from '../catalog/titleField';
import { usersIn } from '../records/people';

/** One action: its label, the command and its arguments. */
export interface HoverAction {
  readonly label: string;
  readonly command: string;
  readonly args: readonly unknown[];
  readonly tooltip?: string;
}

export interface RecordHover {
  readonly reference: string;
  readonly recordId: string;
  readonly appName?: string;
  readonly columns: readonly Column[];
  readonly data: RecordData;
  readonly titleField: Column | undefined;
  readonly draft?: boolean;
  readonly actions: readonly HoverAction[];
}

const HEX = /^#[0-9A-Fa-f]{6}$/;

/** Text as Markdown shows it, with nothing taken for markup (or HTML). */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~&"']/g, (char) =>
    char === '<' ? '&lt;' : char === '>' ? '&gt;' : char === '&' ? '&amp;' : `\\${char}`,
  );
}

function commandLink(action: HoverAction): string {
  const args = encodeURIComponent(JSON.stringify(action.args));
  const title = action.tooltip ? ` "${action.tooltip.replace(/["\\]/g, '')}"` : '';
  return `[${escapeMarkdown(action.label)}](command:${action.command}?${args}${title})`;
}

export function recordHoverMarkdown(hover: RecordHover): string {
  const title = recordTitle(hover.recordId, hover.data, hover.titleField);
  const lines = [
    `**${escapeMarkdown(hover.reference)}** · ${escapeMarkdown(title)}${hover.draft ? ' *(draft)*' : ''}${hover.appName ? ` — ${escapeMarkdown(hover.appName)}` : ''}`,
  ];
  const fields: string[] = [];
  for (const column of hover.columns) {
    const kind = columnKind(column);
    const raw = hover.data[column.field_id_in_data] ?? '';
    if (raw === '' || column === hover.titleField) continue;
    if (kind === 'choice') {
      const byId = new Map((column.choices ?? []).map((choice) => [choice.id, choice]));
      const values = raw.split(',').map((id) => {
        const choice = byId.get(id.trim());
        if (!choice) return escapeMarkdown(displayValue(column, id.trim()));
        const swatch = HEX.test(choice.color) ? `<span style="color:${choice.color};">■</span> ` : '';
        return `${swatch}${escapeMarkdown(choice.name)}`;
      });
      fields.push(`${escapeMarkdown(column.field_name)}: ${values.join(', ')}`);
    } else if (kind === 'user') {
      fields.push(`${escapeMarkdown(column.field_name)}: ${usersIn(raw).map(escapeMarkdown).join(', ')}`);
    }
  }
  if (fields.length > 0) lines.push(fields.join(' · '));
  if (hover.actions.length > 0) lines.push(hover.actions.map(commandLink).join(' · '));
  return lines.join('\n\n');
}

/** A reference whose record cannot be shown: the reference, and why. */
export function unreadableHoverMarkdown(reference: string, why: string): string {
  return `**${escapeMarkdown(reference)}** · ${escapeMarkdown(why)}`;
}
