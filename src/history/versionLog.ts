// The versions of records this VS Code has seen, kept on disk (the portal keeps none): one file of JSON
// lines per record under a root folder (the extension's global storage), a folder per portal so that a
// removed portal's history goes with it. Bounded per record and in total, oldest dropped first; a version
// equal to the record's last one is not kept twice. A crash mid-append leaves a torn last line: it is
// dropped on reading, the lines before it stand. No `vscode` import: unit-tested in plain node.
import { createHash } from 'node:crypto';
import { appendFile, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { RecordTarget } from '../model/targets';

/** What brought a version. */
export type VersionCause = 'opened' | 'saved' | 'import' | 'bulk' | 'webhook' | 'watch' | 'agent';

const CAUSES: readonly VersionCause[] = ['opened', 'saved', 'import', 'bulk', 'webhook', 'watch', 'agent'];

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

export class VersionLog {
  /** One change at a time: appends and the trimming after them read and rewrite files. */
  private queue: Promise<unknown> = Promise.resolve();

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
  append(record: RecordTarget, seen: { at: number; cause: VersionCause; text: string }): Promise<boolean> {
    return this.run(async () => {
      const file = this.fileOf(record);
      const versions = await this.readFile(file);
      const version: RecordVersion = { at: seen.at, cause: seen.cause, hash: hashOf(seen.text), text: seen.text };
      if (versions.at(-1)?.hash === version.hash) return false;
      await mkdir(path.dirname(file), { recursive: true });
      const { maxVersionsPerRecord } = this.limits();
      const kept = [...versions, version];
      if (kept.length > Math.max(1, maxVersionsPerRecord)) await writeFile(file, serialize(kept.slice(-Math.max(1, maxVersionsPerRecord))));
      else if (versions.length === 0) await writeFile(file, serialize(kept));
      else {
        // A torn last line would glue onto the new one: rewrite the file from what was read.
        const current = await readFile(file, 'utf8');
        if (current.endsWith('\n')) await appendFile(file, serialize([version]));
        else await writeFile(file, serialize(kept));
      }
      await this.trimTotal();
      return true;
    });
  }

  /** Drops the oldest versions of all records until the files fit in the total bound. */
  private async trimTotal(): Promise<void> {
    const { maxTotalBytes } = this.limits();
    const files = await this.allFiles();
    let total = 0;
    for (const file of files) total += (await stat(file)).size;
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
    return this.run(() => forgetPortalHistory(this.root, portalId));
  }
}
