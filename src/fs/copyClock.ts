// The mtime and size that the `portal:` file system reports for one record document, made so that VS Code's
// own checks do the right thing. The portal has no ETag and no modification time, so they are derived
// from the copies of the record this window has seen. Pure (no vscode import), unit-tested.
//
// What VS Code does with them (its file service, checked in code-server 1.139):
// - Saving: validateWriteFile raises "the content of the file is newer" (Compare / Overwrite) only when
//   the mtime advanced past the one the editor read AND etag({mtime: old mtime, size: new size}) differs
//   from the editor's etag, that is: only when the SIZE differs from the size the editor read. So a change
//   that keeps the text's length would go unnoticed if size were the honest byte length.
// - Reloading a document that has no unsaved changes (after we fire a change): skipped while mtime and
//   size are both unchanged.
// Hence:
// - mtime strictly increases whenever the text of the portal's copy changes (any field, read-only ones
//   included): an editor without unsaved changes reloads.
// - size moves only when a writable field changes, to a value never reported before for this document in
//   this session: a save over someone else's change is always a conflict, while a LookUp that follows a
//   linked record (or an Auto Number) never makes one. It stays near the text's byte length (plus an
//   offset under 1024), so nothing treats the document as a large file.
// - The first offset is random: an editor restored with unsaved changes after a reload (VS Code keeps its
//   old mtime and size in the backup) then sees another size and gets the conflict, rather than a silent
//   save over a copy this session never compared.

export interface CopyStat {
  readonly mtime: number;
  readonly size: number;
}

const OFFSET_RANGE = 1024;
const REMEMBERED_SIZES = 256;

function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}

export class CopyClock {
  private text: string | undefined;
  private writable: string | undefined;
  private offset: number;
  private current: CopyStat = { mtime: 0, size: 0 };
  private readonly reported: number[] = [];
  readonly ctime: number;

  constructor(now: number, firstOffset: number = Math.floor(Math.random() * (OFFSET_RANGE / 2))) {
    this.ctime = now;
    this.offset = firstOffset % OFFSET_RANGE;
  }

  get stat(): CopyStat {
    return this.current;
  }

  /**
   * Records the portal's copy as now known: its document text, and a key of its writable fields (equal keys
   * = equal writable values). Returns the stat to report.
   */
  observe(text: string, writableKey: string, now: number): CopyStat {
    if (this.text === text && this.writable === writableKey) return this.current;
    const first = this.text === undefined;
    const mtime = Math.max(now, this.current.mtime + 1);
    let size = this.current.size;
    if (first || this.writable !== writableKey) {
      const length = byteLength(text);
      if (!first) this.offset = (this.offset + 1) % OFFSET_RANGE;
      while (this.reported.includes(length + this.offset)) this.offset = (this.offset + 1) % OFFSET_RANGE;
      size = length + this.offset;
      this.reported.push(size);
      if (this.reported.length > REMEMBERED_SIZES) this.reported.shift();
    }
    this.text = text;
    this.writable = writableKey;
    this.current = { mtime, size };
    return this.current;
  }

  /** Moves the mtime alone (same writable fields): an editor without unsaved changes reloads, none conflicts. */
  touch(now: number): CopyStat {
    this.current = { mtime: Math.max(now, this.current.mtime + 1), size: this.current.size };
    return this.current;
  }
}
