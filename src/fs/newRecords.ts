// Records not created yet: the documents "Portal: New Record" opens, held in memory until their first save
// creates the record (or until they are closed). Each is known by its document's own address, which says
// all it needs (app, number, draft or not): a document whose entry is gone — VS Code restored it after a
// reload, from its backup — gets an entry for that very address again, never one under another address
// (which would leave its own address unknown, and its next save creating a second record). Pure (no vscode import).
import { newRecordPath, parseDocumentPath } from '../model/recordAddress';
import type { AppTarget } from '../model/targets';
import { mayHaveBeenDone } from '../records/failures';
import { SaveRefused } from '../records/store';

export interface NewRecord {
  readonly portalId: string;
  readonly appId: string;
  /** Its number among the app's new records: the n of /<app_id>/new/new-record-<n>.json */
  readonly n: number;
  /** The document's path: /<app_id>/new/new-record-<n>.json (new-draft-<n>.json for a draft) */
  readonly path: string;
  /** Create it as a Draft (apps with Draft mode). */
  readonly asDraft: boolean;
  /**
   * Its text as served or last saved. Undefined for an entry made again for its address: the document
   * VS Code restored holds its own text; the file system serves the app's empty new record if asked.
   */
  text?: string;
  /** 0 for an entry made again: never newer than the copy VS Code restored, whose save is no conflict. */
  mtime: number;
  /** The id the portal gave it, once saved ('' when the portal did not say). */
  createdId?: string;
  /** The text of a save whose create may have been done although it failed (createGuarded). */
  mayExistText?: string;
  /** The save under way: the next save of the same document waits for it. */
  saving?: Promise<void>;
}

export class NewRecords {
  private readonly byKey = new Map<string, NewRecord>();
  private next = 1;

  /**
   * A new document, numbered past every number in use: this window's entries and `inUse` (documents VS
   * Code still shows, e.g. restored after a reload before anything read them), under either name.
   */
  add(app: AppTarget, text: string, asDraft: boolean, now: number, inUse: (path: string) => boolean = () => false): NewRecord {
    const { portalId, appId } = app;
    const taken = (n: number): boolean =>
      [false, true].some(
        (draft) => this.byKey.has(keyOf(portalId, newRecordPath(appId, n, draft))) || inUse(newRecordPath(appId, n, draft)),
      );
    while (taken(this.next)) this.next += 1;
    const n = this.next;
    this.next += 1;
    const entry: NewRecord = { portalId, appId, n, path: newRecordPath(appId, n, asDraft), asDraft, text, mtime: now };
    this.byKey.set(keyOf(portalId, entry.path), entry);
    return entry;
  }

  /** The entry of the document at `path`, made again from the address when missing; undefined when `path` is no new record's. */
  at(portalId: string, path: string): NewRecord | undefined {
    const known = this.byKey.get(keyOf(portalId, path));
    if (known) return known;
    const address = parseDocumentPath(path);
    if (address?.kind !== 'new') return undefined;
    const entry: NewRecord = { portalId, appId: address.appId, n: address.n, path, asDraft: address.draft, mtime: 0 };
    this.byKey.set(keyOf(portalId, path), entry);
    return entry;
  }

  /** The entry of the document at `path`, if this window has one. */
  get(portalId: string, path: string): NewRecord | undefined {
    return this.byKey.get(keyOf(portalId, path));
  }

  delete(portalId: string, path: string): void {
    this.byKey.delete(keyOf(portalId, path));
  }
}

function keyOf(portalId: string, path: string): string {
  return `${portalId}${path}`;
}

/**
 * Creates the record of `entry` from its text `text`. A create that may have been done although it failed
 * (its answer lost: mayHaveBeenDone) marks the entry with that text; a save of the same text is then
 * refused with nothing sent, since the record may exist. A changed text is the user's decision to create
 * it all the same (after looking for it).
 */
export async function createGuarded(
  entry: NewRecord,
  text: string,
  create: () => Promise<string | undefined>,
  appLabel: () => Promise<string>,
): Promise<string | undefined> {
  const mayExist = async (): Promise<SaveRefused> =>
    new SaveRefused(
      `The portal may have created this record already (its answer was lost): look for it in ${await appLabel()} before saving again. ` +
        'Saving this text again sends nothing; to create another record anyway, change the text and save.',
    );
  if (entry.mayExistText === text) throw await mayExist();
  try {
    return await create();
  } catch (error) {
    if (!mayHaveBeenDone(error)) throw error;
    entry.mayExistText = text;
    const refused = await mayExist();
    refused.cause = error;
    throw refused;
  }
}
