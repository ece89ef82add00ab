// The new-record documents of the `portal:` file system (/<app_id>/new/new-record-<n>.json): "Portal: New
// Record" opens one in memory with the app's required fields, empty; its first save creates the record
// through the record store, and the document then opens under the record's id (recordRefresh.ts).
import * as vscode from 'vscode';
import { isWritable } from '../api/columnKinds';
import type { Column } from '../api/types';
import { parseAddress, schemaReference } from '../model/recordAddress';
import { newRecordUri } from '../model/recordUri';
import type { AppTarget, RecordTarget } from '../model/targets';
import type { Edit, RecordStore } from '../records/store';
import { isRequiredColumn } from '../schema/recordSchema';
import { NewRecords, type NewRecord } from './newRecords';
import { newRecordText } from './recordText';

export interface NewRecordFilesDeps {
  columns(portalId: string, appId: string): Promise<readonly Column[]>;
  readonly store: Pick<RecordStore, 'create'>;
  now(): number;
}

const encoder = new TextEncoder();

export class NewRecordFiles {
  private readonly entries = new NewRecords();

  constructor(private readonly deps: NewRecordFilesDeps) {}

  /** Opens a new-record document's content in memory and returns its URI. */
  async open(app: AppTarget, asDraft: boolean): Promise<vscode.Uri> {
    const columns = await this.deps.columns(app.portalId, app.appId);
    const text = newRecordText(columns, schemaReference(app.portalId, app.appId), (column) => isRequiredColumn(column) && isWritable(column));
    return newRecordUri(app, this.entries.add(app, text, asDraft, this.deps.now()).n);
  }

  /** The new-record document at `uri`, while it is open. */
  of(uri: vscode.Uri): Readonly<NewRecord> | undefined {
    return parseAddress(uri)?.kind === 'new' ? this.entries.get(uri.authority, uri.path) : undefined;
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const entry = this.existing(uri);
    return { type: vscode.FileType.File, ctime: entry.mtime, mtime: entry.mtime, size: encoder.encode(entry.text).length };
  }

  read(uri: vscode.Uri): Uint8Array {
    return encoder.encode(this.existing(uri).text);
  }

  /** Saves the document: creates its record, once (store failures are the caller's to word). */
  async save(uri: vscode.Uri, appId: string, text: string, edit: Edit): Promise<void> {
    const portalId = uri.authority;
    const entry = this.entries.get(portalId, uri.path);
    if (entry?.createdId !== undefined) throw vscode.FileSystemError.NoPermissions(`This record was created already as record ${entry.createdId}: open it to change it.`);
    const createdId = await this.deps.store.create({ portalId, appId }, edit, { draft: entry?.asDraft === true });
    const live = entry ?? this.entries.add({ portalId, appId }, text, false, this.deps.now());
    live.text = text;
    live.mtime = this.deps.now();
    live.createdId = createdId ?? '';
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

  private existing(uri: vscode.Uri): NewRecord {
    const entry = this.entries.get(uri.authority, uri.path);
    if (!entry) throw vscode.FileSystemError.FileNotFound(uri);
    return entry;
  }
}
