// The records this window works on, without `vscode`: the portal's copies read (shared while a read is in
// flight, reused while fresh), the copy the user's edit started from, the conflict check, update and
// create. The `portal:` file system (src/fs/recordFileSystem.ts) is a thin adapter on it; the language model
// tools (src/tools) stand on it too. Jobs of many rows (the grid's save and refresh, the board's) stand on
// its rows API (AppRecords, at the end): no copies kept, a signal per call. The clock is passed in, so
// that ages are tested without waiting.
//
// A save sends only the fields changed against the copy the edit started from (`base`), never read-only
// ones, and never over a change made in the portal since that copy unless the caller has just checked:
// VS Code's own conflict check (stat) reads the portal right before writing; any other caller asks
// update() to check, and a conflict is refused with nothing sent.
//
// Every copy read and every write that went through is offered to Record History (versions.ts), with what
// brought it: the store is the one place versions come from.
import type { CreatedRecord, RecordRead } from '../api/answers';
import { isWritable } from '../api/columnKinds';
import { cancelled, isPortalError } from '../api/errors';
import type { Column, RecordData } from '../api/types';
import { recordKey, recordPath } from '../model/recordAddress';
import type { AppTarget, RecordTarget } from '../model/targets';
import { createBody, describeProblems, updateBody } from './changes';
import { classifyFailure, mayHaveBeenDone } from './failures';
import { withRetries, type Retrying } from './retry';
import type { VersionCause, Versions, VersionSource } from './versions';

/** How long a copy read from the portal stands for "now". */
export const FRESH_MS = 300;

/** The portal calls the store makes (PortalClient has them). */
export interface RecordsClient {
  readRecord(appId: string, recordId: string, signal?: AbortSignal): Promise<RecordRead>;
  updateRecord(appId: string, recordId: string, changes: RecordData): Promise<void>;
  createRecord(appId: string, data: RecordData, options: { draft?: boolean }, signal?: AbortSignal): Promise<CreatedRecord>;
}

export interface RecordStoreDeps {
  client(portalId: string): RecordsClient;
  /** The app's columns (the catalog's array: a new one means the columns changed). */
  columns(portalId: string, appId: string): Promise<readonly Column[]>;
  now(): number;
  log: { debug(line: string): void; info(line: string): void; warn(line: string): void };
  /** After a read: the copy, and the draft flag of the copy before it (undefined when none). */
  onRead?(record: RecordTarget, copy: RecordCopy, draftBefore: boolean | undefined): void;
  /** After a change this window made in the portal. */
  onChanged?(record: RecordTarget, kind: 'updated' | 'created'): void;
  /** Where the copies read and written are offered (Record History), and what brought them. */
  versions?: { readonly to: Versions; readonly read: VersionCause; readonly write: VersionCause };
}

/** The portal's copy of a record, as read (or as written by this window). */
export interface RecordCopy {
  readonly data: RecordData;
  readonly draft: boolean | undefined;
  /** The columns it was read with. */
  readonly columns: readonly Column[];
  /** The writable fields' values: a change to it is a change a save could overwrite. */
  readonly writableKey: string;
  /** When this copy was known to be the portal's (0: stale, read again). */
  readonly at: number;
}

/** A save refused before anything was sent, or by the portal; the message says why and what to do. */
export class SaveRefused extends Error {
  override readonly name = 'Error';
}

/** A save refused because the record changed in the portal since the copy the edit started from. */
export class RecordConflict extends SaveRefused {
  constructor(
    message: string,
    /** The copy the edit started from. */
    readonly base: RecordData,
    /** The portal's copy that differs from it. */
    readonly server: RecordCopy,
  ) {
    super(message);
  }
}

/** The record is not in the portal (deleted, or in its trash). */
export class RecordGone extends Error {
  override readonly name = 'RecordGone';
}

/** The fields as edited, or how to read them once the app's columns are known (to name a field in a refusal). */
export type Edit = RecordData | ((columns: readonly Column[]) => RecordData);

interface Entry {
  readonly record: RecordTarget;
  copy?: RecordCopy;
  base?: RecordData;
  inflight?: SharedRead;
  /** Moved by markStale: a read sent before it answers with a copy older than the change. */
  generation: number;
}

/**
 * A read in flight and who waits for it. A caller that passes a signal stops waiting when it fires; the
 * request itself is cancelled once every caller has (a caller without a signal waits to the end).
 */
interface SharedRead {
  readonly copy: Promise<RecordCopy>;
  readonly abort: AbortController;
  waiting: number;
}

function writableKeyOf(data: RecordData, columns: readonly Column[]): string {
  return JSON.stringify(columns.filter(isWritable).map((column) => data[column.field_id_in_data] ?? ''));
}

/** Whether `base` and the portal's copy differ in a field a save could overwrite. */
export function checkConflict(base: RecordData, server: RecordCopy): boolean {
  return writableKeyOf(base, server.columns) !== server.writableKey;
}

/** The one sentence a failed save, open or read shows: the portal's own message, and what to do. */
export function portalFailure(error: unknown, portalLabel: string): string {
  if (!isPortalError(error)) return error instanceof Error ? error.message : String(error);
  const portal = error.portalMessage && !error.message.includes(error.portalMessage) ? ` (${error.portalMessage})` : '';
  const advice =
    error.code === 'unauthorized'
      ? ` Sign in to "${portalLabel}" (Portal: Sign In), then save again: your text is kept.`
      : ['not-taken', 'may-have-been-done'].includes(classifyFailure(error).verdict)
        ? ' Your text is kept: save again when the portal answers.'
        : '';
  return `${error.message}${portal}${advice}`;
}

/** The portal answers 404 for a record in its trash as for one that never was: both are gone. */
function isNotFound(error: unknown): boolean {
  return isPortalError(error) && error.kind === 'http' && error.status === 404;
}

export class RecordStore {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly deps: RecordStoreDeps) {}

  /** The copy last read (or written), however old; undefined when none. */
  last(record: RecordTarget): RecordCopy | undefined {
    return this.entries.get(recordKey(record))?.copy;
  }

  /** The copy the user's edit started from (set by the caller that showed it). */
  base(record: RecordTarget): RecordData | undefined {
    return this.entries.get(recordKey(record))?.base;
  }

  setBase(record: RecordTarget, data: RecordData): void {
    this.entry(record).base = data;
  }

  /** Whether a copy was read within FRESH_MS and no read is in flight: it stands for the portal's now. */
  isFresh(record: RecordTarget): boolean {
    const entry = this.entries.get(recordKey(record));
    return entry?.copy !== undefined && this.deps.now() - entry.copy.at <= FRESH_MS && !entry.inflight;
  }

  /** The next read asks the portal (a change elsewhere, the columns changed, the document hidden). */
  markStale(record: RecordTarget): void {
    const entry = this.entries.get(recordKey(record));
    if (!entry) return;
    // The read in flight left before the change: the next read sends its own.
    entry.generation += 1;
    entry.inflight = undefined;
    if (entry.copy) entry.copy = { ...entry.copy, at: 0 };
  }

  /** The copy stands for "now" again (after VS Code reloads the document from it). */
  touch(record: RecordTarget): void {
    const entry = this.entries.get(recordKey(record));
    if (entry?.copy) entry.copy = { ...entry.copy, at: this.deps.now() };
  }

  /** After a publish: the copy is no draft any more. */
  notePublished(record: RecordTarget): void {
    const entry = this.entries.get(recordKey(record));
    if (entry?.copy) entry.copy = { ...entry.copy, draft: false };
  }

  forget(record: RecordTarget): void {
    this.entries.delete(recordKey(record));
  }

  /** Every record with a copy (for reacting to changed columns). */
  records(): Array<{ record: RecordTarget; copy: RecordCopy }> {
    return [...this.entries.values()].flatMap(({ record, copy }) => (copy ? [{ record, copy }] : []));
  }

  /**
   * The portal's copy: the one read within `maxAgeMs` (or being read), else read now. Throws RecordGone.
   * `signal`: this caller stops waiting when it fires (a hover that went); the request goes on while anyone
   * else waits for it, and is cancelled when no one does.
   */
  read(record: RecordTarget, caller = 'read', maxAgeMs = FRESH_MS, signal?: AbortSignal): Promise<RecordCopy> {
    const entry = this.entry(record);
    const where = recordPath(record);
    if (entry.inflight) {
      this.deps.log.debug(`${caller} ${where}: shares the read in flight`);
      return this.wait(entry, entry.inflight, signal);
    }
    const age = entry.copy ? this.deps.now() - entry.copy.at : Infinity;
    if (entry.copy && age <= maxAgeMs) {
      this.deps.log.debug(`${caller} ${where}: copy of ${age} ms ago`);
      return Promise.resolve(entry.copy);
    }
    this.deps.log.debug(`${caller} ${where}: reads the record`);
    const abort = new AbortController();
    const copy = this.fetch(record, entry, abort.signal).finally(() => {
      if (entry.inflight?.copy === copy) entry.inflight = undefined;
    });
    const shared: SharedRead = { copy, abort, waiting: 0 };
    entry.inflight = shared;
    return this.wait(entry, shared, signal);
  }

  private wait(entry: Entry, shared: SharedRead, signal: AbortSignal | undefined): Promise<RecordCopy> {
    if (!signal) {
      // Waits to the end: the request is never cancelled under it.
      shared.waiting = Infinity;
      return shared.copy;
    }
    if (signal.aborted) return Promise.reject(cancelled('Reading the record'));
    shared.waiting += 1;
    return new Promise<RecordCopy>((resolve, reject) => {
      const stop = (): void => {
        shared.waiting -= 1;
        if (shared.waiting === 0) {
          // Cancelled for everyone: a caller that comes before it settles gets a read of its own.
          if (entry.inflight === shared) entry.inflight = undefined;
          shared.abort.abort();
        }
        reject(cancelled('Reading the record'));
      };
      signal.addEventListener('abort', stop, { once: true });
      shared.copy.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
    });
  }

  /**
   * Sends the fields of `edited` changed against the base, after the conflict check (skipped when the
   * caller has just checked, as VS Code's save does). Resolves with the copy as written and the fields sent.
   * `base`: the copy this edit started from, when the caller keeps it (else the one set with setBase).
   */
  async update(
    record: RecordTarget,
    edit: Edit,
    options: { checked?: boolean; base?: RecordData } = {},
  ): Promise<{ copy: RecordCopy; sent: string[] }> {
    const { portalId, appId, recordId } = record;
    const checked = options.checked ?? this.isFresh(record);
    const server = await this.read(record, 'update');
    const edited = typeof edit === 'function' ? edit(server.columns) : edit;
    const base = options.base ?? this.base(record);
    if (base === undefined) {
      // No copy to tell the person's changes from the portal's (an editor restored with unsaved changes
      // after a reload): measured against the portal's copy, every field someone else changed since would
      // be sent back. The copy read now becomes the base, so the next save (once the text is as wanted)
      // sends what differs from it, and still meets a conflict if the portal moves again.
      this.entry(record).base = server.data;
      throw new SaveRefused(
        `Record ${recordId}: this editor's unsaved text was restored without the copy it started from, so your changes cannot be told from changes made in the portal since. Nothing was sent. Compare it with the portal's copy (File: Compare Active File with Saved) and keep what should stay, then save again (your text is then sent as it is), or Revert to start from the portal's copy.`,
      );
    }
    if (!checked && checkConflict(base, server)) {
      throw new RecordConflict(
        `Record ${recordId} changed in the portal since you opened it. Save again to compare or overwrite. Nothing was sent.`,
        base,
        server,
      );
    }
    const body = updateBody({ columns: server.columns, base, server: server.data, edited });
    if (body.problems.length > 0) throw new SaveRefused(describeProblems(server.columns, body.problems));
    const sent = Object.keys(body.fields);
    if (sent.length > 0) {
      try {
        await this.deps.client(portalId).updateRecord(appId, recordId, body.fields);
      } catch (error) {
        if (isNotFound(error))
          throw new RecordGone(
            `Record ${recordId} of app ${appId} is not in the portal any more (deleted, or in its trash). Your text is kept; nothing was saved.`,
            { cause: error },
          );
        throw error;
      }
    }
    this.deps.log.info(
      `Saved record ${recordId} of app ${appId}: ${sent.length === 0 ? 'no field changed, nothing sent' : `sent ${sent.join(', ')}`}.`,
    );
    const copy = this.remember(record, { ...server.data, ...body.fields }, server.draft, server.columns);
    this.entry(record).base = copy.data;
    if (sent.length > 0) {
      this.offer(record, 'write', copy.data, true);
      this.deps.onChanged?.(record, 'updated');
    }
    return { copy, sent };
  }

  /**
   * Creates a record of every writable field with a value; resolves with the portal's answer: its id
   * (undefined: not said) and the values it created. `signal` cancels the request (the tools' Cancel).
   */
  async create(app: AppTarget, edit: Edit, options: { draft?: boolean; signal?: AbortSignal } = {}): Promise<CreatedRecord> {
    const columns = await this.deps.columns(app.portalId, app.appId);
    const body = createBody(columns, typeof edit === 'function' ? edit(columns) : edit);
    if (body.problems.length > 0) throw new SaveRefused(describeProblems(columns, body.problems));
    options.signal?.throwIfAborted();
    const created = await this.deps
      .client(app.portalId)
      .createRecord(app.appId, body.fields, { draft: options.draft === true }, options.signal);
    if (created.id === undefined) {
      this.deps.log.warn(`Created a record in app ${app.appId}; the portal's answer did not say its id.`);
      return created;
    }
    this.deps.log.info(`Created record ${created.id} of app ${app.appId}${options.draft ? ' as a draft' : ''}.`);
    const record = { ...app, recordId: created.id };
    this.offer(record, 'write', { ...body.fields, ...created.data }, true);
    this.deps.onChanged?.(record, 'created');
    return created;
  }

  private offer(record: RecordTarget, what: 'read' | 'write', data: RecordData, whole: boolean): void {
    const versions = this.deps.versions;
    if (versions) versions.to.offer({ record, cause: versions[what], at: this.deps.now(), data, whole });
  }

  private entry(record: RecordTarget): Entry {
    const key = recordKey(record);
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { record: { portalId: record.portalId, appId: record.appId, recordId: record.recordId }, generation: 0 };
      this.entries.set(key, entry);
    }
    return entry;
  }

  private async fetch(record: RecordTarget, entry: Entry, signal?: AbortSignal): Promise<RecordCopy> {
    const { portalId, appId, recordId } = record;
    const generation = entry.generation;
    let read: RecordRead;
    let columns: readonly Column[];
    try {
      [read, columns] = await Promise.all([
        this.deps.client(portalId).readRecord(appId, recordId, signal),
        this.deps.columns(portalId, appId),
      ]);
    } catch (error) {
      if (isNotFound(error))
        throw new RecordGone(`Record ${recordId} of app ${appId} is not in the portal (deleted, or in its trash).`, { cause: error });
      throw error;
    }
    const draftBefore = entry.copy?.draft;
    if (generation !== entry.generation) {
      // Changed in the portal while this read was on its way: its caller gets it, the store keeps the newer
      // copy a later read made, or this one as stale (the next read asks again).
      const stale: RecordCopy = { data: read.data, draft: read.draft, columns, writableKey: writableKeyOf(read.data, columns), at: 0 };
      if (!entry.copy || entry.copy.at === 0) entry.copy = stale;
      return stale;
    }
    const copy = this.remember(record, read.data, read.draft, columns);
    this.deps.onRead?.(record, copy, draftBefore);
    this.offer(record, 'read', copy.data, true);
    return copy;
  }

  private remember(record: RecordTarget, data: RecordData, draft: boolean | undefined, columns: readonly Column[]): RecordCopy {
    const copy: RecordCopy = { data, draft, columns, writableKey: writableKeyOf(data, columns), at: this.deps.now() };
    this.entry(record).copy = copy;
    return copy;
  }
}

/** The portal calls a job of many rows makes, each with its signal (PortalClient has them). */
export interface RowsClient {
  readRecord(appId: string, recordId: string, signal?: AbortSignal): Promise<RecordRead>;
  updateRecord(appId: string, recordId: string, changes: RecordData, options: { publish?: boolean }, signal?: AbortSignal): Promise<void>;
  createRecord(appId: string, data: RecordData, options: { draft?: boolean }, signal?: AbortSignal): Promise<CreatedRecord>;
  deleteRecord(appId: string, recordId: string, signal?: AbortSignal): Promise<void>;
}

/**
 * One app's records as a job of many rows uses them (the grid's save and refresh, the board's, the import
 * and bulk change): the portal's copy now, an update of exactly the fields the caller's check chose, a
 * create, a delete. It keeps no copies (a job checks thousands of rows, each once). Failures are
 * PortalErrors (src/api/errors.ts), classified by failures.ts.
 */
export interface AppRecords {
  /** The portal's current copy of the record; undefined when it is deleted or in trash. */
  readCurrent(recordId: string, signal?: AbortSignal): Promise<RecordData | undefined>;
  /**
   * Sends `fields` and nothing else (the portal changes only the fields sent); `publish` also publishes a
   * draft. `base`: the copy the fields were decided against (for the version the history keeps).
   */
  update(
    recordId: string,
    fields: RecordData,
    signal?: AbortSignal,
    options?: { publish?: boolean; base?: Readonly<RecordData> },
  ): Promise<void>;
  /**
   * Creates a record of `fields` (a draft where the store says so): its id (undefined: the answer did not
   * say) and the portal's copy, read back once unless `readBack` is false (then the create's answer).
   */
  create(
    fields: RecordData,
    signal?: AbortSignal,
    options?: { readBack?: boolean },
  ): Promise<{ recordId: string | undefined; copy: RecordData }>;
  /** Moves the record to the portal's trash. */
  delete(recordId: string, signal?: AbortSignal): Promise<void>;
}

/**
 * The records of one app over the portal client. New records are created as drafts when `draft` (apps
 * with Draft mode) and read back once, for what the portal filled in (Auto Number, LookUp, defaults); when
 * that read fails, the copy is what was sent. `history`: where the copies read and written are offered,
 * and what brought the writes (versions.ts).
 */
export function appRecords(client: RowsClient, appId: string, options: { draft?: boolean; history?: VersionSource } = {}): AppRecords {
  const history = options.history;
  const offer = (recordId: string, cause: VersionCause, data: RecordData, whole: boolean): void =>
    history?.versions.offer({ record: { portalId: history.portalId, appId, recordId }, cause, at: Date.now(), data, whole });
  return {
    async readCurrent(recordId, signal) {
      let data: RecordData;
      try {
        data = (await client.readRecord(appId, recordId, signal)).data;
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
      if (history) offer(recordId, 'read', data, true);
      return data;
    },
    async update(recordId, fields, signal, update) {
      await client.updateRecord(appId, recordId, fields, { publish: update?.publish }, signal);
      if (history) offer(recordId, history.cause, update?.base ? { ...update.base, ...fields } : fields, false);
    },
    async create(fields, signal, create) {
      const created = await client.createRecord(appId, fields, { draft: options.draft === true }, signal);
      if (created.id === undefined) return { recordId: undefined, copy: created.data };
      // Without the read back, the create's answer (the values it created) is the copy: an import's
      // every row, nothing more made of it.
      const copy =
        create?.readBack === false
          ? created.data
          : ((await client.readRecord(appId, created.id, signal).catch(() => undefined))?.data ?? { ...fields, ...created.data });
      if (history) offer(created.id, history.cause, copy, true);
      return { recordId: created.id, copy };
    },
    delete: (recordId, signal) => client.deleteRecord(appId, recordId, signal),
  };
}

/** What a row's check decided from the portal's copy: the fields to send (none: nothing to send). */
export interface RowDecision {
  /** What the check found (a conflict, gone, ...): the caller's to read. */
  readonly kind: string;
  readonly fields?: RecordData;
  /** The portal's copy the decision was made from (the base of the version the history keeps). */
  readonly current?: Readonly<RecordData>;
}

/**
 * Check-then-update of one row: `check` decides from the portal's copy (undefined: the record is gone)
 * what to send, and it is sent; retried by the policy. `checked`: the decision the caller already made
 * from a copy young enough (a read of the view), so no GET is sent for it.
 *
 * An update is idempotent in itself (the same fields with the same values leave the record the same
 * however often they are applied), but between a first attempt that may have been applied and a retry
 * someone else may have changed those fields, and a blind retry would overwrite them. So after an
 * uncertain failure the row is checked again: the portal holds my values -> the first attempt went
 * through, nothing is sent; the portal's copy is still the one checked -> sent again; anything else is
 * the check's to say (a conflict). After a failure that was not taken (429) the decision stands.
 */
export async function checkAndUpdate<D extends RowDecision>(
  records: AppRecords,
  recordId: string,
  check: (current: RecordData | undefined) => D,
  retrying: Retrying,
  checked?: D,
): Promise<D> {
  let decision = checked;
  return withRetries(
    async () => {
      decision ??= check(await records.readCurrent(recordId, retrying.signal));
      const { fields } = decision;
      if (!fields || Object.keys(fields).length === 0) return decision;
      try {
        await records.update(recordId, fields, retrying.signal, { base: decision.current });
        return decision;
      } catch (error) {
        if (mayHaveBeenDone(error)) decision = undefined;
        throw error;
      }
      // An unreadable 2xx ('taken') is checked again too: the look finds my values, and nothing is sent.
    },
    retrying,
    (failure) => failure.verdict === 'not-taken' || failure.verdict === 'may-have-been-done' || failure.verdict === 'taken',
  );
}

/**
 * Creates a record once: sent again only when the portal did not take it (a 429). After an uncertain
 * failure (an answer that cannot be read included) it is not sent again: the caller says that the record
 * may exist (mayHaveBeenDone), so that a person looks before saving it again. Once sent, a create is not
 * aborted by a cancel (a record the caller does not know of would be made again by the next save): the
 * cancel stops only the attempts not begun.
 */
export async function createOnce(
  records: AppRecords,
  fields: RecordData,
  retrying: Retrying,
): Promise<{ recordId: string; copy: RecordData }> {
  const created = await withRetries(
    () => records.create(fields),
    retrying,
    (failure) => failure.verdict === 'not-taken',
  );
  if (created.recordId === undefined) throw new Error('The portal created the record but did not say its id: refresh the view to see it.');
  return { recordId: created.recordId, copy: created.copy };
}
