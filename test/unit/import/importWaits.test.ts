// How long an import obeys the portal's Retry-After: up to a cap however long it asks (issue 30, item 8),
// the wait said in the progress, and Cancel ending it.
import * as assert from 'node:assert/strict';
import { progressText } from '../../../src/import/report';
import type { RunProgress } from '../../../src/import/runner';
import { injectFault } from '../api/portal';
import { appliedCreates, importFile } from './portalImport';
import { customersCsv, useImportPortal } from './support';

describe('import: the waits the portal asks for', function () {
  this.timeout(20_000);
  const portal = useImportPortal({ filePrefix: 'waits' });

  it('waits no longer than the cap when the portal asks for days, and says the wait in the progress', async () => {
    await injectFault(portal.emulator, {
      path: '/record/$',
      method: 'POST',
      status: 429,
      headers: { 'Retry-After': '99999999' },
      count: 1,
    });
    const progress: RunProgress[] = [];
    const result = await importFile(await portal.file(customersCsv(3)), portal.client, portal.customers, {
      concurrency: 1,
      total: 3,
      retry: { maxRetryAfterMs: 300 },
      onProgress: (event) => progress.push(event),
    });
    assert.deepEqual([result.counts.created, result.counts.failed], [3, 0]);
    const waiting = progress.find((event) => event.waitingSeconds !== undefined);
    assert.ok(waiting, 'a progress event during the wait');
    assert.equal(waiting.waitingSeconds, 1, 'the capped wait (300 ms), in whole seconds');
    assert.match(progressText(waiting), /the portal asked to wait 1 s/);
    assert.equal(progress.at(-1)?.waitingSeconds, undefined, 'the wait is over once rows are done again');
  });

  it('a Retry-After beyond the timer limit is capped too, not fired at once in a hot loop', async () => {
    // 9,999,999 s is over 2^31 ms: a timer of that length fires at once, and the 8 attempts would be spent in a moment.
    await injectFault(portal.emulator, { path: '/record/$', method: 'POST', status: 429, headers: { 'Retry-After': '9999999' }, count: 3 });
    const waits: number[] = [];
    const result = await importFile(await portal.file(customersCsv(1)), portal.client, portal.customers, {
      concurrency: 1,
      retry: { maxRetryAfterMs: 200, maxAttempts: 4 },
      onProgress: (event) => event.waitingSeconds !== undefined && waits.push(event.waitingSeconds),
    });
    assert.deepEqual([result.counts.created, result.counts.failed], [1, 0], 'the fourth attempt went through');
    assert.deepEqual(waits, [1, 1, 1], 'each 429 waited the cap');
  });

  it('Cancel ends a long wait at once and creates nothing', async () => {
    await injectFault(portal.emulator, {
      path: '/record/$',
      method: 'POST',
      status: 429,
      headers: { 'Retry-After': '99999999' },
      count: 1,
    });
    const controller = new AbortController();
    const result = await importFile(await portal.file(customersCsv(2)), portal.client, portal.customers, {
      concurrency: 1,
      signal: controller.signal,
      onProgress: (event) => event.waitingSeconds !== undefined && controller.abort(),
    });
    assert.equal(result.cancelled, true);
    assert.equal(await appliedCreates(portal.emulator, '101'), 0);
  });
});
