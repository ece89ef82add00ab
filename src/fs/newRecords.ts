// Records not created yet: the documents "Portal: New Record" opens, held in memory until their first save
// creates the record (or until they are closed). Pure (no vscode import).
import { newRecordPath } from '../model/recordAddress';

export interface NewRecord {
  readonly portalId: string;
  readonly appId: string;
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

  add(portalId: string, appId: string, text: string, asDraft: boolean, now: number): NewRecord {
    let path = newRecordPath(appId, this.next);
    while (this.byKey.has(keyOf(portalId, path))) path = newRecordPath(appId, (this.next += 1));
    this.next += 1;
    const entry: NewRecord = { portalId, appId, path, asDraft, text, mtime: now };
    this.byKey.set(keyOf(portalId, path), entry);
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
