// Records not created yet: the documents "Portal: New Record" opens, held in memory until their first save
// creates the record (or until they are closed). Pure (no vscode import).
import { newRecordPath } from '../model/recordAddress';
import type { AppTarget } from '../model/targets';

export interface NewRecord {
  readonly portalId: string;
  readonly appId: string;
  /** Its number among the app's new records: the n of /<app_id>/new/new-record-<n>.json */
  readonly n: number;
  /** The document's path: /<app_id>/new/new-record-<n>.json */
  readonly path: string;
  /** Create it as a Draft (apps with Draft mode). */
  readonly asDraft: boolean;
  text: string;
  mtime: number;
  /** The id the portal gave it, once saved. */
  createdId?: string;
}

export class NewRecords {
  private readonly byKey = new Map<string, NewRecord>();
  private next = 1;

  add(app: AppTarget, text: string, asDraft: boolean, now: number): NewRecord {
    const { portalId, appId } = app;
    while (this.byKey.has(keyOf(portalId, newRecordPath(appId, this.next)))) this.next += 1;
    const n = this.next;
    this.next += 1;
    const entry: NewRecord = { portalId, appId, n, path: newRecordPath(appId, n), asDraft, text, mtime: now };
    this.byKey.set(keyOf(portalId, entry.path), entry);
    return entry;
  }

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
