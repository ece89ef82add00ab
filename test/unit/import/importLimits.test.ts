// Two jobs on one portal that limits its clients (the emulator's --rate-limit and --max-in-flight): they
// share the portal's limiter, so together they stay within what it allows, honour every Retry-After, and
// lose or repeat no row. Checked from the emulator's own log, over HTTP.
import * as assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PortalClient } from '../../../src/api/client';
import type { Column } from '../../../src/api/types';
import { PortalLimiter } from '../../../src/records/limiter';
import { CredentialsTokens, testInterface } from '../api/portal';
import { appliedCreates, fieldValues, importFile } from './portalImport';
import { customersCsv, useImportPortal } from './support';

interface Entry {
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  time: string;
  fault?: string;
}

describe('import: two jobs on one rate-limited portal', function () {
  this.timeout(120_000);
  const portal = useImportPortal({ reset: 'none' });
  afterEach(() => testInterface(portal.emulator, 'POST', 'config', { rateLimit: 0, rateBurst: 0, maxInFlight: 0, latencyMs: 0 }));

  it('share the limiter: never more in flight than the portal allows, every 429 waited out, each row created once', async () => {
    await testInterface(portal.emulator, 'POST', 'reset');
    await testInterface(portal.emulator, 'POST', 'config', { rateLimit: 40, rateBurst: 10, maxInFlight: 12, latencyMs: 30 });
    await testInterface(portal.emulator, 'DELETE', 'requests');
    const limiter = new PortalLimiter({ maxInFlight: 12, initialInFlight: 4 });
    const client = new PortalClient({ baseUrl: portal.emulator.baseUrl, tokens: new CredentialsTokens(portal.emulator), gate: limiter });
    const customers: Column[] = await client.listColumns('101');
    const first = join(portal.folder, 'first.csv');
    const second = join(portal.folder, 'second.csv');
    await writeFile(first, customersCsv(80, 1, 'First job'));
    await writeFile(second, customersCsv(80, 1, 'Second job'));
    const [a, b] = await Promise.all([
      importFile(first, client, customers, { concurrency: 12, limiter }),
      importFile(second, client, customers, { concurrency: 12, limiter }),
    ]);
    assert.deepEqual([a.counts.created, a.counts.failed, b.counts.created, b.counts.failed], [80, 0, 80, 0]);
    assert.equal(await appliedCreates(portal.emulator, '101'), 160, 'no create repeated');
    const names = await fieldValues(client, '101', '1', 'f2');
    for (const prefix of ['First job', 'Second job']) assert.equal(new Set(names.filter((name) => name.startsWith(prefix))).size, 80);

    const log = (await testInterface(portal.emulator, 'GET', 'requests')) as Entry[];
    const api = log.filter((entry) => entry.path.startsWith('/api/v1/app/'));
    assert.equal(api.filter((entry) => entry.fault === 'max_in_flight').length, 0, 'never more than 12 at once: the limiter is shared');
    // After a 429 with Retry-After: 1, nothing new arrives for that second (requests already on their way
    // when it was answered may still come: they left before the client knew).
    const arrival = (entry: Entry): number => Date.parse(entry.time) - entry.duration_ms;
    for (const refused of api.filter((entry) => entry.status === 429)) {
      const answeredAt = Date.parse(refused.time);
      const during = api.filter((entry) => arrival(entry) > answeredAt + 100 && arrival(entry) < answeredAt + 900);
      assert.deepEqual(
        during.map((entry) => `${entry.method} ${entry.path} ${entry.status}`),
        [],
        `nothing sent within the Retry-After of the 429 at ${refused.time}`,
      );
    }
    assert.ok(limiter.state().pushBacks === api.filter((entry) => entry.status === 429).length, 'the limiter saw every 429');
  });
});
