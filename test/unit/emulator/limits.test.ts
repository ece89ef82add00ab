// The emulator as a distant portal that limits each client: a rate (token bucket) answering 429 with
// Retry-After, a number of requests at once answering 429 (or 503), both settable while it runs.
import * as assert from 'node:assert/strict';
import { Admissions } from '../../emulator/pacing';
import { call, clientToken, useSeededEmulator } from './helpers';

describe('emulator: rate limit and requests in flight', () => {
  const running = useSeededEmulator();
  const config = async (body: Record<string, unknown>) => {
    const answer = await call(running.emulator, 'POST', '/_emulator/config', { body });
    assert.equal(answer.status, 200, answer.text);
  };
  const sites = () => call(running.emulator, 'GET', '/api/v1/site', { token: running.token });
  afterEach(() => config({ rateLimit: 0, rateBurst: 0, maxInFlight: 0, overLimitStatus: 429, latencyMs: 0 }));

  it('lets a burst through, then answers 429 with Retry-After and logs it', async () => {
    await config({ rateLimit: 2, rateBurst: 3 });
    const statuses = [];
    for (let index = 0; index < 5; index += 1) statuses.push((await sites()).status);
    assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
    const refused = await sites();
    assert.equal(refused.headers.get('retry-after'), '1');
    assert.equal((refused.json as { error: { code: string } }).error.code, 'rate_limited');
    const log = (await call(running.emulator, 'GET', '/_emulator/requests')).json as Array<{ status: number; fault?: string }>;
    assert.equal(log.at(-1)?.fault, 'rate_limit');
  });

  it('counts each client apart, and signing in not at all', async () => {
    await config({ rateLimit: 1, rateBurst: 1 });
    assert.equal((await sites()).status, 200);
    assert.equal((await sites()).status, 429);
    // Another token of the same client shares its bucket; getting it is not counted.
    const second = await clientToken(running.emulator);
    assert.equal((await call(running.emulator, 'GET', '/api/v1/site', { token: second })).status, 429);
  });

  it('refills at the rate', () => {
    let now = 0;
    const admissions = new Admissions(() => now);
    const limits = { rateLimit: 10, rateBurst: 1, maxInFlight: 0, overLimitStatus: 429 };
    assert.equal(admissions.admit('a', limits).admitted, true);
    assert.equal(admissions.admit('a', limits).admitted, false);
    now += 100;
    assert.equal(admissions.admit('a', limits).admitted, true, 'one more after a tenth of a second');
    assert.equal(admissions.admit('b', limits).admitted, true, 'another client has a bucket of its own');
  });

  it('answers requests beyond --max-in-flight with the chosen status, and counts them out when answered', async () => {
    await config({ maxInFlight: 2, latencyMs: 200 });
    const three = await Promise.all([sites(), sites(), sites()]);
    assert.deepEqual(three.map((answer) => answer.status).sort(), [200, 200, 429]);
    assert.equal(three.find((answer) => answer.status === 429)?.headers.get('retry-after'), '1');
    assert.deepEqual(
      (await Promise.all([sites(), sites()])).map((answer) => answer.status),
      [200, 200],
      'the first ones were counted out',
    );
    await config({ overLimitStatus: 503 });
    assert.deepEqual((await Promise.all([sites(), sites(), sites()])).map((answer) => answer.status).sort(), [200, 200, 503]);
  });

  it('refuses bad values, at start and while running', async () => {
    assert.equal((await call(running.emulator, 'POST', '/_emulator/config', { body: { overLimitStatus: 500 } })).status, 400);
    assert.equal((await call(running.emulator, 'POST', '/_emulator/config', { body: { rateLimit: -1 } })).status, 400);
  });
});
