// The Problems of record documents that the JSON schema cannot express (src/fs/documentProblems.ts), kept
// current while the user types, so a bad value is seen before anything is sent.
import { RECORD_SCHEME } from '../ids';
import * as vscode from 'vscode';
import type { Column } from '../api/types';
import type { Catalog } from '../catalog/catalog';
import { Disposable } from '../lifecycle';
import type { Logger } from '../log';
import { parseAddress } from '../model/recordAddress';
import { documentFields } from './documentFields';
import { documentProblems } from './documentProblems';
import type { RecordFileSystem } from './recordFileSystem';
import { shownInTabs } from './tabs';

const DEBOUNCE_MS = 150;
export const DIAGNOSTIC_SOURCE = 'Portal';

export class RecordDiagnostics extends Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('portal');
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly documents: RecordFileSystem,
    private readonly catalog: Catalog,
    private readonly log: Logger,
  ) {
    super();
    this._registerAll(
      this.collection,
      vscode.workspace.onDidOpenTextDocument((document) => this.schedule(document, 0)),
      vscode.workspace.onDidChangeTextDocument((event) => this.schedule(event.document, DEBOUNCE_MS)),
      vscode.workspace.onDidCloseTextDocument((document) => this.forget(document.uri)),
      vscode.window.onDidChangeVisibleTextEditors((editors) => editors.forEach((editor) => this.schedule(editor.document, 0))),
      documents.onDidChangeState(() => this.checkAll()),
      documents.onDidChangeFile(() => this.checkAll()),
      catalog.onDidChange(() => this.checkAll()),
    );
    this.checkAll();
  }

  override dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    super.dispose();
  }

  /** Every document a tab shows; the others are checked when shown again (no columns read for them). */
  private checkAll(): void {
    const shown = shownInTabs();
    for (const document of vscode.workspace.textDocuments) {
      if (shown.has(document.uri.toString())) this.schedule(document, DEBOUNCE_MS);
      else this.forget(document.uri);
    }
  }

  private schedule(document: vscode.TextDocument, delayMs: number): void {
    if (document.uri.scheme !== RECORD_SCHEME) return;
    const key = document.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        // Not awaited: a listener; a failed check is logged and the next edit checks again.
        void this.check(document).catch((error: unknown) =>
          this.log.warn(`Checking ${document.uri.path}: ${error instanceof Error ? error.message : String(error)}`),
        );
      }, delayMs),
    );
  }

  private forget(uri: vscode.Uri): void {
    clearTimeout(this.timers.get(uri.toString()));
    this.timers.delete(uri.toString());
    this.collection.delete(uri);
  }

  private async check(document: vscode.TextDocument): Promise<void> {
    const address = parseAddress(document.uri);
    if (document.isClosed || (address?.kind !== 'record' && address?.kind !== 'new')) return;
    const { portalId, appId } = address;
    const columns: readonly Column[] = this.catalog.peekColumns(portalId, appId) ?? (await this.catalog.columns(portalId, appId));
    if (document.isClosed) return;
    const problems = documentProblems(documentFields(document.getText()), columns, {
      creating: address.kind === 'new',
      base: this.documents.baseOf(document.uri),
    });
    this.collection.set(
      document.uri,
      problems.map((problem) => {
        const range = new vscode.Range(document.positionAt(problem.offset), document.positionAt(problem.offset + problem.length));
        const diagnostic = new vscode.Diagnostic(
          range,
          problem.message,
          problem.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
        );
        diagnostic.source = DIAGNOSTIC_SOURCE;
        diagnostic.code = problem.field;
        return diagnostic;
      }),
    );
  }
}
