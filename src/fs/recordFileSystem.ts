// The `portal:` file system: a record is a JSON document, Ctrl+S updates it, and VS Code's own conflict
// check (Compare / Overwrite) guards someone else's newer change. A thin adapter on the record store
// (src/records/store.ts: copies, conflict check, update, create); this file turns its copies into texts
// and stats, its failures into FileSystemErrors, and VS Code's events into refreshes (recordRefresh.ts).
// New records' documents: newRecordFiles.ts; the apps' JSON Schemas: schemaFiles.ts. Addresses:
// src/model/recordAddress.ts. The clock is passed in.
//
// Requests, as VS Code calls this provider (observed in code-server 1.139; src/README.md "How a request flows"):
// - open:  readFile + stat at once, stat again ~1 s later  -> 1 GET of the record (columns: once per app)
// - save:  stat (the conflict check), writeFile, stat     -> 1 GET + 1 PUT of the changed fields
// A copy of the record is reused only within FRESH_MS of reading it (concurrent calls share one GET), so
// the save's stat always reads the portal anew unless it just did, and writeFile sends against the copy
// that check read. The stat after a write is served from the copy just written. A stat of a document
// without unsaved changes (the editor's second look when opening) may use a copy up to SETTLE_MS old.
//
// What the editor read (`base`) is what readFile served last while the document had no unsaved changes:
// the Compare view of a conflict reads the file too, and must not move what "changed" means.
import * as vscode from 'vscode';
import type { Column } from '../api/types';
import type { Portals } from '../auth/portals';
import type { Catalog } from '../catalog/catalog';
import type { RecordEvents } from '../catalog/recordEvents';
import { Disposable } from '../lifecycle';
import type { Logger } from '../log';
import { parseAddress, recordKey, recordOfUri, schemaReference, type DocumentAddress } from '../model/recordAddress';
import { recordUri } from '../model/recordUri';
import type { AppTarget, RecordTarget } from '../model/targets';
import { describeProblems } from '../records/changes';
import { FRESH_MS, portalFailure, RecordGone, RecordStore, SaveRefused, type RecordCopy } from '../records/store';
import { CopyClock } from './copyClock';
import type { NewRecord } from './newRecords';
import { NewRecordFiles } from './newRecordFiles';
import { RecordRefresh } from './recordRefresh';
import { fieldValues, parseDocument, recordText } from './recordText';
import { SchemaFiles } from './schemaFiles';
import type { Versions } from '../records/versions';

/**
 * How long a copy stands for "now" to a stat of a document without unsaved changes: opening shows the
 * editor a moment after reading (VS Code stats again then, up to a second or so later). Such a stat is
 * never a save's conflict check: a save is of a document with unsaved changes, whose stat reads anew.
 */
export const SETTLE_MS = 5000;

/** What this adapter keeps of a record beside the store's copy: its addresses, its stat, its text. */
export interface DocumentState {
  readonly target: RecordTarget;
  /** The addresses VS Code read this record under (by ids, or named for its tab): events go to each. */
  readonly uris: Map<string, vscode.Uri>;
  readonly clock: CopyClock;
  /** The text of the store's copy (`of`), made once per copy. */
  text?: { readonly of: RecordCopy; readonly text: string };
  /** After a save whose text differs from the portal's copy as written: reload the editor once saved. */
  reloadAfterSave?: boolean;
  /** No tab has shown it since it was last read: when shown again, it is read anew. */
  hidden?: boolean;
  /** Showing it again, read anew (refreshIfHidden). */
  refreshing?: Promise<void>;
}

export interface RecordStateChange {
  readonly record: RecordTarget;
  /** The record's address by ids; its documents may be open under named addresses too. */
  readonly uri: vscode.Uri;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class RecordFileSystem extends Disposable implements vscode.FileSystemProvider {
  private readonly changed = this._register(new vscode.EventEmitter<vscode.FileChangeEvent[]>());
  readonly onDidChangeFile = this.changed.event;
  private readonly stateChanged = this._register(new vscode.EventEmitter<RecordStateChange>());
  /** A record's draft flag or existence changed (decorations, context keys, CodeLens). */
  readonly onDidChangeState = this.stateChanged.event;
  private readonly created = this._register(new vscode.EventEmitter<{ readonly from: vscode.Uri; readonly to: vscode.Uri }>());
  /** A new-record document was saved and the record created. */
  readonly onDidCreate = this.created.event;

  /** The records: copies read, the copy each edit started from, update and create. */
  readonly store: RecordStore;
  /** By recordKey: one state per record, whatever the addresses its documents are open under. */
  private readonly states = new Map<string, DocumentState>();
  /** Records this window deleted (by recordKey): their documents are gone, without asking the portal again. */
  private readonly deleted = new Set<string>();
  /** The documents of apps' JSON Schemas. */
  readonly schemas: SchemaFiles;
  /** The documents of records not created yet. */
  readonly newRecords: NewRecordFiles;
  private readonly refresh: RecordRefresh;

  constructor(
    private readonly portals: Portals,
    catalog: Catalog,
    events: RecordEvents,
    private readonly log: Logger,
    /** The clock of copies, stats and new documents. */
    readonly now: () => number,
    /** Where the copies read and saved are offered (Record History). */
    versions?: Versions,
  ) {
    super();
    const columns = (portalId: string, appId: string): Promise<readonly Column[]> => catalog.columns(portalId, appId);
    this.store = new RecordStore({
      client: (portalId) => portals.client(portalId),
      columns,
      now,
      log,
      onRead: (record, copy, draftBefore) => {
        this.schemas.noteColumns(record, copy.columns);
        if (copy.draft) catalog.noteDraftSeen(record.portalId, record.appId);
        if (draftBefore !== copy.draft) this.stateChanged.fire({ record, uri: recordUri(record) });
      },
      onChanged: (record, kind) => events.fire({ ...record, kind, origin: 'local', source: 'documents' }),
      ...(versions ? { versions: { to: versions, read: 'opened', write: 'saved' } as const } : {}),
    });
    const unavailable = (error: unknown, portalId: string): Error =>
      vscode.FileSystemError.Unavailable(portalFailure(error, this.label(portalId)));
    this.schemas = new SchemaFiles({ columns, unavailable, fireChanged: (uris) => this.fireChanged(uris) });
    const appLabel = async ({ portalId, appId }: AppTarget): Promise<string> =>
      (await catalog.app(portalId, appId).catch(() => undefined))?.name ?? `app ${appId}`;
    this.newRecords = new NewRecordFiles({ columns, store: this.store, now, unavailable, appLabel });
    this.refresh = this._register(new RecordRefresh(this, events, catalog));
  }

  // ------------------------------------------------------------------------------------------------------
  // What the commands, decorations, checks and refresh reactions ask

  /** The record's draft flag as last read (undefined: not read, or the portal does not say). */
  isDraft(uri: vscode.Uri): boolean | undefined {
    const record = recordOfUri(uri);
    return record && this.store.last(record)?.draft;
  }

  /** The new-record document's state, for its banner. */
  newRecordOf(uri: vscode.Uri): Readonly<NewRecord> | undefined {
    return this.newRecords.of(uri);
  }

  /** The copy of the record the editor read (for the read-only checks), when read. */
  baseOf(uri: vscode.Uri): Readonly<Record<string, string>> | undefined {
    const record = recordOfUri(uri);
    return record && this.store.base(record);
  }

  /** Opens a new-record document's content in memory and returns its URI. */
  createNewRecord(app: AppTarget, asDraft: boolean): Promise<vscode.Uri> {
    return this.newRecords.open(app, asDraft);
  }

  /** After "Publish": the record is no draft any more (no request: the PUT said so). */
  notePublished(record: RecordTarget): void {
    this.store.notePublished(record);
    this.stateChanged.fire({ record, uri: recordUri(record) });
  }

  /** After "Delete" (here or elsewhere): the record is in the portal's trash; its documents are gone. */
  noteDeleted(record: RecordTarget): void {
    const uris = this.urisOf(record);
    this.states.delete(recordKey(record));
    this.store.forget(record);
    this.deleted.add(recordKey(record));
    this.stateChanged.fire({ record, uri: recordUri(record) });
    this.changed.fire(uris.map((uri) => ({ type: vscode.FileChangeType.Deleted, uri })));
  }

  /** Opening a record asks the portal again, even for one deleted here (it may be back from the trash). */
  forgetDeleted(record: RecordTarget): void {
    this.deleted.delete(recordKey(record));
  }

  /** Shows a hidden record's current copy (recordRefresh.ts); resolves once VS Code has read it again. */
  refreshIfHidden(uri: vscode.Uri): Promise<void> {
    return this.refresh.refreshIfHidden(uri);
  }

  /** The adapter's state of the record a URI addresses (under any of its addresses). */
  stateAt(uri: vscode.Uri): DocumentState | undefined {
    const record = recordOfUri(uri);
    return record && this.states.get(recordKey(record));
  }

  documentStates(): IterableIterator<DocumentState> {
    return this.states.values();
  }

  /** Every address the record was read under (its address by ids when none). */
  urisOf(record: RecordTarget): vscode.Uri[] {
    const uris = [...(this.states.get(recordKey(record))?.uris.values() ?? [])];
    return uris.length > 0 ? uris : [recordUri(record)];
  }

  /** VS Code reads these documents again (stat; readFile when they changed). */
  fireChanged(uris: readonly vscode.Uri[]): void {
    if (uris.length > 0) this.changed.fire(uris.map((uri) => ({ type: vscode.FileChangeType.Changed, uri })));
  }

  /** A new-record document was saved: its record opens under its id. */
  fireCreated(from: vscode.Uri, to: vscode.Uri): void {
    this.created.fire({ from, to });
  }

  // ------------------------------------------------------------------------------------------------------
  // vscode.FileSystemProvider

  watch(): vscode.Disposable {
    // Changes are pushed (saves, publish, delete, webhooks, refresh): there is nothing to poll.
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const address = this.addressOf(uri);
    switch (address.kind) {
      case 'directory':
        return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
      case 'view': // a view's grid is a custom editor (src/grid/host/): it has no bytes of its own
        return { type: vscode.FileType.File, ctime: 0, mtime: 0, size: 0, permissions: vscode.FilePermission.Readonly };
      case 'schema':
        return this.schemas.stat(address);
      case 'new':
        return this.newRecords.stat(uri);
      case 'record': {
        const state = this.stateOf(uri, address);
        await this.textOf(state, 'stat', this.hasUnsavedChanges(uri) ? FRESH_MS : SETTLE_MS);
        return { type: vscode.FileType.File, ctime: state.clock.ctime, ...state.clock.stat };
      }
    }
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const address = this.addressOf(uri);
    switch (address.kind) {
      case 'directory':
        throw vscode.FileSystemError.FileIsADirectory(uri);
      case 'view':
        return new Uint8Array();
      case 'schema':
        this.log.debug(`readFile ${uri.path}: the schema`);
        return this.schemas.read(address);
      case 'new':
        return this.newRecords.read(uri);
      case 'record': {
        const state = this.stateOf(uri, address);
        const { copy, text } = await this.textOf(state, 'readFile');
        if (!this.hasUnsavedChanges(uri)) this.store.setBase(state.target, copy.data);
        return encoder.encode(text);
      }
    }
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    const address = this.addressOf(uri, true);
    switch (address.kind) {
      case 'directory':
        throw vscode.FileSystemError.FileIsADirectory(uri);
      case 'view':
        throw vscode.FileSystemError.NoPermissions('A view opens as a grid; its rows are saved from the grid.');
      case 'schema':
        throw vscode.FileSystemError.NoPermissions("The schema of an app's records is made from its columns and cannot be edited.");
      case 'new':
        return this.create(uri, decoder.decode(content));
      case 'record':
        return this.update(this.stateOf(uri, address), decoder.decode(content));
    }
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(): void {
    // VS Code makes the parent folders before writing a file it could not stat; they exist already.
  }

  delete(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(
      `${uri.path}: delete a record with "Portal: Delete Record", which moves it to the portal's trash.`,
    );
  }

  rename(oldUri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(`${oldUri.path}: a record's document cannot be renamed.`);
  }

  // ------------------------------------------------------------------------------------------------------
  // Reading

  /** `saving`: a save of a record deleted here says so (VS Code shows only the address otherwise). */
  private addressOf(uri: vscode.Uri, saving = false): DocumentAddress {
    const address = parseAddress(uri);
    if (!address || !this.portals.get(address.portalId)) throw vscode.FileSystemError.FileNotFound(uri);
    if (address.kind === 'record' && this.deleted.has(recordKey(address))) {
      throw vscode.FileSystemError.FileNotFound(
        saving ? `Record ${address.recordId} was deleted in the portal (moved to its trash). Your text is kept; nothing was sent.` : uri,
      );
    }
    return address;
  }

  private stateOf(uri: vscode.Uri, address: DocumentAddress & { kind: 'record' }): DocumentState {
    const key = recordKey(address);
    let state = this.states.get(key);
    if (!state) {
      state = {
        target: { portalId: address.portalId, appId: address.appId, recordId: address.recordId },
        uris: new Map(),
        clock: new CopyClock(this.now()),
      };
      this.states.set(key, state);
    }
    state.uris.set(uri.toString(), uri);
    return state;
  }

  private label(portalId: string): string {
    return this.portals.get(portalId)?.label ?? portalId;
  }

  /** The store's copy and its text; a new copy moves the stat (CopyClock). */
  async textOf(state: DocumentState, caller: string, maxAgeMs = FRESH_MS): Promise<{ copy: RecordCopy; text: string }> {
    let copy: RecordCopy;
    try {
      copy = await this.store.read(state.target, caller, maxAgeMs);
    } catch (error) {
      if (error instanceof RecordGone) throw vscode.FileSystemError.FileNotFound(error.message);
      throw vscode.FileSystemError.Unavailable(portalFailure(error, this.label(state.target.portalId)));
    }
    return { copy, text: this.observe(state, copy) };
  }

  /** The copy's text, made once per copy; the clock sees every copy. */
  private observe(state: DocumentState, copy: RecordCopy): string {
    if (state.text?.of.data === copy.data && state.text.of.columns === copy.columns) {
      if (state.text.of !== copy) state.text = { of: copy, text: state.text.text };
      return state.text.text;
    }
    const text = recordText(copy.data, copy.columns, schemaReference(state.target.portalId, state.target.appId));
    state.clock.observe(text, copy.writableKey, copy.at);
    state.text = { of: copy, text };
    return text;
  }

  private hasUnsavedChanges(uri: vscode.Uri): boolean {
    const key = uri.toString();
    return vscode.workspace.textDocuments.some((document) => document.isDirty && document.uri.toString() === key);
  }

  // ------------------------------------------------------------------------------------------------------
  // Saving

  private parse(text: string, columns: readonly Column[]): Record<string, string> {
    const parsed = parseDocument(text);
    if (!parsed.ok) throw new SaveRefused(`${parsed.message} Nothing was sent.`);
    const values = fieldValues(parsed.values);
    if (values.problems.length > 0) throw new SaveRefused(describeProblems(columns, values.problems));
    return values.fields;
  }

  /** Store failures as VS Code shows them under "Failed to save". */
  private saveFailure(error: unknown, portalId: string): Error {
    if (error instanceof SaveRefused || error instanceof vscode.FileSystemError) return error;
    if (error instanceof RecordGone) return vscode.FileSystemError.FileNotFound(error.message);
    return new SaveRefused(portalFailure(error, this.label(portalId)));
  }

  private async update(state: DocumentState, text: string): Promise<void> {
    // VS Code's conflict check stat()ed just now; without it (a write that skipped stat, or a stat that
    // failed) the store reads here, and refuses to write over a change the check did not see.
    let written: RecordCopy;
    try {
      ({ copy: written } = await this.store.update(state.target, (columns) => this.parse(text, columns)));
    } catch (error) {
      throw this.saveFailure(error, state.target.portalId);
    }
    state.reloadAfterSave = this.observe(state, written) !== text;
  }

  private async create(uri: vscode.Uri, text: string): Promise<void> {
    try {
      await this.newRecords.save(uri, text, (columns) => this.parse(text, columns));
    } catch (error) {
      throw this.saveFailure(error, uri.authority);
    }
  }
}
