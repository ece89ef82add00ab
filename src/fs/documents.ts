// Records as documents, put together: the portal: file system, the checks and aids of its documents (field
// names beside the keys, problems before anything is sent, the draft banner and decoration, the context
// keys of the editor title), and the record commands.
import * as vscode from 'vscode';
import { registerRecordCommands, type RecordCommandParts } from '../commands/records';
import { RECORD_SCHEME } from '../commands/targets';
import { createLogger } from '../log';
import { FieldHints } from './fieldHints';
import { RecordBanner } from './recordBanner';
import { trackActiveRecord } from './recordContext';
import { RecordDiagnostics } from './recordDiagnostics';
import { RecordFileSystem } from './recordFileSystem';

export type DocumentParts = Omit<RecordCommandParts, 'documents'>;

export function registerRecordDocuments(parts: DocumentParts): { documents: RecordFileSystem; disposable: vscode.Disposable } {
  const log = createLogger('documents');
  const documents = new RecordFileSystem(parts.portals, parts.catalog, parts.recordEvents, log);
  const hints = new FieldHints(parts.catalog);
  const banner = new RecordBanner(documents);
  const selector: vscode.DocumentSelector = { scheme: RECORD_SCHEME, language: 'json' };
  const disposable = vscode.Disposable.from(
    documents,
    vscode.workspace.registerFileSystemProvider(RECORD_SCHEME, documents, { isCaseSensitive: true }),
    new RecordDiagnostics(documents, parts.catalog, log),
    hints,
    vscode.languages.registerInlayHintsProvider(selector, hints),
    banner,
    vscode.languages.registerCodeLensProvider(selector, banner),
    vscode.window.registerFileDecorationProvider(banner),
    registerRecordCommands({ ...parts, documents }),
    trackActiveRecord(documents),
  );
  return { documents, disposable };
}
