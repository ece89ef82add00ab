// What a record document is, said where the user looks: a banner above the text (CodeLens: "Draft · Publish",
// "New record: saving creates it") and a badge on its tab (D for a draft, N for a new record). Records of
// apps without Draft mode are never drafts, so they never show either.
import * as vscode from 'vscode';
import { COMMANDS } from '../ids';
import { Disposable } from '../lifecycle';
import { parseAddress, recordKey, recordOfUri } from '../model/recordAddress';
import type { RecordFileSystem } from './recordFileSystem';

export const PUBLISH_COMMAND = COMMANDS.record.publish;

/**
 * Records whose addresses are remembered for redrawing their badge. One whose state changes after it was
 * dropped keeps its old badge under a named address (a tree item) until that is drawn again.
 */
const MAX_DECORATED = 1000;

function kindOf(uri: vscode.Uri): 'record' | 'new' | undefined {
  const kind = parseAddress(uri)?.kind;
  return kind === 'record' || kind === 'new' ? kind : undefined;
}

export class RecordBanner extends Disposable implements vscode.CodeLensProvider, vscode.FileDecorationProvider {
  private readonly lensesChanged = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeCodeLenses = this.lensesChanged.event;
  private readonly decorationsChanged = this._register(new vscode.EventEmitter<vscode.Uri[]>());
  readonly onDidChangeFileDecorations = this.decorationsChanged.event;
  /**
   * The record addresses VS Code asked decorations of, by recordKey, then by their text; the records asked
   * about last at the end. Forgotten once told of a change (VS Code asks again for what it still shows)
   * and beyond MAX_DECORATED records (a big view's items each ask once).
   */
  private readonly decorated = new Map<string, Map<string, vscode.Uri>>();

  constructor(private readonly documents: RecordFileSystem) {
    super();
    this._register(
      documents.onDidChangeState(({ record, uri }) => {
        this.lensesChanged.fire();
        // The tree's items and the tabs may show the record under named addresses: refresh those asked about.
        const key = recordKey(record);
        this.decorationsChanged.fire([uri, ...(this.decorated.get(key)?.values() ?? [])]);
        this.decorated.delete(key);
      }),
    );
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const top = new vscode.Range(0, 0, 0, 0);
    const kind = kindOf(document.uri);
    if (kind === 'record' && this.documents.isDraft(document.uri)) {
      return [
        new vscode.CodeLens(top, { title: '$(edit) Draft: not published yet', command: '' }),
        new vscode.CodeLens(top, { title: 'Publish', command: PUBLISH_COMMAND, arguments: [document.uri], tooltip: 'Publish this draft (sends draft "0")' }),
      ];
    }
    const entry = kind === 'new' ? this.documents.newRecordOf(document.uri) : undefined;
    if (entry) {
      const what = entry.asDraft ? 'New draft' : 'New record';
      return [new vscode.CodeLens(top, { title: `$(new-file) ${what} of app ${entry.appId}: saving creates it`, command: '' })];
    }
    return [];
  }

  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    const kind = kindOf(uri);
    const record = recordOfUri(uri);
    if (record) {
      const key = recordKey(record);
      const uris = this.decorated.get(key) ?? new Map<string, vscode.Uri>();
      this.decorated.delete(key); // set again below: the records asked about last stay longest
      this.decorated.set(key, uris.set(uri.toString(), uri));
      if (this.decorated.size > MAX_DECORATED) this.decorated.delete(this.decorated.keys().next().value as string);
    }
    if (kind === 'record' && this.documents.isDraft(uri)) return new vscode.FileDecoration('D', 'Draft: not published yet', new vscode.ThemeColor('list.warningForeground'));
    if (kind === 'new' && this.documents.newRecordOf(uri)) return new vscode.FileDecoration('N', 'New record: saving creates it');
    return undefined;
  }
}
