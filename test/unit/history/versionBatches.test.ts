// The store's offers gathered and kept in batches: an offer returns at once and writes nothing; a batch
// keeps every record's version in one pass; a write's fields go over the record's last version; offers
// beyond the bound are not kept, and it is said; a long burst is written as it comes.
import * as assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { RecordData } from '../../../src/api/types';
import { BATCH_MOST, MAX_WAITING, VersionBatches, versionToKeep } from '../../../src/history/versionBatches';
import { VersionLog } from '../../../src/history/versionLog';
import type { SeenVersion } from '../../../src/records/versions';

const textOf = (data: RecordData): string => `${JSON.stringify({ $schema: 'x', ...data }, null, 2)}\n`;

describe('VersionBatches', () => {
  let root: string;
  let log: VersionLog;
  let warnings: string[];
  let batches: VersionBatches;
  let batchSizes: number[];

  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'history-batches-'));
    log = new VersionLog(root, () => ({ maxVersionsPerRecord: 50, maxTotalBytes: 20 * 1024 * 1024 }));
    warnings = [];
    batchSizes = [];
    batches = new VersionBatches({
      log,
      prepare: async (batch) => (batchSizes.push(batch.length), batch.map((seen) => versionToKeep(seen, textOf))),
      warn: (line) => warnings.push(line),
    });
  });
  afterEach(async () => {
    batches.dispose();
    await rm(root, { recursive: true, force: true });
  });

  const seen = (recordId: string, data: RecordData, whole: boolean, cause: SeenVersion['cause'] = 'import'): SeenVersion => ({
    record: { portalId: 'p1', appId: '7', recordId },
    cause,
    at: Date.now(),
    data,
    whole,
  });

  it('an offer writes nothing until its batch; a batch keeps every record in one pass', async () => {
    for (let index = 0; index < 1_000; index += 1) batches.offer(seen(String(index), { f1: `v${index}` }, true));
    assert.equal(batches.pending, 1_000);
    assert.deepEqual(await readdir(root), [], 'nothing written on the offers');
    await batches.flush();
    assert.deepEqual(batchSizes, [1_000], 'one batch');
    assert.equal((await readdir(path.join(root, 'p1'))).length, 1_000);
  });

  it("a write's fields over the record's last version; a whole copy as it is", async () => {
    batches.offer(seen('1', { f1: 'a', f2: 'b' }, true, 'opened'));
    batches.offer(seen('1', { f2: 'B' }, false, 'bulk'));
    await batches.flush();
    batches.offer(seen('1', { f1: 'A' }, false, 'grid'));
    await batches.flush();
    const versions = await log.versions({ portalId: 'p1', appId: '7', recordId: '1' });
    assert.deepEqual(
      versions.map((version) => [version.cause, version.text]),
      [
        ['opened', textOf({ f1: 'a', f2: 'b' })],
        ['bulk', textOf({ f1: 'a', f2: 'B' })],
        ['grid', textOf({ f1: 'A', f2: 'B' })],
      ],
    );
  });

  it('writes a batch by itself after a moment', async () => {
    batches.offer(seen('1', { f1: 'a' }, true));
    for (let tries = 0; batchSizes.length === 0; tries += 1) {
      assert.ok(tries < 200, 'the batch was written');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await batches.flush();
    assert.equal((await log.versions({ portalId: 'p1', appId: '7', recordId: '1' })).length, 1);
  });

  it('writes a long burst BATCH_MOST at a time as it comes; keeps no more than MAX_WAITING waiting, and says how many it let go', async () => {
    const offers = BATCH_MOST + MAX_WAITING + 5;
    for (let index = 0; index < offers; index += 1) batches.offer(seen(String(index % 10), { f1: String(index) }, true));
    assert.deepEqual(batchSizes, [BATCH_MOST], 'the first BATCH_MOST went to be written at once');
    assert.equal(batches.pending, MAX_WAITING, 'while it is written, the next ones wait, up to the bound');
    await batches.flush();
    assert.deepEqual(batchSizes, [BATCH_MOST, MAX_WAITING]);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /kept no version of 5 records: too many were waiting/);
  });
});
