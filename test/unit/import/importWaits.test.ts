// How long an import obeys the portal's Retry-After: up to a cap however long it asks (issue 30, item 8),
// the wait said in the progress, and Cancel ending it.
import * as assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PortalClient } from '../../../src/api/client';
import type { Column } from '../../../src/api/types';
import { progressText } from '../../../src/import/report';
import type { RunProgress } from '../../../src/import/runner';
import { clientFor, injectFault, startPortal, testInterface, type Emulator } from '../api/portal';
import { appliedCreates, importFile } from './portalImport';
import { customersCsv, tempFolder } from './support';

describe('import: the waits the portal asks for', function () {
  this.timeout(20_000);
  const folder = tempFolder();
  let emulator: Emulator;
  let client: PortalClient;
  let customers: Column[];
  let fileCount = 0;

  async function file(content: string): Promise<string> {
    const path = join(folder.path, `waits-${(fileCount += 1)}.csv`);
    await writeFile(path, content);
    return path;
  }

  before(async () => {
    emulator = await startPortal();
    client = clientFor(emulator).client;
    customers = await client.listColumns('101');
  });
  after(() => emulator.close());
  beforeEach(async () => {
    await testInterface(emulator, 'POST', 'reset');
    await testInterface(emulator, 'DELETE', 'requests');
  });

  it('waits no longer than the cap when the portal asks for days, and says the wait in the progress', async () => {
    await injectFault(emulator, { path: '/record/$', method: 'POST', status: 429, headers: { 'Retry-After': '99999999' }, count: 1 });
    const progress: RunProgress[] = [];
    const result = await importFile(await file(customersCsv(3)), client, customers, { concurrency: 1, total: 3, retry: { maxRetryAfterMs: 300 }, onProgress: (event) => progress.push(event) });
    assert.deepEqual([result.counts.created, result.counts.failed], [3, 0]);
    const waiting = progress.find((event) => event.waitingSeconds !== undefined);
    assert.ok(waiting, 'a progress event during the wait');
    assert.equal(waiting.waitingSeconds, 1, 'the capped wait (300 ms), in whole seconds');
    assert.match(progressText(waiting), /the portal asked to wait 1 s/);
    assert.equal(progress.at(-1)?.waitingSeconds, undefined, 'the wait is over once rows are done again');
  });

  it('a Retry-After beyond the timer limit is capped too, not fired at once in a hot loop', async () => {
    // 9,999,999 s is over 2^31 ms: a timer of that length fires at once, and the 8 attempts would be spent in a moment.
    await injectFault(emulator, { path: '/record/$', method: 'POST', status: 429, headers: { 'Retry-After': '9999999' }, count: 3 });
    const waits: number[] = [];
    const result = await importFile(await file(customersCsv(1)), client, customers, {
      concurrency: 1,
      retry: { maxRetryAfterMs: 200, maxAttempts: 4 },
      onProgress: (event) => event.waitingSeconds !== undefined && waits.push(event.waitingSeconds),
    });
    assert.deepEqual([result.counts.created, result.counts.failed], [1, 0], 'the fourth attempt went through');
    assert.deepEqual(waits, [1, 1, 1], 'each 429 waited the cap');
  });

  it('Cancel ends a long wait at once and creates nothing', async () => {
    await injectFault(emulator, { path: '/record/$', method: 'POST', status: 429, headers: { 'Retry-After': '99999999' }, count: 1 });
    const controller = new AbortController();
    const result = await importFile(await file(customersCsv(2)), client, customers, {
      concurrency: 1,
      signal: controller.signal,
      onProgress: (event) => event.waitingSeconds !== undefined && controller.abort(),
    });
    assert.equal(result.cancelled, true);
    assert.equal(await appliedCreates(emulator, '101'), 0);
  });
});
