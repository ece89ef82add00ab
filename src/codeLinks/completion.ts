// Completion of references (issue 33): after an app's prefix (`TCK-`, `#`) in Markdown or the commit
// message box, its records: the user's own first (rows already read whose USER columns hold the user's
// e-mail; no request, and no question while typing), then the records opened lately, then, once a word is
// typed, a search by title in the app's first view: debounced and cancelled with the completion's token,
// the only request made while typing.
import * as vscode from 'vscode';
import type { ViewMetadataEntry } from '../api/types';
import { myEmailOn } from '../catalog/me';
import { viewColumns } from '../catalog/recordTitles';
import type { Stores } from '../catalog/stores';
import { chooseTitleField, recordTitle } from '../catalog/titleField';
import { RECORD_SCHEME } from '../ids';
import { recordOfUri } from '../model/recordUri';
import type { RecordTarget } from '../model/targets';
import { holdsUser } from '../records/people';
import { sleep } from '../records/retry';
import { RecentRecords, typedAfterPrefix } from '../references/completion';
import { formatReference, type ReferencePattern } from '../references/patterns';
import { OwnRecords } from '../watched/ownRecords';
import { referencePatterns } from './referencePatterns';

/** Markdown and the SCM input box: where references are written by hand. */
export const COMPLETION_SELECTOR: vscode.DocumentSelector = [{ language: 'markdown' }, { scheme: 'vscode-scm' }, { language: 'scminput' }];
/** Pause after a keystroke before the search asks the portal: typing on cancels it first. */
export const SEARCH_DEBOUNCE_MS = 250;
const OWN_SHOWN = 20;
const SEARCH_SHOWN = 20;

export type CompletionParts = Pick<Stores, 'portals' | 'views' | 'rows' | 'titles'>;

interface Offered {
  readonly recordId: string;
  readonly title: string;
}

function titleKey(
  parts: CompletionParts,
  record: { portalId: string; appId: string },
  metadata: readonly ViewMetadataEntry[],
): string | undefined {
  return chooseTitleField(viewColumns(metadata), parts.titles.get(record))?.field_id_in_data;
}

export class ReferenceCompletionProvider implements vscode.CompletionItemProvider {
  constructor(
    private readonly parts: CompletionParts,
    private readonly recent: RecentRecords,
  ) {}

  async provideCompletionItems(
    document: vscode.TextDocument,
    position: vscode.Position,
    token: vscode.CancellationToken,
  ): Promise<vscode.CompletionList | undefined> {
    const line = document.lineAt(position.line).text.slice(0, position.character);
    const fits = typedAfterPrefix(line, referencePatterns());
    if (fits.length === 0) return undefined;
    const items: vscode.CompletionItem[] = [];
    for (const { pattern, start, typed } of fits) {
      const range = new vscode.Range(position.line, start, position.line, position.character);
      const offered = [...(await this.own(pattern)), ...this.recentOf(pattern)];
      const search = /^[0-9]*$/.test(typed) ? [] : await this.search(pattern, typed, token);
      if (token.isCancellationRequested) return undefined;
      const seen = new Set<string>();
      for (const record of [...offered, ...search]) {
        if (seen.has(record.recordId)) continue;
        seen.add(record.recordId);
        const reference = formatReference(pattern, record.recordId);
        const item = new vscode.CompletionItem(
          { label: reference, detail: record.title ? ` ${record.title}` : undefined },
          vscode.CompletionItemKind.Reference,
        );
        item.insertText = reference;
        item.range = range;
        // What is typed after the prefix may be a word of the title: every item is kept, in this order.
        item.filterText = line.slice(start);
        item.sortText = String(items.length).padStart(4, '0');
        items.push(item);
      }
    }
    // Typing on asks again: the search follows the words typed.
    return new vscode.CompletionList(items, true);
  }

  /** The user's records among the rows already read of the app's views. */
  private async own(pattern: ReferencePattern): Promise<Offered[]> {
    const portal = this.parts.portals.get(pattern.portalId);
    if (!portal) return [];
    const found: Offered[] = [];
    // Without `ask`: completion never asks a question while the user types.
    const email = await myEmailOn(portal);
    if (email === undefined) return [];
    for (const view of this.parts.views.list(pattern.portalId, pattern.appId)) {
      const kept = this.parts.rows.peek({ portalId: pattern.portalId, appId: pattern.appId, viewId: view.viewId });
      if (!kept) continue;
      const users = OwnRecords.userColumns(kept.metadata).map((entry) => entry.field_id_in_data);
      const key = titleKey(this.parts, pattern, kept.metadata);
      for (let index = 0; index < kept.rows.length && found.length < OWN_SHOWN; index += 1) {
        const row = kept.rows.row(index);
        if (row.id === undefined || !users.some((user) => holdsUser(row.values[user], email))) continue;
        found.push({ recordId: row.id, title: key ? (row.values[key] ?? '') : '' });
      }
    }
    return found;
  }

  private recentOf(pattern: ReferencePattern): Offered[] {
    return this.recent.of(pattern.portalId, pattern.appId).map((record) => ({ recordId: record.recordId, title: this.titleOf(record) }));
  }

  /** A record's title from the rows already read, or '' (no request for it). */
  private titleOf(record: RecordTarget): string {
    for (const view of this.parts.views.list(record.portalId, record.appId)) {
      const kept = this.parts.rows.peek({ portalId: record.portalId, appId: record.appId, viewId: view.viewId });
      if (!kept) continue;
      const key = titleKey(this.parts, record, kept.metadata);
      for (let index = 0; index < kept.rows.length; index += 1) {
        const row = kept.rows.row(index);
        if (row.id === record.recordId) return key ? (row.values[key] ?? '') : '';
      }
    }
    return '';
  }

  /** Records of the app's first view whose title contains `typed`: one filtered read, after a pause. */
  private async search(pattern: ReferencePattern, typed: string, token: vscode.CancellationToken): Promise<Offered[]> {
    const view = this.parts.views.list(pattern.portalId, pattern.appId)[0];
    const kept = view && this.parts.rows.peek({ portalId: pattern.portalId, appId: pattern.appId, viewId: view.viewId });
    if (!view || !kept) return [];
    const title = chooseTitleField(viewColumns(kept.metadata), this.parts.titles.get(pattern));
    if (!title) return [];
    const abort = new AbortController();
    const listener = token.onCancellationRequested(() => abort.abort());
    try {
      await sleep(SEARCH_DEBOUNCE_MS, abort.signal);
      if (token.isCancellationRequested) return [];
      const result = await this.parts.portals
        .client(pattern.portalId)
        .streamView(pattern.appId, view.viewId, [{ column: title.field_id, operator: 'contains', value: typed }], { signal: abort.signal });
      const found: Offered[] = [];
      for (let index = 0; index < result.rows.length && found.length < SEARCH_SHOWN; index += 1) {
        const row = result.rows.row(index);
        if (row.id !== undefined) found.push({ recordId: row.id, title: recordTitle(row.id, row.values, title) });
      }
      return found;
    } catch {
      // Cancelled, or the portal could not answer: completion offers what it has, and says nothing.
      return [];
    } finally {
      listener.dispose();
    }
  }
}

/** The provider and the recent list, fed by record documents opening. */
export function registerCompletion(parts: CompletionParts): vscode.Disposable {
  const recent = new RecentRecords();
  const note = (document: vscode.TextDocument): void => {
    if (document.uri.scheme !== RECORD_SCHEME) return;
    const record = recordOfUri(document.uri);
    if (record) recent.opened(record);
  };
  for (const document of vscode.workspace.textDocuments) note(document);
  return vscode.Disposable.from(
    vscode.workspace.onDidOpenTextDocument(note),
    // The last characters of the usual prefixes: completion opens right after `TCK-` or `#`.
    vscode.languages.registerCompletionItemProvider(COMPLETION_SELECTOR, new ReferenceCompletionProvider(parts, recent), '-', '#'),
  );
}
