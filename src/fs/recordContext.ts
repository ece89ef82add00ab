// Context keys of the active editor's document, for the editor title's buttons and the palette:
//   portal.activeDocumentKind   'record' | 'new' | 'schema' | '' (not a portal document)
//   portal.activeRecordIsDraft  true for a record read as a Draft (only apps with Draft mode have them)
import * as vscode from 'vscode';
import { parseAddress } from '../model/recordAddress';
import type { RecordFileSystem } from './recordFileSystem';

export const CONTEXT_KEYS = { kind: 'portal.activeDocumentKind', draft: 'portal.activeRecordIsDraft' } as const;

export function trackActiveRecord(documents: RecordFileSystem): vscode.Disposable {
  let last: { kind: string; draft: boolean } | undefined;
  const update = (): void => {
    const uri = vscode.window.activeTextEditor?.document.uri;
    const kind = (uri && parseAddress(uri)?.kind) ?? '';
    const draft = kind === 'record' && uri !== undefined && documents.isDraft(uri) === true;
    if (last?.kind === kind && last.draft === draft) return;
    last = { kind, draft };
    // Not awaited: context keys settle on their own; the next change sets them again.
    void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.kind, kind);
    void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.draft, draft);
  };
  update();
  return vscode.Disposable.from(vscode.window.onDidChangeActiveTextEditor(update), documents.onDidChangeState(update));
}
