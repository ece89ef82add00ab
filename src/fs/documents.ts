// Records as documents, put together: the portal: file system, the checks and aids of its documents (field
// names beside the keys, problems before anything is sent, the draft banner and decoration, the context
// keys of the editor title), and the record commands.
import * as vscode from 'vscode';
import { registerRecordCommands, type RecordCommandParts } from '../commands/records';
import { RECORD_SCHEME } from '../commands/targets';
import { createLogger } from '../log';
import { trackActiveRecord } from './recordContext';
import { RecordFileSystem } from './recordFileSystem';

export type DocumentParts = Omit<RecordCommandParts, 'documents'>;

export function registerRecordDocuments(parts: DocumentParts): { documents: RecordFileSystem; disposable: vscode.Disposable } {
  const documents = new RecordFileSystem(parts.portals, parts.catalog, parts.recordEvents, createLogger('documents'));
  const disposable = vscode.Disposable.from(
    documents,
    vscode.workspace.registerFileSystemProvider(RECORD_SCHEME, documents, { isCaseSensitive: true }),
    registerRecordCommands({ ...parts, documents }),
    trackActiveRecord(documents),
  );
  return { documents, disposable };
}
