// The versions of records this VS Code has seen, kept on disk (the portal keeps none): one file of JSON
// lines per record under a root folder (the extension's global storage), a folder per portal so that a
// removed portal's history goes with it. Bounded per record and in total, oldest dropped first; a version
// equal to the record's last one is not kept twice. A crash mid-append leaves a torn last line: it is
// dropped on reading, the lines before it stand. No `vscode` import: unit-tested in plain node.
//
// Versions come in batches (appendAll): an import offers one per row, and a batch reads and writes each
// record's file once and checks the total once. The total is kept as a running sum of the files' sizes,
// counted from the disk at first and again at most once a minute (another window may write the same
// folder), rather than by reading every file's size at every append.
import { createHash } from 'node:crypto';
import { appendFile, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { RecordTarget } from '../model/targets';
import { VERSION_CAUSES as CAUSES, type VersionCause } from '../records/versions';

export type { VersionCause };

/** How long the running total stands before the files' sizes are counted again. */
const RECOUNT_MS = 60_000;
/** Records' files a batch writes at once. */
const FILES_AT_ONCE = 4;

export interface RecordVersion {
  /** When it was seen (ms since the epoch). */
  readonly at: number;
  readonly cause: VersionCause;
  /** sha256 of the text, hex: equal versions are told apart by it. */
  readonly hash: string;
  /** The record's document text as it was. */
  readonly text: string;
}

export interface HistoryLimits {
  readonly maxVersionsPerRecord: number;
  readonly maxTotalBytes: number;
}

function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function isVersion(value: unknown): value is RecordVersion {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.at === 'number' &&
    typeof v.hash === 'string' &&
    typeof v.text === 'string' &&
    typeof v.cause === 'string' &&
    (CAUSES as readonly string[]).includes(v.cause)
  );
}

/** The versions a file's text holds, oldest first; a line that is not one (a torn last line) is dropped. */
export function parseVersions(text: string): RecordVersion[] {
  const versions: RecordVersion[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const parsed: unknown = JSON.parse(line);
      if (isVersion(parsed)) versions.push(parsed);
    } catch {
      // A line cut short by a crash: what was before it stands.
    }
  }
  return versions;
}

function serialize(versions: readonly RecordVersion[]): string {
  return versions.map((version) => `${JSON.stringify(version)}\n`).join('');
}

const SUFFIX = '.jsonl';

/** Where the versions are kept, in the extension's global storage folder. */
export function historyRoot(storageFolder: string): string {
  return path.join(storageFolder, 'history');
}

function portalFolder(root: string, portalId: string): string {
  return path.join(root, encodeURIComponent(portalId));
}

/** Removes every version of a portal's records (the portal was removed), whether or not a log is open. */
export async function forgetPortalHistory(root: string, portalId: string): Promise<void> {
  await rm(portalFolder(root, portalId), { recursive: true, force: true });
}

/** A version to keep: its text, or how to make it from the record's last version kept (none: first seen). */
export interface VersionToKeep {
  readonly record: RecordTarget;
  readonly at: number;
  readonly cause: VersionCause;
  readonly text: string | ((last: RecordVersion | undefined) => string);
}

export class VersionLog {
  /** One change at a time: appends and the trimming after them read and rewrite files. */
  private queue: Promise<unknown> = Promise.resolve();
  /** The files' sizes together, as last counted and kept since (undefined: count them). */
  private total: number | undefined;
  private countedAt = 0;

  constructor(
    private readonly root: string,
    private readonly limits: () => HistoryLimits,
  ) {}

  private fileOf(record: RecordTarget): string {
    return path.join(
      portalFolder(this.root, record.portalId),
      `${encodeURIComponent(record.appId)}~${encodeURIComponent(record.recordId)}${SUFFIX}`,
    );
  }

  private run<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** The record's versions, oldest first (none when never seen). */
  versions(record: RecordTarget): Promise<RecordVersion[]> {
    return this.run(() => this.readFile(this.fileOf(record)));
  }

  private async readFile(file: string): Promise<RecordVersion[]> {
    try {
      return parseVersions(await readFile(file, 'utf8'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  /** Keeps a version unless it equals the record's last one; resolves with whether it was kept. */
  async append(record: RecordTarget, seen: { at: number; cause: VersionCause; text: string }): Promise<boolean> {
    return (await this.appendAll([{ record, ...seen }])).length > 0;
  }

  /**
   * Keeps each version unless it equals its record's last one (in order: several of one record are
   * compared one after the other); each record's file is read and written once, the total checked once.
   * Resolves with the records that got a version.
   */
  appendAll(batch: readonly VersionToKeep[]): Promise<RecordTarget[]> {
    return this.run(async () => {
      const byFile = new Map<string, VersionToKeep[]>();
      for (const seen of batch) {
        const file = this.fileOf(seen.record);
        const list = byFile.get(file);
        if (list) list.push(seen);
        else byFile.set(file, [seen]);
      }
      const folders = new Map<string, Set<string> | undefined>();
      for (const file of byFile.keys()) {
        const folder = path.dirname(file);
        if (folders.has(folder)) continue;
        await mkdir(folder, { recursive: true });
        // The files there: a record's first version is written without reading a file that is not there.
        folders.set(folder, new Set(await readdir(folder).catch(() => [])));
      }
      const files = [...byFile];
      const kept = new Set<RecordTarget>();
      // A few files at once: the disk's queue kept busy, no more (a batch may be an import's thousands).
      const worker = async (): Promise<void> => {
        for (let next = files.pop(); next; next = files.pop()) {
          const [file, seen] = next;
          const absent = folders.get(path.dirname(file))?.has(path.basename(file)) === false;
          if (await this.appendTo(file, seen, absent)) kept.add(seen[0].record);
        }
      };
      await Promise.all(Array.from({ length: FILES_AT_ONCE }, worker));
      if (kept.size > 0) await this.trimTotal();
      return [...kept];
    });
  }

  /** Appends the versions of one record's file (`absent`: not there when the batch began); whether any was kept. */
  private async appendTo(file: string, seen: readonly VersionToKeep[], absent: boolean): Promise<boolean> {
    let current = '';
    if (!absent) {
      try {
        current = await readFile(file, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    const versions = parseVersions(current);
    const added: RecordVersion[] = [];
    for (const { at, cause, text } of seen) {
      const last = added.at(-1) ?? versions.at(-1);
      const content = typeof text === 'string' ? text : text(last);
      const version: RecordVersion = { at, cause, hash: hashOf(content), text: content };
      if (last?.hash !== version.hash) added.push(version);
    }
    if (added.length === 0) return false;
    const most = Math.max(1, this.limits().maxVersionsPerRecord);
    const all = [...versions, ...added];
    let size: number;
    if (absent) {
      const text = serialize(all.slice(-most));
      try {
        // 'wx': another window that made the file meanwhile keeps its versions (read, then appended to).
        await writeFile(file, text, { flag: 'wx' });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') return this.appendTo(file, seen, false);
        throw error;
      }
      size = Buffer.byteLength(text);
    } else if (all.length > most || (current !== '' && !current.endsWith('\n'))) {
      // Over the bound, or a torn last line that would glue onto the new one: the file written anew.
      const text = serialize(all.slice(-most));
      await writeFile(file, text);
      size = Buffer.byteLength(text);
    } else {
      const lines = serialize(added);
      await appendFile(file, lines);
      size = Buffer.byteLength(current) + Buffer.byteLength(lines);
    }
    if (this.total !== undefined) this.total += size - Buffer.byteLength(current);
    return true;
  }

  /** Drops the oldest versions of all records until the files fit in the total bound. */
  private async trimTotal(): Promise<void> {
    const { maxTotalBytes } = this.limits();
    if (this.total !== undefined && this.total <= maxTotalBytes && Date.now() - this.countedAt < RECOUNT_MS) return;
    const files = await this.allFiles();
    let total = 0;
    for (const file of files) total += (await stat(file).catch(() => ({ size: 0 }))).size;
    this.total = total;
    this.countedAt = Date.now();
    if (total <= maxTotalBytes) return;
    const held = new Map<string, RecordVersion[]>();
    for (const file of files) held.set(file, await this.readFile(file));
    const oldestFirst = [...held]
      .flatMap(([file, versions]) => versions.map((version) => ({ file, version })))
      .sort((a, b) => a.version.at - b.version.at);
    const dropped = new Set<RecordVersion>();
    for (const { version } of oldestFirst) {
      if (total <= maxTotalBytes) break;
      dropped.add(version);
      total -= Buffer.byteLength(serialize([version]));
    }
    for (const [file, versions] of held) {
      const kept = versions.filter((version) => !dropped.has(version));
      if (kept.length === versions.length) continue;
      if (kept.length === 0) await rm(file, { force: true });
      else await writeFile(file, serialize(kept));
    }
    this.total = total;
  }

  private async allFiles(): Promise<string[]> {
    const files: string[] = [];
    let portals: string[];
    try {
      portals = await readdir(this.root);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    for (const portal of portals) {
      const folder = path.join(this.root, portal);
      const names = await readdir(folder).catch(() => []);
      for (const name of names) if (name.endsWith(SUFFIX)) files.push(path.join(folder, name));
    }
    return files;
  }

  /** Removes every version of the portal's records (the portal was removed). */
  forgetPortal(portalId: string): Promise<void> {
    return this.run(async () => {
      await forgetPortalHistory(this.root, portalId);
      this.total = undefined;
    });
  }
}
