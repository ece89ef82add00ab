// A reference's hover (issue 33): the record read through the record store (the documents' copies, read
// again when older than HOVER_MAX_AGE_MS, shared while a read is in flight), its app's columns and title
// field; a record that does not exist or cannot be read says so here, never in a notification. When VS Code
// cancels the hover (the pointer went), so is its read, unless another caller waits for the same one.
import * as vscode from 'vscode';
import type { Portals } from '../auth/portals';
import type { Catalog } from '../catalog/catalog';
import { chooseTitleField } from '../catalog/titleField';
import type { TitleFields } from '../catalog/titleFields';
import type { ViewStore } from '../catalog/views';
import { COMMANDS } from '../ids';
import type { RecordTarget } from '../model/targets';
import { findReferences, formatReference, type FoundReference } from '../references/patterns';
import { isPortalError } from '../api/errors';
import { RecordGone, type RecordStore } from '../records/store';
import { recordHoverMarkdown, unreadableHoverMarkdown, type HoverAction } from './hoverText';
import { referencePatterns } from './referencePatterns';

/** How old a copy a hover shows: hovering the same reference again soon asks the portal nothing. */
export const HOVER_MAX_AGE_MS = 30_000;

export interface HoverParts {
  readonly portals: Portals;
  readonly catalog: Catalog;
  readonly titles: TitleFields;
  readonly views: ViewStore;
  readonly store: () => RecordStore;
}

/** The reference at `position`, if any (only its line is scanned). */
export function referenceAt(document: vscode.TextDocument, position: vscode.Position): FoundReference | undefined {
  const line = document.lineAt(position.line).text;
  return findReferences(line, referencePatterns()).find((found) => found.start <= position.character && position.character <= found.end);
}

function actionsOf(parts: HoverParts, record: RecordTarget): HoverAction[] {
  const view = parts.views.list(record.portalId, record.appId)[0];
  return [
    { label: 'Open', command: COMMANDS.record.open, args: [record], tooltip: "Open the record's document" },
    ...(view
      ? [
          {
            label: 'Open as Grid',
            command: COMMANDS.panel.openViewAsGrid,
            args: [{ portalId: record.portalId, appId: record.appId, viewId: view.viewId, viewName: view.name, recordId: record.recordId }],
            tooltip: `Open ${view.name} as a grid, at this record`,
          },
        ]
      : []),
    { label: 'Copy Link', command: COMMANDS.explorer.copyLink, args: [record], tooltip: 'Copy a link that opens the record' },
    { label: 'Open in Portal', command: COMMANDS.explorer.openInPortal, args: [record], tooltip: "The portal's own page" },
    { label: 'Start Work', command: COMMANDS.work.startWork, args: [record], tooltip: 'Start work on the record' },
  ];
}

export class ReferenceHoverProvider implements vscode.HoverProvider {
  constructor(private readonly parts: HoverParts) {}

  async provideHover(
    document: vscode.TextDocument,
    position: vscode.Position,
    token: vscode.CancellationToken,
  ): Promise<vscode.Hover | undefined> {
    const found = referenceAt(document, position);
    if (!found) return undefined;
    const record: RecordTarget = { portalId: found.pattern.portalId, appId: found.pattern.appId, recordId: found.recordId };
    const reference = formatReference(found.pattern, found.recordId);
    const range = new vscode.Range(position.line, found.start, position.line, found.end);
    const abort = new AbortController();
    const listening = token.onCancellationRequested(() => abort.abort());
    const markdown = await this.markdownOf(record, reference, abort.signal).finally(() => listening.dispose());
    if (markdown === undefined || token.isCancellationRequested) return undefined;
    const text = new vscode.MarkdownString(markdown);
    text.supportHtml = true;
    text.isTrusted = { enabledCommands: actionsOf(this.parts, record).map((action) => action.command) };
    return new vscode.Hover(text, range);
  }

  private async markdownOf(record: RecordTarget, reference: string, signal: AbortSignal): Promise<string | undefined> {
    const label = this.parts.portals.get(record.portalId)?.label ?? record.portalId;
    try {
      // The record and the app (its name, from the catalog's cache) at once: one round trip when the
      // columns are known.
      const [copy, app] = await Promise.all([
        this.parts.store().read(record, 'hover', HOVER_MAX_AGE_MS, signal),
        this.parts.catalog.app(record.portalId, record.appId).catch(() => undefined),
      ]);
      return recordHoverMarkdown({
        reference,
        recordId: record.recordId,
        appName: app?.name,
        columns: copy.columns,
        data: copy.data,
        titleField: chooseTitleField(copy.columns, this.parts.titles.get(record)),
        draft: copy.draft,
        actions: actionsOf(this.parts, record),
      });
    } catch (error) {
      if (signal.aborted) return undefined;
      if (error instanceof RecordGone)
        return unreadableHoverMarkdown(reference, `Record ${record.recordId} is not in ${label}: deleted, in its trash, or never made.`);
      if (isPortalError(error) && error.code === 'unauthorized')
        return unreadableHoverMarkdown(reference, `Sign in to "${label}" (Portal: Sign In) to see the record.`);
      return unreadableHoverMarkdown(reference, `${label} could not be read: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
