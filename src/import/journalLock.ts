// One run at a time per journal, across panels and across VS Code windows: a lock file beside the journal,
// created with an exclusive open ('wx': the one atomic "create if absent" every file system here gives),
// holding who runs it. Two runs of one journal would each send the rows the other has not recorded yet:
// every row created twice. No lock library: the rule is short and ours to state.
//
// A lock is stale, and taken over, when its holder cannot be running any more: its process is gone (same
// host), or it has not refreshed the file for STALE_MS (another host, a process id used again, a frozen
// holder). The holder refreshes it every REFRESH_MS. A stale lock is moved aside before it is removed, and
// only when it is still the one judged stale, so that two runs taking over at once cannot remove each
// other's fresh lock; the narrow race left (two takers both moving the same stale file) ends with one of
// them refused.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { link, open, readFile, rename, stat, unlink, utimes } from 'node:fs/promises';

/** How often the holder touches its lock, and how long a lock nobody touched is believed. */
const REFRESH_MS = 30_000;
const STALE_MS = 120_000;

/** This process: one VS Code window's extension host. */
const SESSION = randomBytes(6).toString('hex');

/** A lock being written (or torn by a crash) and not yet old enough to be stale: held by someone unknown. */
const UNREADABLE: LockHolder = { pid: 0, hostname: '?', session: '?', token: '?', startedAt: 'just now' };

export interface LockHolder {
  pid: number;
  hostname: string;
  /** The process's session (one per window), and the token of this one lock. */
  session: string;
  token: string;
  startedAt: string;
}

/** Where the lock of the journal at `journalPath` lives. */
export function lockPathFor(journalPath: string): string {
  return `${journalPath}.lock`;
}

/** Whether `holder` runs in this process (this window). */
export function heldHere(holder: LockHolder): boolean {
  return holder.session === SESSION && holder.pid === process.pid && holder.hostname === hostname();
}

/** Where a holder runs, in words: "in this window since 21:40" or "in another VS Code window (...) since 21:40". */
export function whereHeld(holder: LockHolder): string {
  const since = new Date(holder.startedAt);
  const time = Number.isNaN(since.getTime())
    ? holder.startedAt
    : since.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  if (heldHere(holder)) return `in this window since ${time}`;
  const host = holder.hostname === hostname() ? '' : ` on ${holder.hostname}`;
  return `in another VS Code window (process ${holder.pid}${host}) since ${time}`;
}

export class JournalBusyError extends Error {
  constructor(
    readonly journalPath: string,
    readonly holder: LockHolder,
  ) {
    super(
      `Another run of the journal ${journalPath} is running ${whereHeld(holder)}: wait for it to end, or cancel it and start again to resume.`,
    );
    this.name = 'JournalBusyError';
  }
}

function errno(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errno(error) === 'EPERM';
  }
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (
      typeof value.pid === 'number' &&
      typeof value.hostname === 'string' &&
      typeof value.session === 'string' &&
      typeof value.token === 'string' &&
      typeof value.startedAt === 'string'
    ) {
      return value as LockHolder;
    }
  } catch {
    // being written (created, not yet filled), or torn by a crash: judged by its age alone
  }
  return undefined;
}

/** The lock at `path` as found: its holder (undefined when unreadable) and whether it is stale; undefined when there is none. */
async function inspect(path: string): Promise<{ holder: LockHolder | undefined; text: string; stale: boolean } | undefined> {
  try {
    const [text, info] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
    const holder = parseHolder(text);
    const untouched = Date.now() - info.mtimeMs > STALE_MS;
    const gone = holder !== undefined && holder.hostname === hostname() && !alive(holder.pid);
    return { holder, text, stale: untouched || gone };
  } catch (error) {
    if (errno(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/** Who holds the journal's lock now; undefined when nobody does (no lock, or a stale one). */
export async function journalHolder(journalPath: string): Promise<LockHolder | undefined> {
  const found = await inspect(lockPathFor(journalPath));
  if (!found || found.stale) return undefined;
  return found.holder ?? UNREADABLE;
}

export class JournalLock {
  private readonly refresher: ReturnType<typeof setInterval>;
  private released = false;

  private constructor(
    readonly journalPath: string,
    readonly holder: LockHolder,
  ) {
    this.refresher = setInterval(() => void utimes(this.path, new Date(), new Date()).catch(() => undefined), REFRESH_MS);
    this.refresher.unref();
  }

  get path(): string {
    return lockPathFor(this.journalPath);
  }

  /** Takes the journal's lock, or refuses with JournalBusyError saying where the run that holds it runs. */
  static async acquire(journalPath: string): Promise<JournalLock> {
    const path = lockPathFor(journalPath);
    const holder: LockHolder = {
      pid: process.pid,
      hostname: hostname(),
      session: SESSION,
      token: randomBytes(8).toString('hex'),
      startedAt: new Date().toISOString(),
    };
    for (let tries = 0; tries < 3; tries += 1) {
      try {
        const handle = await open(path, 'wx');
        try {
          await handle.writeFile(JSON.stringify(holder));
        } catch (error) {
          // An empty lock would hold the journal for STALE_MS: none is better than that.
          await handle.close().finally(() => unlink(path).catch(() => undefined));
          throw error;
        }
        await handle.close();
        return new JournalLock(journalPath, holder);
      } catch (error) {
        if (errno(error) !== 'EEXIST') throw error;
      }
      const found = await inspect(path);
      if (!found) continue; // released meanwhile
      if (!found.stale) throw new JournalBusyError(journalPath, found.holder ?? UNREADABLE);
      await takeOver(path, found.text);
    }
    const found = await inspect(path);
    throw new JournalBusyError(journalPath, found?.holder ?? UNREADABLE);
  }

  /** Lets go of the lock, if it is still this one's (a holder judged stale may have lost it). */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    clearInterval(this.refresher);
    try {
      const holder = parseHolder(await readFile(this.path, 'utf8'));
      if (holder?.token === this.holder.token) await unlink(this.path);
    } catch (error) {
      if (errno(error) !== 'ENOENT') throw error;
    }
  }
}

/** Removes the stale lock at `path` if it is still the one read (`text`); a fresh one moved aside by mistake goes back. */
async function takeOver(path: string, text: string): Promise<void> {
  const aside = `${path}.${randomBytes(4).toString('hex')}.stale`;
  try {
    await rename(path, aside);
  } catch (error) {
    if (errno(error) === 'ENOENT') return;
    throw error;
  }
  const moved = await readFile(aside, 'utf8').catch(() => text);
  if (moved !== text) await link(aside, path).catch(() => undefined); // another's fresh lock: put back unless a newer one is there
  await unlink(aside).catch(() => undefined);
}
