// The new-record documents of the `portal:` file system (/<app_id>/new/new-record-<n>.json, new-draft-<n>.json
// for a draft): "Portal: New Record" opens one in memory with the app's required fields, empty; its first
// save creates the record through the record store, and the document then opens under the record's id
// (recordRefresh.ts). A document whose entry is gone (VS Code restored it after a reload, with the text
// typed, from its backup) is served and saved under its own address all the same (newRecords.ts).
import { RECORD_SCHEME } from '../ids';
import * as vscode from 'vscode';
import { isWritable } from '../api/columnKinds';
import type { Column } from '../api/types';
import { parseAddress, schemaReference } from '../model/recordAddress';
import type { AppTarget, RecordTarget } from '../model/targets';
import type { Edit, RecordStore } from '../records/store';
import { isRequiredColumn } from '../schema/recordSchema';
import { createGuarded, NewRecords, type NewRecord } from './newRecords';
import { newRecordText } from './recordText';
import { shownInTabs } from './tabs';

export interface NewRecordFilesDeps {
  columns(portalId: string, appId: string): Promise<readonly Column[]>;
  readonly store: Pick<RecordStore, 'create'>;
  /** The app's name, to say where to look for a record that may exist. */
  appLabel(app: AppTarget): Promise<string>;
  now(): number;
  /** A failure to read the columns, as the file system reports it. */
  unavailable(error: unknown, portalId: string): Error;
}

const encoder = new TextEncoder();

export class NewRecordFiles {
  private readonly entries = new NewRecords();

  constructor(private readonly deps: NewRecordFilesDeps) {}

  /** Opens a new-record document's content in memory and returns its URI. */
  async open(app: AppTarget, asDraft: boolean): Promise<vscode.Uri> {
    const text = newRecordText(
      await this.deps.columns(app.portalId, app.appId),
      schemaReference(app.portalId, app.appId),
      isNewRecordField,
    );
    const open = new Set([...shownInTabs(), ...vscode.workspace.textDocuments.map((document) => document.uri.toString())]);
    const inUse = (path: string): boolean => open.has(uriOf(app.portalId, path).toString());
    return uriOf(app.portalId, this.entries.add(app, text, asDraft, this.deps.now(), inUse).path);
  }

  /** The new-record document at `uri`, while it is open. */
  of(uri: vscode.Uri): Readonly<NewRecord> | undefined {
    return parseAddress(uri)?.kind === 'new' ? this.entries.get(uri.authority, uri.path) : undefined;
  }

  /** A document opened at a new-record address (one VS Code restored after a reload too) has its entry. */
  opened(uri: vscode.Uri): void {
    if (parseAddress(uri)?.kind === 'new') this.entries.at(uri.authority, uri.path);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const { entry, text } = await this.served(uri);
    return { type: vscode.FileType.File, ctime: entry.mtime, mtime: entry.mtime, size: encoder.encode(text).length };
  }

  async read(uri: vscode.Uri): Promise<Uint8Array> {
    return encoder.encode((await this.served(uri)).text);
  }

  /**
   * Saves the document at `uri`: creates its record, once. The same text saved again sends nothing (its
   * record exists); another text is refused. Saves of one document run one after the other, so a second
   * save sees what the first created. Store failures are the caller's to word.
   */
  save(uri: vscode.Uri, text: string, edit: Edit): Promise<void> {
    const entry = this.entryAt(uri);
    const previous = entry.saving ?? Promise.resolve();
    const saving = previous.catch(() => undefined).then(() => this.createOnce(entry, text, edit));
    entry.saving = saving;
    return saving;
  }

  /** The record a saved new-record document created, to open it under its id. */
  createdBy(uri: vscode.Uri): RecordTarget | undefined {
    const entry = this.of(uri);
    return entry?.createdId ? { portalId: entry.portalId, appId: entry.appId, recordId: entry.createdId } : undefined;
  }

  /** The document was closed: it is gone (a record it created stays). */
  close(uri: vscode.Uri): void {
    if (parseAddress(uri)?.kind === 'new') this.entries.delete(uri.authority, uri.path);
  }

  private async createOnce(entry: NewRecord, text: string, edit: Edit): Promise<void> {
    if (entry.createdId !== undefined) {
      if (text === entry.text) return;
      const which = entry.createdId ? ` as record ${entry.createdId}` : '';
      throw vscode.FileSystemError.NoPermissions(`This record was created already${which}: open it to change it. Nothing was sent.`);
    }
    const app = { portalId: entry.portalId, appId: entry.appId };
    const createdId = await createGuarded(
      entry,
      text,
      async () => (await this.deps.store.create(app, edit, { draft: entry.asDraft })).id,
      () => this.deps.appLabel(app),
    );
    entry.text = text;
    entry.mtime = this.deps.now();
    entry.createdId = createdId ?? '';
  }

  private entryAt(uri: vscode.Uri): NewRecord {
    const entry = this.entries.at(uri.authority, uri.path);
    if (!entry) throw vscode.FileSystemError.FileNotFound(uri);
    return entry;
  }

  /** The entry and its text; an entry made again serves the app's empty new record, as when first opened. */
  private async served(uri: vscode.Uri): Promise<{ entry: NewRecord; text: string }> {
    const entry = this.entryAt(uri);
    if (entry.text === undefined) {
      let columns: readonly Column[];
      try {
        columns = await this.deps.columns(entry.portalId, entry.appId);
      } catch (error) {
        throw this.deps.unavailable(error, entry.portalId);
      }
      entry.text ??= newRecordText(columns, schemaReference(entry.portalId, entry.appId), isNewRecordField);
    }
    return { entry, text: entry.text };
  }
}

/** The fields a new record's document starts with: the required ones the API can set. */
function isNewRecordField(column: Column): boolean {
  return isRequiredColumn(column) && isWritable(column);
}

function uriOf(portalId: string, path: string): vscode.Uri {
  return vscode.Uri.from({ scheme: RECORD_SCHEME, authority: portalId, path });
}
