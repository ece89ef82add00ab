// The portal's limiter with a fake clock: it grows while answers stay fast, shrinks on 429/503 and on
// stretched round trips, is shared by every job on the portal, and holds one pause for a Retry-After.
import * as assert from 'node:assert/strict';
import type { RequestPermit } from '../../../src/api/gate';
import { PortalLimiter } from '../../../src/records/limiter';
import { backoffMs, retryPolicy, retryWaitMs, sleep } from '../../../src/records/retry';
import { FakeClock } from '../support/fakeClock';

/** Takes every permit free now (those given at once); the rest stay queued. */
function takeFree(limiter: PortalLimiter, count: number): RequestPermit[] {
  const permits: RequestPermit[] = [];
  for (let index = 0; index < count; index += 1) {
    const permit = limiter.acquire();
    if (permit instanceof Promise) {
      permit.then(
        (late) => late.release({ status: 200 }),
        () => undefined,
      );
      break;
    }
    permits.push(permit);
  }
  return permits;
}

/** One round of `limit` requests answered `status` after `roundTripMs`. */
async function round(limiter: PortalLimiter, clock: FakeClock, roundTripMs: number, status = 200): Promise<void> {
  const permits = takeFree(limiter, limiter.state().limit);
  await clock.advance(roundTripMs);
  for (const permit of permits) permit.release({ status, roundTripMs });
}

describe('records: the portal limiter', () => {
  it('grows by about one per round while answers stay fast, up to its most', async () => {
    const clock = new FakeClock();
    const limiter = new PortalLimiter({ maxInFlight: 12, initialInFlight: 4, clock });
    const limits: number[] = [];
    for (let index = 0; index < 12; index += 1) {
      await round(limiter, clock, 200);
      limits.push(limiter.state().limit);
    }
    assert.deepEqual(limits.slice(1, 5), [5, 6, 7, 8], 'about one more per round');
    assert.equal(limits.at(-1), 12, 'bounded by maxInFlight');
  });

  it('does not grow while the jobs do not use the window', async () => {
    const clock = new FakeClock();
    const limiter = new PortalLimiter({ maxInFlight: 32, initialInFlight: 4, clock });
    for (let index = 0; index < 20; index += 1) {
      const [permit] = takeFree(limiter, 1);
      await clock.advance(50);
      permit.release({ status: 200, roundTripMs: 50 });
    }
    assert.equal(limiter.state().limit, 4);
  });

  it('halves at once on a 429 or a 503, once for a burst of them', async () => {
    const clock = new FakeClock();
    const limiter = new PortalLimiter({ maxInFlight: 32, initialInFlight: 16, clock });
    await round(limiter, clock, 100);
    const before = limiter.state().limit;
    await round(limiter, clock, 100, 429);
    assert.equal(limiter.state().limit, Math.floor(before / 2), 'every answer of the round was a 429: halved once');
    await round(limiter, clock, 100, 503);
    assert.equal(limiter.state().limit, Math.floor(Math.floor(before / 2) / 2));
    assert.equal(limiter.state().limited, true, 'reported as the portal limiting us');
    assert.ok(limiter.state().pushBacks > 0);
  });

  it('counts a burst of 429s once even before it knows a round trip (the first answers refused)', async () => {
    const clock = new FakeClock();
    const limiter = new PortalLimiter({ maxInFlight: 32, initialInFlight: 16, clock });
    await round(limiter, clock, 100, 429);
    assert.equal(limiter.state().limit, 8);
  });

  it('climbs back to near where the portal refused, then probes beyond it slowly', async () => {
    const clock = new FakeClock();
    const limiter = new PortalLimiter({ maxInFlight: 32, initialInFlight: 20, clock });
    await round(limiter, clock, 200);
    const refusedAt = limiter.state().limit;
    await round(limiter, clock, 200, 429);
    const limits: number[] = [];
    for (let index = 0; index < 16; index += 1) {
      await round(limiter, clock, 200);
      limits.push(limiter.state().limit);
    }
    assert.ok(limits[7] >= Math.floor(refusedAt * 0.85), `back near ${refusedAt} within 8 rounds: ${limits.join(', ')}`);
    // Every overshoot is a burst of 429s and a pause of the whole portal (a Retry-After of a second or
    // more): near the window refused the limiter creeps, one more per several rounds.
    assert.ok(limits[15] <= refusedAt + 1, `not past ${refusedAt} + 1 in 16 rounds: ${limits.join(', ')}`);
    assert.ok(limits[15] > limits[7], `still probing upwards: ${limits.join(', ')}`);
  });

  it('forgets where the portal refused once it has not refused for a while: a 429 met at 2 in flight does not hold a job back', async () => {
    const clock = new FakeClock();
    const limiter = new PortalLimiter({ maxInFlight: 32, initialInFlight: 2, clock });
    await round(limiter, clock, 200, 429);
    await clock.advance(10_000);
    for (let index = 0; index < 10; index += 1) await round(limiter, clock, 200);
    assert.ok(limiter.state().limit >= 5, `held back no longer, it grows by one a round again: ${limiter.state().limit}`);
  });

  it('shrinks when round trips stretch to twice the fastest', async () => {
    const clock = new FakeClock();
    const limiter = new PortalLimiter({ maxInFlight: 32, initialInFlight: 20, clock });
    await round(limiter, clock, 200);
    const before = limiter.state().limit;
    await round(limiter, clock, 600);
    assert.ok(limiter.state().limit < before, `${limiter.state().limit} < ${before}`);
    assert.equal(limiter.state().limited, false, 'stretched is not refused');
  });

  it('is shared: two jobs together never have more in flight than its limit', async () => {
    const clock = new FakeClock();
    const limiter = new PortalLimiter({ maxInFlight: 6, initialInFlight: 6, clock });
    let inFlight = 0;
    let most = 0;
    const job = async (requests: number): Promise<void> => {
      for (let index = 0; index < requests; index += 1) {
        const permit = await limiter.acquire();
        inFlight += 1;
        most = Math.max(most, inFlight);
        await sleepOn(clock, 10);
        inFlight -= 1;
        permit.release({ status: 200, roundTripMs: 10 });
      }
    };
    const jobs = Promise.all([...Array.from({ length: 6 }, () => job(5)), ...Array.from({ length: 6 }, () => job(5))]);
    for (let step = 0; step < 200 && most === 0; step += 1) await clock.advance(1);
    for (let step = 0; step < 200; step += 1) await clock.advance(5);
    await jobs;
    assert.equal(most, 6, 'twelve workers of two jobs, six at once');
  });

  it('holds every request for one Retry-After pause, capped, and lets a cancel out of it', async () => {
    const clock = new FakeClock();
    const limiter = new PortalLimiter({ maxInFlight: 8, initialInFlight: 4, maxRetryAfterMs: 60_000, clock });
    const [refused] = takeFree(limiter, 1);
    refused.release({ status: 429, retryAfterMs: 99_999_999_000 });
    assert.equal(limiter.pausedMs(), 60_000, 'capped');
    const started: string[] = [];
    const a = Promise.resolve(limiter.acquire()).then((permit) => started.push('a') && permit);
    const b = Promise.resolve(limiter.acquire()).then((permit) => started.push('b') && permit);
    const cancel = new AbortController();
    const c = Promise.resolve(limiter.acquire(cancel.signal)).catch((error: unknown) => error);
    const open = limiter.whenOpen();
    await clock.advance(30_000);
    assert.deepEqual(started, [], 'nothing starts during the pause');
    cancel.abort();
    assert.equal(((await c) as Error).name, 'AbortError');
    await clock.advance(30_000);
    await open;
    assert.deepEqual(started.sort(), ['a', 'b'], 'both go once it ends');
    for (const permit of await Promise.all([a, b])) (permit as RequestPermit).release({ status: 200 });
    assert.equal(limiter.state().inFlight, 0);
  });

  it("serves the user's request before the jobs' queue, within the window", async () => {
    const clock = new FakeClock();
    const limiter = new PortalLimiter({ maxInFlight: 4, initialInFlight: 4, clock });
    const held = Array.from({ length: 4 }, () => limiter.bulk.acquire() as RequestPermit);
    const order: string[] = [];
    const queued = Array.from({ length: 6 }, (_, index) =>
      Promise.resolve(limiter.bulk.acquire()).then((permit) => (order.push(`job ${index}`), permit)),
    );
    const hover = Promise.resolve(limiter.acquire()).then((permit) => (order.push('hover'), permit));
    await clock.advance(0);
    assert.deepEqual(order, [], 'the window is full: the hover waits too');
    held[0].release({ status: 200, roundTripMs: 10 });
    await clock.advance(0);
    assert.deepEqual(order, ['hover'], "the first permit freed is the hover's, not the next job request's");
    assert.equal(limiter.state().inFlight, 4, 'never more than the window');
    (await hover).release({ status: 200, roundTripMs: 10 });
    for (const permit of held.slice(1)) permit.release({ status: 200, roundTripMs: 10 });
    await clock.advance(0);
    assert.deepEqual(order.slice(1, 5), ['job 0', 'job 1', 'job 2', 'job 3'], 'the jobs then in their order');
    for (const permit of await Promise.all(queued.slice(0, 4))) permit.release({ status: 200, roundTripMs: 10 });
    for (const permit of await Promise.all(queued.slice(4))) permit.release({ status: 200, roundTripMs: 10 });
    assert.equal(limiter.state().inFlight, 0);
  });

  it("answers a user's request within about one round trip while an import keeps every permit busy", async () => {
    const clock = new FakeClock();
    const roundTripMs = 200;
    const limiter = new PortalLimiter({ maxInFlight: 32, initialInFlight: 8, clock });
    let stop = false;
    // An import's 32 workers, each a request after the other, on a portal that answers in 200 ms.
    const worker = async (): Promise<void> => {
      while (!stop) {
        const permit = await limiter.bulk.acquire();
        await sleepOn(clock, roundTripMs);
        permit.release({ status: 200, roundTripMs });
      }
    };
    const workers = Promise.all(Array.from({ length: 32 }, () => worker()));
    await clock.advance(2_000);
    const asked = clock.now();
    let grantedAt: number | undefined;
    const open = Promise.resolve(limiter.acquire()).then((permit) => {
      grantedAt = clock.now();
      return permit;
    });
    for (let step = 0; step < 100 && grantedAt === undefined; step += 1) await clock.advance(5);
    assert.ok(grantedAt !== undefined && grantedAt - asked <= roundTripMs, `granted ${String(grantedAt)} - ${asked} ms after it asked`);
    (await open).release({ status: 200, roundTripMs });
    stop = true;
    await clock.advance(roundTripMs * 40);
    await workers;
    assert.equal(limiter.state().inFlight, 0);
  });

  it('reports the rate of answers', async () => {
    const clock = new FakeClock();
    const limiter = new PortalLimiter({ maxInFlight: 4, initialInFlight: 4, clock });
    for (let index = 0; index < 25; index += 1) await round(limiter, clock, 100);
    // 4 answers per 100 ms (over a window that begins at the first answer: a little more).
    const rate = limiter.state().ratePerSecond;
    assert.ok(rate >= 38 && rate <= 44, String(rate));
  });
});

describe('records: the retry policy', () => {
  it('caps the wait a portal asks for, however long, and backs off with jitter without one', () => {
    const policy = retryPolicy({ maxRetryAfterMs: 300_000 });
    assert.equal(retryWaitMs(policy, 1, 99_999_999_000), 300_000);
    assert.equal(retryWaitMs(policy, 1, 42_000), 42_000);
    assert.equal(retryWaitMs(policy, 1, Number.POSITIVE_INFINITY), 300_000);
    assert.equal(
      backoffMs(policy, 1, () => 0),
      125,
    );
    assert.equal(
      backoffMs(policy, 3, () => 1),
      1000,
    );
    assert.equal(
      backoffMs(policy, 20, () => 1),
      30_000,
      'capped at maxDelayMs',
    );
    assert.deepEqual(retryPolicy({ maxAttempts: 0 }).maxAttempts, 1);
  });

  it('sleep rejects with the reason when cancelled, and never fires a too-long timer at once', async () => {
    const controller = new AbortController();
    const long = sleep(2 ** 40, controller.signal);
    const raced = await Promise.race([long.then(() => 'fired'), new Promise((resolve) => setTimeout(() => resolve('waiting'), 30))]);
    assert.equal(raced, 'waiting');
    controller.abort();
    await assert.rejects(long, { name: 'AbortError' });
  });
});

/** Waits `ms` of the fake clock. */
function sleepOn(clock: FakeClock, ms: number): Promise<void> {
  return new Promise((resolve) => clock.setTimeout(resolve, ms));
}
