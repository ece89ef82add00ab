// The versions of records the store sees, offered to Record History (src/recordHistory, kept by
// src/history/versionLog.ts): every answer of a read and every write that went through, with what brought
// it. The store is the one place they come from: the record documents' and the tools' RecordStore, and the
// rows API (appRecords) the grid, the board, the import and bulk change write through. An offer is a call
// that returns at once: the history gathers them and writes them later, in batches (an import offers one
// per row, on its hot path).
import type { RecordData } from '../api/types';
import type { RecordTarget } from '../model/targets';

/**
 * What brought a version. 'opened': a record document read it; 'read': a job read it (the grid's check
 * before a save, its refresh); 'saved': a record document's save; 'grid': a grid's (or board's) save;
 * 'import', 'bulk': an import, a bulk change (Set Field…); 'webhook', 'watch': the read after a webhook's
 * event or a watched view's change; 'agent': a language model tool.
 */
export type VersionCause = 'opened' | 'read' | 'saved' | 'grid' | 'import' | 'bulk' | 'webhook' | 'watch' | 'agent';

export const VERSION_CAUSES: readonly VersionCause[] = ['opened', 'read', 'saved', 'grid', 'import', 'bulk', 'webhook', 'watch', 'agent'];

/** A version of a record as the store saw it. */
export interface SeenVersion {
  readonly record: RecordTarget;
  readonly cause: VersionCause;
  /** When (ms since the epoch). */
  readonly at: number;
  /** The record's fields as known after the read or the write. */
  readonly data: RecordData;
  /**
   * true: `data` is the whole record (a read, a create's answer). false: only the fields in it are known
   * (a write's fields over the copy it was checked against, which may be a view's row): the others stand
   * as in the record's last version kept.
   */
  readonly whole: boolean;
}

/** Where the store offers what it sees (Record History). Returns at once; never throws. */
export interface Versions {
  offer(version: SeenVersion): void;
}

/** What a writer of many rows names when it writes through the store: where, and what brought the writes. */
export interface VersionSource {
  readonly versions: Versions;
  readonly portalId: string;
  /** What brought the writes (a read is 'read'). */
  readonly cause: VersionCause;
}
