// Field names beside the opaque keys of record documents ("f12" reads as "Customer id"), and the names of
// the chosen choices beside their ids, as inlay hints.
import * as vscode from 'vscode';
import { columnKind, isWritable } from '../api/columnKinds';
import type { Column } from '../api/types';
import type { Catalog } from '../catalog/catalog';
import { Disposable } from '../lifecycle';
import { parseAddress } from '../model/recordAddress';
import { fieldHoverMarkdown } from '../schema/recordSchema';
import { documentFields } from './documentFields';

function choiceNames(column: Column, value: string): string | undefined {
  const choices = Array.isArray(column.choices) ? column.choices : [];
  if (value === '' || choices.length === 0) return undefined;
  const names = value.split(',').map((id) => choices.find((choice) => String(choice.id) === id)?.name);
  return names.every((name) => name !== undefined) ? names.join(', ') : undefined;
}

export class FieldHints extends Disposable implements vscode.InlayHintsProvider {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeInlayHints = this.changed.event;

  constructor(private readonly catalog: Catalog) {
    super();
    this._register(catalog.onDidChange(() => this.changed.fire()));
  }

  async provideInlayHints(document: vscode.TextDocument, range: vscode.Range): Promise<vscode.InlayHint[]> {
    const address = parseAddress(document.uri);
    if (address?.kind !== 'record' && address?.kind !== 'new') return [];
    const columns =
      this.catalog.peekColumns(address.portalId, address.appId) ?? (await this.catalog.columns(address.portalId, address.appId));
    const byKey = new Map(columns.map((column) => [column.field_id_in_data, column]));
    const hints: vscode.InlayHint[] = [];
    for (const field of documentFields(document.getText()).fields) {
      const column = byKey.get(field.key);
      const keyEnd = document.positionAt(field.keyOffset + field.keyLength);
      if (!column || !range.contains(keyEnd)) continue;
      const writable = isWritable(column);
      const name = new vscode.InlayHint(
        keyEnd,
        `${column.field_name || column.field_id_in_data}${writable ? '' : ' (read-only)'}`,
        vscode.InlayHintKind.Type,
      );
      name.paddingLeft = true;
      name.tooltip = new vscode.MarkdownString(fieldHoverMarkdown(column));
      hints.push(name);
      if (columnKind(column) === 'choice' && typeof field.value === 'string') {
        const chosen = choiceNames(column, field.value);
        if (chosen === undefined) continue;
        const hint = new vscode.InlayHint(
          document.positionAt(field.valueOffset + field.valueLength),
          chosen,
          vscode.InlayHintKind.Parameter,
        );
        hint.paddingLeft = true;
        hints.push(hint);
      }
    }
    return hints;
  }
}
