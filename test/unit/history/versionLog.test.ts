// The version log on a real folder: equal versions kept once, the bounds per record and in total (oldest
// dropped first), a torn last line after a crash dropped without losing the lines before it, a portal's
// history removed with it.
import * as assert from 'node:assert/strict';
import { appendFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { VersionLog, type HistoryLimits } from '../../../src/history/versionLog';

const record = { portalId: 'p1', appId: '7', recordId: '42' };
const other = { portalId: 'p1', appId: '7', recordId: '43' };

describe('VersionLog', () => {
  let root: string;
  let limits: HistoryLimits;
  let log: VersionLog;

  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'history-'));
    limits = { maxVersionsPerRecord: 50, maxTotalBytes: 20 * 1024 * 1024 };
    log = new VersionLog(root, () => limits);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('keeps versions oldest first with their cause, and an equal one once', async () => {
    assert.equal(await log.append(record, { at: 1, cause: 'opened', text: 'a' }), true);
    assert.equal(await log.append(record, { at: 2, cause: 'webhook', text: 'a' }), false);
    assert.equal(await log.append(record, { at: 3, cause: 'saved', text: 'b' }), true);
    assert.equal(await log.append(record, { at: 4, cause: 'watch', text: 'a' }), true);
    const versions = await log.versions(record);
    assert.deepEqual(
      versions.map((v) => [v.at, v.cause, v.text]),
      [
        [1, 'opened', 'a'],
        [3, 'saved', 'b'],
        [4, 'watch', 'a'],
      ],
    );
    assert.deepEqual(await log.versions(other), []);
  });

  it('keeps at most maxVersionsPerRecord of a record, dropping the oldest', async () => {
    limits = { ...limits, maxVersionsPerRecord: 3 };
    for (let i = 1; i <= 5; i++) await log.append(record, { at: i, cause: 'opened', text: `v${i}` });
    assert.deepEqual(
      (await log.versions(record)).map((v) => v.text),
      ['v3', 'v4', 'v5'],
    );
  });

  it('keeps the total under maxTotalBytes, dropping the oldest of any record', async () => {
    const big = (tag: string): string => tag + 'x'.repeat(1000);
    await log.append(record, { at: 1, cause: 'opened', text: big('r1') });
    await log.append(other, { at: 2, cause: 'opened', text: big('o1') });
    await log.append(record, { at: 3, cause: 'saved', text: big('r2') });
    limits = { ...limits, maxTotalBytes: 2500 };
    await log.append(other, { at: 4, cause: 'saved', text: big('o2') });
    assert.deepEqual(
      (await log.versions(record)).map((v) => v.at),
      [3],
    );
    assert.deepEqual(
      (await log.versions(other)).map((v) => v.at),
      [4],
    );
  });

  it('keeps a batch in one pass: each record once, several versions of one in order, a text made from the last kept', async () => {
    await log.append(record, { at: 1, cause: 'opened', text: '{"f1": "a", "f2": "b"}' });
    const lastSeen: Array<string | undefined> = [];
    const kept = await log.appendAll([
      { record, at: 2, cause: 'import', text: (last) => (lastSeen.push(last?.text), '{"f1": "A", "f2": "b"}') },
      { record: other, at: 3, cause: 'import', text: (last) => (lastSeen.push(last?.text), 'new') },
      { record, at: 4, cause: 'bulk', text: (last) => (lastSeen.push(last?.text), `${last?.text ?? ''}!`) },
      { record: other, at: 5, cause: 'grid', text: 'new' },
    ]);
    assert.deepEqual(kept.map((target) => target.recordId).sort(), ['42', '43'], 'the records that got a version, each once');
    // Record by record (each file read and written once), each made from the version before it.
    assert.deepEqual(
      lastSeen.filter((text) => text !== undefined),
      ['{"f1": "a", "f2": "b"}', '{"f1": "A", "f2": "b"}'],
    );
    assert.equal(lastSeen.length, 3, "and the other record's first from none");
    assert.deepEqual(
      (await log.versions(record)).map((version) => version.cause),
      ['opened', 'import', 'bulk'],
    );
    assert.deepEqual(
      (await log.versions(other)).map((version) => version.cause),
      ['import'],
      'the equal version after it not kept',
    );
  });

  it('keeps the total bound over many batches of many records, oldest dropped first', async () => {
    limits = { maxVersionsPerRecord: 50, maxTotalBytes: 40_000 };
    for (let batch = 0; batch < 10; batch += 1) {
      await log.appendAll(
        Array.from({ length: 50 }, (_, index) => ({
          record: { portalId: 'p1', appId: '7', recordId: String(batch * 50 + index) },
          at: batch * 50 + index,
          cause: 'import' as const,
          text: 'x'.repeat(200),
        })),
      );
    }
    const folder = path.join(root, 'p1');
    const files = await readdir(folder);
    let total = 0;
    for (const file of files) total += (await readFile(path.join(folder, file))).length;
    assert.ok(total <= 40_000, `${total} bytes kept`);
    assert.ok(files.length > 100, 'the newest records kept');
    assert.ok(files.includes('7~499.jsonl') && !files.includes('7~0.jsonl'), 'the newest kept, the oldest dropped');
  });

  it('drops a torn last line after a crash and appends after the lines before it', async () => {
    await log.append(record, { at: 1, cause: 'opened', text: 'a' });
    await log.append(record, { at: 2, cause: 'saved', text: 'b' });
    const [portal] = await readdir(root);
    const [file] = await readdir(path.join(root, portal));
    await appendFile(path.join(root, portal, file), '{"at":3,"cause":"sav');
    assert.deepEqual(
      (await log.versions(record)).map((v) => v.text),
      ['a', 'b'],
    );
    await log.append(record, { at: 4, cause: 'webhook', text: 'c' });
    assert.deepEqual(
      (await log.versions(record)).map((v) => v.text),
      ['a', 'b', 'c'],
    );
    assert.ok((await readFile(path.join(root, portal, file), 'utf8')).endsWith('\n'));
  });

  it("removes a portal's versions with it, and no other portal's", async () => {
    const elsewhere = { ...record, portalId: 'p2' };
    await log.append(record, { at: 1, cause: 'opened', text: 'a' });
    await log.append(elsewhere, { at: 1, cause: 'opened', text: 'a' });
    await log.forgetPortal('p1');
    assert.deepEqual(await log.versions(record), []);
    assert.equal((await log.versions(elsewhere)).length, 1);
  });
});
