// One run per journal: the lock beside it, who holds it, and when a lock left behind is stale.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { JournalBusyError, JournalLock, journalHolder, lockPathFor } from '../../../src/import/journalLock';
import { tempFolder } from './support';

describe('import: the journal lock', () => {
  const folder = tempFolder();
  let count = 0;
  const journalPath = (): string => join(folder.path, `j${(count += 1)}.portal-journal.jsonl`);
  const otherWindow = (pid: number) => ({
    pid,
    hostname: hostname(),
    session: 'other',
    token: 'theirs',
    startedAt: '2026-12-01T21:40:00.000Z',
  });

  it('is held by one run at a time in this window, and let go at release', async () => {
    const path = journalPath();
    const first = await JournalLock.acquire(path);
    const refused = await JournalLock.acquire(path).then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(refused instanceof JournalBusyError);
    assert.match(refused.message, /running in this window since/);
    assert.equal((await journalHolder(path))?.token, first.holder.token);
    await first.release();
    assert.equal(await journalHolder(path), undefined);
    await (await JournalLock.acquire(path)).release();
  });

  it('refuses while another window holds it, saying which process', async () => {
    const path = journalPath();
    // This test's own process stands for the other window: its pid is alive.
    await writeFile(lockPathFor(path), JSON.stringify(otherWindow(process.ppid)));
    await assert.rejects(JournalLock.acquire(path), (error: unknown) => {
      assert.ok(error instanceof JournalBusyError);
      assert.match(error.message, new RegExp(`running in another VS Code window \\(process ${process.ppid}\\) since`));
      return true;
    });
  });

  it('takes over a lock whose process is gone, and one nobody refreshed for long', async () => {
    const gone = spawnSync(process.execPath, ['-e', '0']).pid;
    const path = journalPath();
    await writeFile(lockPathFor(path), JSON.stringify(otherWindow(gone)));
    assert.equal(await journalHolder(path), undefined, 'stale: its process is gone');
    const taken = await JournalLock.acquire(path);
    assert.equal(JSON.parse(await readFile(lockPathFor(path), 'utf8')).token, taken.holder.token);
    await taken.release();

    const old = journalPath();
    await writeFile(lockPathFor(old), JSON.stringify({ ...otherWindow(process.ppid), hostname: 'elsewhere' }));
    const longAgo = new Date(Date.now() - 10 * 60_000);
    await utimes(lockPathFor(old), longAgo, longAgo);
    await (await JournalLock.acquire(old)).release();
  });

  it('does not remove a lock that is no longer its own', async () => {
    const path = journalPath();
    const lock = await JournalLock.acquire(path);
    await writeFile(lockPathFor(path), JSON.stringify(otherWindow(process.ppid)));
    await lock.release();
    await stat(lockPathFor(path));
  });
});
