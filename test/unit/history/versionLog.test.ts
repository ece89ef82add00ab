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
