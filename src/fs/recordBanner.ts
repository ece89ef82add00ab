// What a record document is, said where the user looks: a banner above the text (CodeLens: "Draft · Publish",
// "New record: saving creates it") and a badge on its tab (D for a draft, N for a new record). Records of
// apps without Draft mode are never drafts, so they never show either.
import * as vscode from 'vscode';
import { COMMANDS } from '../ids';
import { Disposable } from '../lifecycle';
import { parseAddress } from '../model/recordAddress';
import type { RecordFileSystem } from './recordFileSystem';

export const PUBLISH_COMMAND = COMMANDS.record.publish;

function kindOf(uri: vscode.Uri): 'record' | 'new' | undefined {
  const kind = parseAddress(uri)?.kind;
  return kind === 'record' || kind === 'new' ? kind : undefined;
}

export class RecordBanner extends Disposable implements vscode.CodeLensProvider, vscode.FileDecorationProvider {
  private readonly lensesChanged = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeCodeLenses = this.lensesChanged.event;
  private readonly decorationsChanged = this._register(new vscode.EventEmitter<undefined>());
  readonly onDidChangeFileDecorations = this.decorationsChanged.event;

  constructor(private readonly documents: RecordFileSystem) {
    super();
    this._register(
      documents.onDidChangeState(() => {
        this.lensesChanged.fire();
        // The tree's items and the tabs may show the record under named addresses: rather than remember
        // every address VS Code ever asked about (a map that only grows), all of this provider's badges are
        // asked for again. A record's state changes seldom (read as a draft, published, deleted).
        this.decorationsChanged.fire(undefined);
      }),
    );
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const top = new vscode.Range(0, 0, 0, 0);
    const kind = kindOf(document.uri);
    if (kind === 'record' && this.documents.isDraft(document.uri)) {
      return [
        new vscode.CodeLens(top, { title: '$(edit) Draft: not published yet', command: '' }),
        new vscode.CodeLens(top, {
          title: 'Publish',
          command: PUBLISH_COMMAND,
          arguments: [document.uri],
          tooltip: 'Publish this draft (sends draft "0")',
        }),
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
    if (kind === 'record' && this.documents.isDraft(uri))
      return new vscode.FileDecoration('D', 'Draft: not published yet', new vscode.ThemeColor('list.warningForeground'));
    if (kind === 'new' && this.documents.newRecordOf(uri)) return new vscode.FileDecoration('N', 'New record: saving creates it');
    return undefined;
  }
}
