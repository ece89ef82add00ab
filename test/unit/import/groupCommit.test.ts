// The journal's group commit on real files: what goes out in one write, what waits for a sync, and a
// failed write that reaches every line's caller without an unhandled rejection.
import * as assert from 'node:assert/strict';
import { open, readFile, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { GroupCommit } from '../../../src/import/groupCommit';
import { tempFolder } from './support';

/** A real file handle whose writes and syncs are counted. */
function counted(handle: FileHandle): { writes: string[]; syncs: number; handle: Pick<FileHandle, 'write' | 'datasync'> } {
  const record = {
    writes: [] as string[],
    syncs: 0,
    handle: {
      write: ((text: string) => {
        record.writes.push(text);
        return handle.write(text);
      }) as FileHandle['write'],
      datasync: () => {
        record.syncs += 1;
        return handle.datasync();
      },
    },
  };
  return record;
}

describe('import: the journal group commit', () => {
  const folder = tempFolder();
  let count = 0;
  const path = (): string => join(folder.path, `lines-${(count += 1)}.jsonl`);

  it('writes the lines appended in one turn at once, those needing no sync sharing one promise', async () => {
    const file = path();
    const handle = await open(file, 'a');
    try {
      const io = counted(handle);
      let written = 0;
      const lines = new GroupCommit(
        io.handle,
        () => ({ outcomes: 0 }),
        (extra) => (written += extra.outcomes),
      );
      const first = lines.append('{"n":1}', false);
      lines.extra.outcomes += 1;
      const second = lines.append('{"n":2}', false);
      lines.extra.outcomes += 1;
      const synced = lines.append('{"n":3}', true);
      assert.equal(first, second, 'one promise for the lines of one write');
      assert.notEqual(first, synced, 'a line that must be synced waits for the sync');
      await synced;
      assert.deepEqual(io.writes, ['{"n":1}\n{"n":2}\n{"n":3}\n']);
      assert.equal(io.syncs, 1);
      assert.equal(written, 2, 'the batch owner counted what was written');
      assert.equal(await readFile(file, 'utf8'), '{"n":1}\n{"n":2}\n{"n":3}\n');
    } finally {
      await handle.close();
    }
  });

  it('lets lines that need no sync wait for one that does, and writes them together', async () => {
    const handle = await open(path(), 'a');
    try {
      const io = counted(handle);
      const lines = new GroupCommit(
        io.handle,
        () => undefined,
        () => undefined,
      );
      const outcome = lines.append('{"outcome":1}', false);
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(io.writes, [], 'lingering');
      const attempt = lines.append('{"attempt":2}', true);
      await Promise.all([outcome, attempt]);
      assert.deepEqual(io.writes, ['{"outcome":1}\n{"attempt":2}\n']);
      assert.equal(io.syncs, 1);
    } finally {
      await handle.close();
    }
  });

  it('rejects every caller of a failed write, and a line nobody awaits raises no unhandled rejection', async () => {
    const file = path();
    await writeFile(file, '');
    const readOnly = await open(file, 'r');
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const lines = new GroupCommit(
        readOnly,
        () => undefined,
        () => undefined,
      );
      // Not awaited on purpose: the line of an outcome whose caller moved on.
      void lines.append('{"outcome":1}', false);
      await assert.rejects(lines.append('{"attempt":2}', true), (error: NodeJS.ErrnoException) => error.code === 'EBADF');
      await lines.settle();
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await readOnly.close();
    }
  });
});
