// Records as documents, put together: the portal: file system, the checks and aids of its documents (field
// names beside the keys, problems before anything is sent, the draft banner and decoration, the context
// keys of the editor title). The record commands (src/commands/records.ts) are put with them by
// src/features.ts. The file system itself is registered for the
// portal: scheme at activation (src/extension.ts), which hands its calls to the one made here.
import * as vscode from 'vscode';
import type { Stores } from '../catalog/stores';
import { createLogger } from '../log';
import { RECORD_SCHEME } from '../ids';
import { FieldHints } from './fieldHints';
import { RecordBanner } from './recordBanner';
import { trackActiveRecord } from './recordContext';
import { RecordDiagnostics } from './recordDiagnostics';
import { RecordFileSystem } from './recordFileSystem';

export type DocumentParts = Pick<Stores, 'portals' | 'catalog' | 'recordEvents' | 'versions'>;

export interface RecordDocuments {
  readonly documents: RecordFileSystem;
  readonly disposable: vscode.Disposable;
}

export function recordDocuments(parts: DocumentParts): RecordDocuments {
  const log = createLogger('documents');
  const documents = new RecordFileSystem(parts.portals, parts.catalog, parts.recordEvents, log, () => Date.now(), parts.versions);
  const hints = new FieldHints(parts.catalog);
  const banner = new RecordBanner(documents);
  const selector: vscode.DocumentSelector = { scheme: RECORD_SCHEME, language: 'json' };
  const disposable = vscode.Disposable.from(
    documents,
    new RecordDiagnostics(documents, parts.catalog, log),
    hints,
    vscode.languages.registerInlayHintsProvider(selector, hints),
    banner,
    vscode.languages.registerCodeLensProvider(selector, banner),
    vscode.window.registerFileDecorationProvider(banner),
    trackActiveRecord(documents),
  );
  return { documents, disposable };
}
