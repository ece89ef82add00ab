// Records as documents: open one, start a new one, publish a draft, delete one (to the portal's trash).
// Each takes a target (a tree element, a record URI, {portalId, appId, recordId}) or, from the palette,
// asks; the active record document is the target of the editor title's buttons.
import { cancelled } from '../api/errors';
import * as vscode from 'vscode';
import type { Catalog } from '../catalog/catalog';
import type { Stores } from '../catalog/stores';
import { closeDocument, closeDocuments } from '../fs/closeDocument';
import type { RecordFileSystem } from '../fs/recordFileSystem';
import { RECORD_COMMANDS } from '../ids';
import { recordNamesOf, recordOfUri } from '../model/recordAddress';
import { isSameRecord, openRecordUri, recordUri } from '../model/recordUri';
import { appTargetOf, recordTargetOf, type AppTarget, type RecordTarget } from '../model/targets';
import { appRecords } from '../records/store';
import { runReported } from '../ui/errorBoundary';
import { prompter, tell } from '../ui/prompter';
import { pickApp, pickRecord } from './pickers';
import type { CommandTable } from './register';

export type RecordCommandParts = Pick<Stores, 'portals' | 'catalog' | 'rows' | 'titles' | 'recordEvents'> & {
  readonly documents: RecordFileSystem;
};

/** The record of the active editor, when it shows one (not a new record, not a schema). */
function activeRecord(): RecordTarget | undefined {
  const uri = vscode.window.activeTextEditor?.document.uri;
  return uri && recordOfUri(uri);
}

/** The app of the active editor's document (a record or a new record of it). */
function activeApp(): AppTarget | undefined {
  const uri = vscode.window.activeTextEditor?.document.uri;
  return uri && appTargetOf(uri);
}

async function appName(catalog: Catalog, target: AppTarget): Promise<string> {
  try {
    return (await catalog.app(target.portalId, target.appId))?.name ?? `app ${target.appId}`;
  } catch {
    return `app ${target.appId}`;
  }
}

async function openRecord(parts: RecordCommandParts, arg: unknown): Promise<string | undefined> {
  const given = recordTargetOf(arg);
  const picked = given ? undefined : await pickRecord(parts, { title: 'Open Record' });
  const target = given ?? picked;
  if (!target) throw cancelled('Opening a record');
  // The document open already keeps its address (a title changed since does not open a second one).
  const uri = openRecordUri(target) ?? recordUri(target, recordNamesOf(picked ?? arg));
  parts.documents.forgetDeleted(target);
  await vscode.window.showTextDocument(uri, { preview: false });
  await parts.documents.refreshIfHidden(uri);
  return uri.toString();
}

async function newRecord(parts: RecordCommandParts, arg: unknown): Promise<string | undefined> {
  const app = appTargetOf(arg) ?? activeApp() ?? (await pickApp(parts.portals, parts.catalog, { title: 'New Record' }));
  if (!app) throw cancelled('Creating a record');
  const info = await parts.catalog.app(app.portalId, app.appId);
  let asDraft = false;
  if (info?.draftMode === true) {
    const items = [
      { label: 'Record', detail: 'Published when you save it.', draft: false },
      { label: 'Draft', detail: 'Saved as a draft; publish it later.', draft: true },
    ];
    const picked = await prompter().quickPick(items, {
      title: `New Record in ${info.name}`,
      placeHolder: 'Create a published record or a draft?',
    });
    if (!picked) throw cancelled('Creating a record');
    asDraft = picked.draft;
  }
  const uri = await parts.documents.createNewRecord(app, asDraft);
  await vscode.window.showTextDocument(uri, { preview: false });
  return uri.toString();
}

async function publishRecord(parts: RecordCommandParts, arg: unknown): Promise<void> {
  const target = recordTargetOf(arg) ?? activeRecord() ?? (await pickRecord(parts, { title: 'Publish Draft', onlyDrafts: true }));
  if (!target) throw cancelled('Publishing a draft');
  const uri = openRecordUri(target) ?? recordUri(target);
  // A record picked by id may never have been read: ask the portal whether it is a draft before sending.
  const draft =
    parts.documents.isDraft(uri) ?? (await parts.portals.client(target.portalId).readRecord(target.appId, target.recordId)).draft;
  if (draft === false) throw new Error(`Record ${target.recordId} is published already.`);
  // Publishing sends draft "0" and no field: the record's data stays as it is.
  await appRecords(parts.portals.client(target.portalId), target.appId).update(target.recordId, {}, undefined, { publish: true });
  parts.documents.notePublished(target);
  // The documents know already (notePublished; the text does not change): they need not read it again.
  parts.recordEvents.fire({ ...target, kind: 'updated', origin: 'local', source: 'documents' });
  const unsaved = vscode.workspace.textDocuments.some((document) => document.isDirty && isSameRecord(document.uri, target));
  tell(
    'info',
    `Record ${target.recordId} of ${await appName(parts.catalog, target)} is published.${unsaved ? ' Your unsaved changes to it are not: save them.' : ''}`,
  );
}

async function deleteRecord(parts: RecordCommandParts, arg: unknown): Promise<void> {
  const target = recordTargetOf(arg) ?? activeRecord() ?? (await pickRecord(parts, { title: 'Delete Record' }));
  if (!target) throw cancelled('Deleting a record');
  const unsaved = vscode.workspace.textDocuments.some((document) => document.isDirty && isSameRecord(document.uri, target));
  const name = await appName(parts.catalog, target);
  const answer = await prompter().warn(
    `Delete record ${target.recordId} of ${name}? It moves to the portal's trash.${unsaved ? ' Your unsaved changes to it are discarded.' : ''}`,
    { modal: true },
    'Delete',
  );
  if (answer !== 'Delete') throw cancelled('Deleting a record');
  await appRecords(parts.portals.client(target.portalId), target.appId).delete(target.recordId);
  parts.documents.noteDeleted(target);
  await closeDocuments((uri) => isSameRecord(uri, target));
  parts.recordEvents.fire({ ...target, kind: 'deleted', origin: 'local' });
  tell('info', `Record ${target.recordId} moved to the portal's trash.`);
}

export function recordCommands(parts: RecordCommandParts): CommandTable {
  return {
    [RECORD_COMMANDS.open]: (arg) => openRecord(parts, arg),
    [RECORD_COMMANDS.create]: (arg) => newRecord(parts, arg),
    [RECORD_COMMANDS.publish]: (arg) => publishRecord(parts, arg),
    [RECORD_COMMANDS.delete]: (arg) => deleteRecord(parts, arg),
  };
}

/** A new record, once saved, reopens under its id. */
export function reopenCreatedRecords(parts: RecordCommandParts): vscode.Disposable {
  return parts.documents.onDidCreate(({ from, to }) =>
    runReported(RECORD_COMMANDS.create, async () => {
      const target = recordTargetOf(to);
      // Typed on while it was being created: the document holds more than was saved (VS Code may show it as
      // saved all the same); closing it would throw that text away. It stays, and the record opens beside it.
      const saved = parts.documents.newRecordOf(from)?.text;
      const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === from.toString());
      if (document && (document.isDirty || (saved !== undefined && document.getText() !== saved))) {
        await vscode.window.showTextDocument(to, { preview: false, viewColumn: vscode.ViewColumn.Beside });
        if (target) tell('info', `Record ${target.recordId} created. Your later changes are still in the new-record tab.`);
        return;
      }
      await closeDocument(from);
      await vscode.window.showTextDocument(to, { preview: false });
      if (target) tell('info', `Created record ${target.recordId} of ${await appName(parts.catalog, target)}.`);
    }),
  );
}
