// A 429's or 503's Retry-After reaches the caller in PortalError.retryAfterMs, as seconds or an HTTP date.
import * as assert from 'node:assert/strict';
import { retryAfterMs } from '../../../src/api/http';
import { clientFor, injectFault, rejectsWith, startPortal, type Emulator } from './portal';

describe('PortalError: Retry-After', function () {
  let emulator: Emulator;

  before(async () => {
    emulator = await startPortal();
  });
  after(() => emulator.close());

  it('carries the wait the portal asked for, from the emulator over HTTP', async () => {
    const { client } = clientFor(emulator);
    await injectFault(emulator, { path: '^/api/v1/site$', status: 429, count: 1, headers: { 'Retry-After': '7' } });
    const limited = await rejectsWith(client.listSites(), { status: 429, verdict: 'not-taken' });
    assert.equal(limited.retryAfterMs, 7000);
    await injectFault(emulator, { path: '^/api/v1/site$', status: 503, count: 1 });
    const unavailable = await rejectsWith(client.listSites(), { status: 503 });
    assert.equal(unavailable.retryAfterMs, undefined);
  });

  it('reads delay-seconds and HTTP dates, and ignores what it cannot read', () => {
    const now = Date.parse('Wed, 25 Nov 2026 06:00:00 GMT');
    assert.equal(retryAfterMs('120', now), 120_000);
    assert.equal(retryAfterMs('Wed, 25 Nov 2026 06:00:30 GMT', now), 30_000);
    assert.equal(retryAfterMs('Wed, 25 Nov 2026 05:00:00 GMT', now), 0);
    assert.equal(retryAfterMs('soon', now), undefined);
    assert.equal(retryAfterMs(null, now), undefined);
  });
});
