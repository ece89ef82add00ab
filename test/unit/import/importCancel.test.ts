// Cancel during an import: the creates already sent are let finish (for a moment), so that the resumed run
// neither looks for them nor, without a key column to look by, reports them uncertain; a create the
// portal does not answer is still given up after that moment.
import * as assert from 'node:assert/strict';
import { injectFault } from '../api/portal';
import { appliedCreates, importFile, requestLog } from './portalImport';
import { useImportPortal } from './support';

describe('import: Cancel', function () {
  this.timeout(60_000);
  const portal = useImportPortal({ filePrefix: 'cancel' });

  function ordersFile(count: number): Promise<string> {
    return portal.file(
      `Title,Order date,Amount\n${Array.from({ length: count }, (_, index) => `Cancelled order ${index},2026-03-01,10`).join('\n')}\n`,
    );
  }

  it('lets the creates in flight finish: the resumed run looks for none, and without a key nothing is uncertain', async () => {
    await injectFault(portal.emulator, { path: '/record/$', method: 'POST', latency_ms: 20, count: -1 });
    const path = await ordersFile(120);
    const controller = new AbortController();
    // No key column and no look-up view: a create cut off by the Cancel could only be reported uncertain.
    const first = await importFile(path, portal.client, portal.orders, {
      appId: '102',
      signal: controller.signal,
      onProgress: (progress) => progress.done >= 30 && controller.abort(),
    });
    assert.equal(first.cancelled, true);
    assert.ok(first.counts.created >= 30 && first.counts.created < 120, String(first.counts.created));
    const before = (await requestLog(portal.emulator)).length;
    const second = await importFile(path, portal.client, portal.orders, { appId: '102', lookupViewId: '3' });
    assert.deepEqual([second.counts.created, second.counts.uncertain, second.counts.failed], [120, 0, 0]);
    const lookUps = (await requestLog(portal.emulator)).slice(before).filter((entry) => entry.method === 'GET');
    assert.equal(lookUps.length, 0, 'nothing to look for');
    assert.equal(await appliedCreates(portal.emulator, '102'), 120);
  });

  it('gives up a create the portal does not answer soon after the Cancel, and the resumed run looks for it', async () => {
    await injectFault(portal.emulator, { path: '/record/$', method: 'POST', latency_ms: 30_000, count: 1 });
    const path = await ordersFile(3);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const started = Date.now();
    const first = await importFile(path, portal.client, portal.orders, {
      appId: '102',
      matchField: 'f11',
      lookupViewId: '3',
      concurrency: 1,
      signal: controller.signal,
    });
    assert.equal(first.cancelled, true);
    assert.ok(Date.now() - started < 10_000, 'not held until the portal answers');
    const second = await importFile(path, portal.client, portal.orders, { appId: '102', matchField: 'f11', lookupViewId: '3' });
    assert.deepEqual([second.counts.created, second.counts.uncertain, second.counts.failed], [3, 0, 0]);
    assert.equal(await appliedCreates(portal.emulator, '102'), 3);
  });
});
