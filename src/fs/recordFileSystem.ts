// The `portal:` file system: a record is a JSON document, Ctrl+S updates it, and VS Code's own conflict
// check (Compare / Overwrite) guards someone else's newer change. Paths: src/fs/documentPaths.ts.
//
// Requests, as VS Code calls this provider (observed in code-server 1.139; README "Records as documents"):
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
import { isWritable } from '../api/columnKinds';
import { isPortalError, type PortalError } from '../api/errors';
import type { Column, RecordData } from '../api/types';
import type { Portals } from '../auth/portals';
import type { Catalog } from '../catalog/catalog';
import type { RecordEvents } from '../catalog/recordEvents';
import { appTargetOf, type AppTarget, type RecordTarget } from '../model/targets';
import { parseDocumentPath, RECORD_SCHEME, recordKey, recordOfUri, recordPath, schemaReference, type DocumentPath } from '../model/recordAddress';
import { recordUri, schemaUri } from '../model/recordUri';
import type { Logger } from '../log';
import { buildRecordSchema, isRequiredColumn } from '../schema/recordSchema';
import { CopyClock } from './copyClock';
import { NewRecords, type NewRecord } from './newRecords';
import { shownInTabs } from './tabs';
import { createBody, describeProblems, fieldValues, updateBody } from './recordChanges';
import { newRecordText, parseDocument, recordText } from './recordText';

/** How long a copy read from the portal stands for "now". */
export const FRESH_MS = 300;
/**
 * How long a copy stands for "now" to a stat of a document without unsaved changes: opening shows the
 * editor a moment after reading (VS Code stats again then, up to a second or so later). Such a stat is
 * never a save's conflict check: a save is of a document with unsaved changes, whose stat reads anew.
 */
export const SETTLE_MS = 5000;
/** How long opening waits for VS Code to show a hidden record's current copy. */
const REFRESH_WAIT_MS = 3000;

interface ServerCopy {
  readonly data: RecordData;
  readonly draft: boolean | undefined;
  readonly text: string;
  readonly writableKey: string;
  /** The columns the text was made with (the catalog's array: a new one means the columns changed). */
  readonly columns: readonly Column[];
  /** When this copy was known to be the portal's. */
  at: number;
}

interface RecordState {
  readonly target: RecordTarget;
  /** The addresses VS Code read this record under (by ids, or named for its tab): events go to each. */
  readonly uris: Map<string, vscode.Uri>;
  readonly clock: CopyClock;
  server?: ServerCopy;
  /** The copy the editor read. */
  base?: RecordData;
  inflight?: Promise<ServerCopy>;
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

/**
 * A save refused before anything was sent, or by the portal. A plain Error rather than a FileSystemError:
 * VS Code shows its name in "Failed to save" ("Unknown (FileSystemError): ..."), which says nothing to
 * the user; "Error: f15 (Order date): ..." reads better.
 */
class SaveRefused extends Error {
  override readonly name = 'Error';
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function writableKeyOf(data: RecordData, columns: readonly Column[]): string {
  return JSON.stringify(columns.filter(isWritable).map((column) => data[column.field_id_in_data] ?? ''));
}

function isNotFound(error: unknown): error is PortalError {
  return isPortalError(error) && error.status === 404;
}

/** The one sentence a failed save, open or read shows: the portal's own message, and what to do. */
export function portalFailure(error: unknown, portalLabel: string): string {
  if (!isPortalError(error)) return error instanceof Error ? error.message : String(error);
  const portal = error.portalMessage && !error.message.includes(error.portalMessage) ? ` (${error.portalMessage})` : '';
  const advice =
    error.code === 'unauthorized'
      ? ` Sign in to "${portalLabel}" (Portal: Sign In), then save again: your text is kept.`
      : error.kind === 'network' || error.kind === 'timeout' || (error.status ?? 0) >= 500
        ? ' Your text is kept: save again when the portal answers.'
        : '';
  return `${error.message}${portal}${advice}`;
}

export class RecordFileSystem implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  private readonly stateChanged = new vscode.EventEmitter<RecordStateChange>();
  /** A record's draft flag or existence changed (decorations, context keys, CodeLens). */
  readonly onDidChangeState = this.stateChanged.event;
  private readonly created = new vscode.EventEmitter<{ readonly from: vscode.Uri; readonly to: vscode.Uri }>();
  /** A new-record document was saved and the record created. */
  readonly onDidCreate = this.created.event;

  /** By recordKey: one state per record, whatever the addresses its documents are open under. */
  private readonly records = new Map<string, RecordState>();
  /** Records this window deleted (by recordKey): their documents are gone, without asking the portal again. */
  private readonly deleted = new Set<string>();
  /** Schema documents served, with the columns they were made from. */
  private readonly schemas = new Map<string, readonly Column[]>();
  private readonly newRecords = new NewRecords();
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly portals: Portals,
    private readonly catalog: Catalog,
    private readonly events: RecordEvents,
    private readonly log: Logger,
  ) {
    this.subscriptions.push(
      this.changed,
      this.stateChanged,
      this.created,
      events.onDidChange((change) => this.onRecordChange(change)),
      catalog.onDidChange((change) => this.onCatalogChange(change.portalId, change.appId)),
      vscode.workspace.onDidSaveTextDocument((document) => this.afterSave(document.uri)),
      vscode.workspace.onDidCloseTextDocument((document) => this.afterClose(document.uri)),
      vscode.window.tabGroups.onDidChangeTabs((event) => this.afterTabsClosed(event.closed)),
      vscode.window.onDidChangeVisibleTextEditors((editors) => {
        for (const editor of editors) void this.refreshIfHidden(editor.document.uri);
      }),
    );
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
  }

  // ------------------------------------------------------------------------------------------------------
  // What the commands, decorations and checks ask

  /** The record's draft flag as last read (undefined: not read, or the portal does not say). */
  isDraft(uri: vscode.Uri): boolean | undefined {
    return this.stateAt(uri)?.server?.draft;
  }

  /** The new-record document's state, for its banner. */
  newRecordOf(uri: vscode.Uri): Readonly<NewRecord> | undefined {
    return uri.scheme === RECORD_SCHEME ? this.newRecords.get(uri.authority, uri.path) : undefined;
  }

  /** The copy of the record the editor read (for the read-only checks), when read. */
  baseOf(uri: vscode.Uri): RecordData | undefined {
    return this.stateAt(uri)?.base;
  }

  /** Opens a new-record document's content in memory and returns its URI. */
  async createNewRecord(app: AppTarget, asDraft: boolean): Promise<vscode.Uri> {
    const columns = await this.catalog.columns(app.portalId, app.appId);
    const text = newRecordText(columns, schemaReference(app.portalId, app.appId), (column) => isRequiredColumn(column) && isWritable(column));
    const entry = this.newRecords.add(app.portalId, app.appId, text, asDraft, Date.now());
    return vscode.Uri.from({ scheme: RECORD_SCHEME, authority: app.portalId, path: entry.path });
  }

  /** After "Publish": the record is no draft any more (no request: the PUT said so). */
  notePublished(record: RecordTarget): void {
    const state = this.records.get(recordKey(record));
    if (state?.server) state.server = { ...state.server, draft: false };
    this.stateChanged.fire({ record, uri: recordUri(record) });
  }

  /** After "Delete": the record is in the portal's trash; its document is gone. */
  noteDeleted(record: RecordTarget): void {
    const uris = this.urisOf(record);
    this.records.delete(recordKey(record));
    this.deleted.add(recordKey(record));
    this.stateChanged.fire({ record, uri: recordUri(record) });
    this.changed.fire(uris.map((uri) => ({ type: vscode.FileChangeType.Deleted, uri })));
  }

  /** Opening a record asks the portal again, even for one deleted here (it may be back from the trash). */
  forgetDeleted(record: RecordTarget): void {
    this.deleted.delete(recordKey(record));
  }

  // ------------------------------------------------------------------------------------------------------
  // vscode.FileSystemProvider

  watch(): vscode.Disposable {
    // Changes are pushed (saves, publish, delete, webhooks, refresh): there is nothing to poll.
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const path = this.pathOf(uri);
    switch (path.kind) {
      case 'directory':
        return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
      case 'schema': {
        const text = await this.schemaText(uri.authority, path.appId);
        return { type: vscode.FileType.File, ctime: 0, mtime: 0, size: encoder.encode(text).length, permissions: vscode.FilePermission.Readonly };
      }
      case 'new': {
        const entry = this.newEntry(uri);
        return { type: vscode.FileType.File, ctime: entry.mtime, mtime: entry.mtime, size: encoder.encode(entry.text).length };
      }
      case 'record': {
        const state = this.stateOf(uri, path);
        await this.copyOf(state, 'stat', this.hasUnsavedChanges(uri) ? FRESH_MS : SETTLE_MS);
        return { type: vscode.FileType.File, ctime: state.clock.ctime, ...state.clock.stat };
      }
    }
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const path = this.pathOf(uri);
    switch (path.kind) {
      case 'directory':
        throw vscode.FileSystemError.FileIsADirectory(uri);
      case 'schema':
        this.log.debug(`readFile ${uri.path}: the schema`);
        return encoder.encode(await this.schemaText(uri.authority, path.appId));
      case 'new':
        return encoder.encode(this.newEntry(uri).text);
      case 'record': {
        const state = this.stateOf(uri, path);
        const copy = await this.copyOf(state, 'readFile');
        if (!this.hasUnsavedChanges(uri)) state.base = copy.data;
        return encoder.encode(copy.text);
      }
    }
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    const path = this.pathOf(uri);
    switch (path.kind) {
      case 'directory':
        throw vscode.FileSystemError.FileIsADirectory(uri);
      case 'schema':
        throw vscode.FileSystemError.NoPermissions('The schema of an app\'s records is made from its columns and cannot be edited.');
      case 'new':
        return this.create(uri, path.appId, decoder.decode(content));
      case 'record':
        return this.update(this.stateOf(uri, path), decoder.decode(content));
    }
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(): void {
    // VS Code makes the parent folders before writing a file it could not stat; they exist already.
  }

  delete(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(`${uri.path}: delete a record with "Portal: Delete Record", which moves it to the portal's trash.`);
  }

  rename(oldUri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(`${oldUri.path}: a record's document cannot be renamed.`);
  }

  // ------------------------------------------------------------------------------------------------------
  // Reading

  private pathOf(uri: vscode.Uri): DocumentPath {
    const path = parseDocumentPath(uri.path);
    const record = path?.kind === 'record' ? { portalId: uri.authority, appId: path.appId, recordId: path.recordId } : undefined;
    if (!path || !this.portals.get(uri.authority) || (record && this.deleted.has(recordKey(record)))) throw vscode.FileSystemError.FileNotFound(uri);
    return path;
  }

  private stateOf(uri: vscode.Uri, path: DocumentPath & { kind: 'record' }): RecordState {
    const target = { portalId: uri.authority, appId: path.appId, recordId: path.recordId };
    let state = this.records.get(recordKey(target));
    if (!state) {
      state = { target, uris: new Map(), clock: new CopyClock(Date.now()) };
      this.records.set(recordKey(target), state);
    }
    state.uris.set(uri.toString(), uri);
    return state;
  }

  /** The state of the record a URI addresses (under any of its addresses). */
  private stateAt(uri: vscode.Uri): RecordState | undefined {
    const record = recordOfUri(uri);
    return record && this.records.get(recordKey(record));
  }

  /** Every address the record was read under (its address by ids when none). */
  private urisOf(record: RecordTarget): vscode.Uri[] {
    const uris = [...(this.records.get(recordKey(record))?.uris.values() ?? [])];
    return uris.length > 0 ? uris : [recordUri(record)];
  }

  private newEntry(uri: vscode.Uri): NewRecord {
    const entry = this.newRecords.get(uri.authority, uri.path);
    if (!entry) throw vscode.FileSystemError.FileNotFound(uri);
    return entry;
  }

  private label(portalId: string): string {
    return this.portals.get(portalId)?.label ?? portalId;
  }

  /** The portal's copy: the one read within FRESH_MS (or being read), else read now. */
  private copyOf(state: RecordState, caller: string, maxAgeMs = FRESH_MS): Promise<ServerCopy> {
    const where = recordPath(state.target);
    if (state.inflight) {
      this.log.debug(`${caller} ${where}: shares the read in flight`);
      return state.inflight;
    }
    const age = state.server ? Date.now() - state.server.at : Infinity;
    if (state.server && age <= maxAgeMs) {
      this.log.debug(`${caller} ${where}: copy of ${age} ms ago`);
      return Promise.resolve(state.server);
    }
    this.log.debug(`${caller} ${where}: reads the record`);
    const reading = this.read(state).finally(() => {
      if (state.inflight === reading) state.inflight = undefined;
    });
    state.inflight = reading;
    return reading;
  }

  private async read(state: RecordState): Promise<ServerCopy> {
    const { portalId, appId, recordId } = state.target;
    let record;
    let columns: readonly Column[];
    try {
      [record, columns] = await Promise.all([this.portals.client(portalId).readRecord(appId, recordId), this.catalog.columns(portalId, appId)]);
    } catch (error) {
      if (isNotFound(error)) throw vscode.FileSystemError.FileNotFound(`Record ${recordId} of app ${appId} is not in the portal (deleted, or in its trash).`);
      throw vscode.FileSystemError.Unavailable(portalFailure(error, this.label(portalId)));
    }
    const draftBefore = state.server?.draft;
    const copy = this.remember(state, record.data, record.draft, columns);
    this.staleSchema(portalId, appId, columns);
    if (record.draft) this.catalog.noteDraftSeen(portalId, appId);
    if (draftBefore !== record.draft) this.stateChanged.fire({ record: state.target, uri: recordUri(state.target) });
    return copy;
  }

  private remember(state: RecordState, data: RecordData, draft: boolean | undefined, columns: readonly Column[]): ServerCopy {
    const text = recordText(data, columns, schemaReference(state.target.portalId, state.target.appId));
    const writableKey = writableKeyOf(data, columns);
    const now = Date.now();
    state.clock.observe(text, writableKey, now);
    state.server = { data, draft, text, writableKey, columns, at: now };
    return state.server;
  }

  /** The app's schema was served from other columns than these: VS Code reads it again. */
  private staleSchema(portalId: string, appId: string, columns: readonly Column[]): void {
    const uri = schemaUri({ portalId, appId });
    const used = this.schemas.get(uri.toString());
    if (used === undefined || used === columns) return;
    this.schemas.delete(uri.toString());
    this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  private hasUnsavedChanges(uri: vscode.Uri): boolean {
    const key = uri.toString();
    return vscode.workspace.textDocuments.some((document) => document.isDirty && document.uri.toString() === key);
  }

  private async schemaText(portalId: string, appId: string): Promise<string> {
    let columns: readonly Column[];
    try {
      columns = await this.catalog.columns(portalId, appId);
    } catch (error) {
      throw vscode.FileSystemError.Unavailable(portalFailure(error, this.label(portalId)));
    }
    this.schemas.set(schemaUri({ portalId, appId }).toString(), columns);
    return `${JSON.stringify(buildRecordSchema(columns), null, 2)}\n`;
  }

  // ------------------------------------------------------------------------------------------------------
  // Saving

  private parse(text: string, columns: readonly Column[]): RecordData {
    const parsed = parseDocument(text);
    if (!parsed.ok) throw new SaveRefused(`${parsed.message} Nothing was sent.`);
    const values = fieldValues(parsed.values);
    if (values.problems.length > 0) throw new SaveRefused(describeProblems(columns, values.problems));
    return values.fields;
  }

  private async update(state: RecordState, text: string): Promise<void> {
    const { portalId, appId, recordId } = state.target;
    // VS Code's conflict check stat()ed just now; without it (a write that skipped stat, or a stat that
    // failed) read here, and refuse to write over a change the check did not see.
    const checked = state.server !== undefined && Date.now() - state.server.at <= FRESH_MS && !state.inflight;
    const server = await this.copyOf(state, 'writeFile');
    const base = state.base ?? server.data;
    if (!checked && writableKeyOf(base, server.columns) !== server.writableKey) {
      throw new SaveRefused(`Record ${recordId} changed in the portal since you opened it. Save again to compare or overwrite. Nothing was sent.`);
    }
    const edited = this.parse(text, server.columns);
    const body = updateBody({ columns: server.columns, base, server: server.data, edited });
    if (body.problems.length > 0) throw new SaveRefused(describeProblems(server.columns, body.problems));
    const sent = Object.keys(body.fields);
    if (sent.length > 0) {
      try {
        await this.portals.client(portalId).updateRecord(appId, recordId, body.fields);
      } catch (error) {
        if (isNotFound(error)) throw vscode.FileSystemError.FileNotFound(`Record ${recordId} of app ${appId} is not in the portal any more (deleted, or in its trash). Your text is kept; nothing was saved.`);
        throw new SaveRefused(portalFailure(error, this.label(portalId)));
      }
    }
    this.log.info(`Saved record ${recordId} of app ${appId}: ${sent.length === 0 ? 'no field changed, nothing sent' : `sent ${sent.join(', ')}`}.`);
    const written = this.remember(state, { ...server.data, ...body.fields }, server.draft, server.columns);
    state.base = written.data;
    state.reloadAfterSave = written.text !== text;
    if (sent.length > 0) this.events.fire({ portalId, appId, recordId, kind: 'updated', origin: 'local' });
  }

  private async create(uri: vscode.Uri, appId: string, text: string): Promise<void> {
    const portalId = uri.authority;
    const entry = this.newRecords.get(portalId, uri.path);
    if (entry?.createdId !== undefined) throw vscode.FileSystemError.NoPermissions(`This record was created already as record ${entry.createdId}: open it to change it.`);
    let columns: readonly Column[];
    try {
      columns = await this.catalog.columns(portalId, appId);
    } catch (error) {
      throw vscode.FileSystemError.Unavailable(portalFailure(error, this.label(portalId)));
    }
    const body = createBody(columns, this.parse(text, columns));
    if (body.problems.length > 0) throw new SaveRefused(describeProblems(columns, body.problems));
    let created;
    try {
      created = await this.portals.client(portalId).createRecord(appId, body.fields, { draft: entry?.asDraft === true });
    } catch (error) {
      throw new SaveRefused(portalFailure(error, this.label(portalId)));
    }
    const live = entry ?? this.newRecords.add(portalId, appId, text, false, Date.now());
    live.text = text;
    live.mtime = Date.now();
    if (created.id === undefined) {
      this.log.warn(`Created a record in app ${appId}; the portal's answer did not say its id.`);
      live.createdId = '';
      return;
    }
    live.createdId = created.id;
    this.log.info(`Created record ${created.id} of app ${appId}${entry?.asDraft ? ' as a draft' : ''}.`);
    this.events.fire({ portalId, appId, recordId: created.id, kind: 'created', origin: 'local' });
  }

  private afterSave(uri: vscode.Uri): void {
    if (uri.scheme !== RECORD_SCHEME) return;
    const entry = this.newRecords.get(uri.authority, uri.path);
    if (entry?.createdId) {
      const target = { portalId: entry.portalId, appId: entry.appId, recordId: entry.createdId };
      this.created.fire({ from: uri, to: recordUri(target) });
      return;
    }
    const state = this.stateAt(uri);
    if (!state?.reloadAfterSave || !state.server) return;
    // The editor holds the text as typed; the portal's copy is the canonical text (another order, fields
    // someone else changed meanwhile). Moving mtime alone makes VS Code reload it, from this copy.
    state.reloadAfterSave = false;
    state.clock.touch(Date.now());
    state.server.at = Date.now();
    this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  /**
   * A record no tab shows any more is read anew when shown again. VS Code keeps the document alive a
   * while after its tab closes and shows it again as it was, without asking this provider, so a record
   * changed meanwhile would look unchanged; a change event makes VS Code read it (stat: 1 GET; readFile
   * only when it changed).
   */
  private afterTabsClosed(closed: readonly vscode.Tab[]): void {
    const shown = shownInTabs();
    for (const tab of closed) {
      if (!(tab.input instanceof vscode.TabInputText) || tab.input.uri.scheme !== RECORD_SCHEME) continue;
      const state = this.stateAt(tab.input.uri);
      if (state?.server && ![...state.uris.keys()].some((key) => shown.has(key))) {
        state.server.at = 0;
        state.hidden = true;
      }
    }
  }

  /**
   * Shows a hidden record's current copy: resolves once VS Code has read it again (at most a few seconds),
   * or at once when the record was not hidden. The editor of a document with unsaved changes is left as it is.
   */
  async refreshIfHidden(uri: vscode.Uri): Promise<void> {
    const key = uri.toString();
    const state = this.stateAt(uri);
    if (state?.refreshing) return state.refreshing;
    if (!state?.hidden) return;
    state.hidden = false;
    const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === key);
    if (!document || document.isDirty) return;
    const before = state.clock.stat;
    const reloaded = new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        subscription.dispose();
        resolve();
      };
      const timer = setTimeout(done, REFRESH_WAIT_MS);
      const subscription = vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.document.uri.toString() === key && event.contentChanges.length > 0) done();
      });
      // Unchanged: VS Code reads nothing more after its stat; nothing to wait for then.
      void this.copyOf(state, 'refresh').then(
        () => state.clock.stat.mtime === before.mtime && done(),
        () => done(),
      );
    });
    state.refreshing = reloaded.finally(() => (state.refreshing = undefined));
    this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
    return state.refreshing;
  }

  private afterClose(uri: vscode.Uri): void {
    if (uri.scheme !== RECORD_SCHEME) return;
    if (parseDocumentPath(uri.path)?.kind === 'new') this.newRecords.delete(uri.authority, uri.path);
  }

  // ------------------------------------------------------------------------------------------------------
  // Changes made elsewhere

  private onRecordChange(change: { portalId: string; appId: string; recordId: string; kind: string; origin: string }): void {
    if (change.origin === 'local' && change.kind !== 'deleted') return; // this window's own saves
    const state = this.records.get(recordKey(change));
    if (!state) return;
    if (change.kind === 'deleted') {
      this.noteDeleted(change);
      return;
    }
    // Read anew on the next stat: an editor without unsaved changes reloads; one with them will conflict.
    if (state.server) state.server.at = 0;
    this.changed.fire(this.urisOf(change).map((uri) => ({ type: vscode.FileChangeType.Changed, uri })));
  }

  private onCatalogChange(portalId: string, appId: string | undefined): void {
    const concerned = (target: AppTarget): boolean => target.portalId === portalId && (appId === undefined || target.appId === appId);
    // Only a new list of columns matters (the catalog also changes when a draft is first seen).
    const columnsChanged = (target: AppTarget, used: readonly Column[]): boolean => this.catalog.peekColumns(target.portalId, target.appId) !== used;
    const uris: vscode.Uri[] = [];
    const shown = shownInTabs();
    for (const state of this.records.values()) {
      if (!concerned(state.target) || !state.server || !columnsChanged(state.target, state.server.columns)) continue;
      state.server.at = 0; // read anew now where shown, else when shown again
      for (const [key, uri] of state.uris) if (shown.has(key)) uris.push(uri);
    }
    // A schema is read again now only for an app whose documents are shown; otherwise when one of its
    // records is read next (staleSchema).
    const shownApps = new Set<string>();
    for (const key of shown) {
      const app = appTargetOf(vscode.Uri.parse(key));
      if (app) shownApps.add(`${app.portalId}/${app.appId}`);
    }
    for (const [key, used] of this.schemas) {
      const uri = vscode.Uri.parse(key);
      const path = parseDocumentPath(uri.path);
      if (path?.kind !== 'schema' || !concerned({ portalId: uri.authority, appId: path.appId }) || !columnsChanged({ portalId: uri.authority, appId: path.appId }, used)) continue;
      if (!shownApps.has(`${uri.authority}/${path.appId}`)) continue;
      this.schemas.delete(key);
      uris.push(uri);
    }
    if (uris.length > 0) this.changed.fire(uris.map((uri) => ({ type: vscode.FileChangeType.Changed, uri })));
  }
}
