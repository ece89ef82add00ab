// When watched views are read, on a fake clock: at the interval, never twice at once, not while the window
// has no focus, later after failures and not before a 429's Retry-After ends, and not for an app whose
// webhook events arrive.
import * as assert from 'node:assert/strict';
import { PortalError } from '../../../src/api/errors';
import { PollScheduler, WEBHOOK_QUIET_INTERVALS, type PollTarget } from '../../../src/watch/scheduler';
import { FakeClock } from '../support/fakeClock';

const INTERVAL = 60_000;
const view: PollTarget = { key: 'p/a/v', portalId: 'p', appId: 'a' };

function setup(read?: (target: PollTarget, signal: AbortSignal) => Promise<void>, focused = true) {
  const clock = new FakeClock(5);
  const reads: number[] = [];
  let paused = 0;
  const failures: number[] = [];
  const scheduler = new PollScheduler(
    {
      intervalMs: () => INTERVAL,
      read: async (target, signal) => {
        reads.push(clock.now());
        await read?.(target, signal);
      },
      pausedMs: () => Math.max(0, paused - clock.now()),
      failed: (_target, _error, _count, next) => failures.push(next),
      clock,
      random: () => 1,
    },
    focused,
  );
  return { clock, reads, scheduler, failures, pauseUntil: (at: number) => (paused = at) };
}

describe('watch: the poll scheduler', () => {
  it('reads at once when watched, then every interval, until unwatched', async () => {
    const { clock, reads, scheduler } = setup();
    scheduler.watch(view);
    await clock.advance(3 * INTERVAL);
    assert.deepEqual(reads, [0, INTERVAL, 2 * INTERVAL, 3 * INTERVAL]);
    scheduler.unwatch(view.key);
    await clock.advance(3 * INTERVAL);
    assert.equal(reads.length, 4);
  });

  it('never runs two reads of one view at once', async () => {
    let finish: () => void = () => undefined;
    const { clock, reads, scheduler } = setup(() => new Promise<void>((resolve) => (finish = resolve)));
    scheduler.watch(view);
    await clock.advance(5 * INTERVAL);
    const asked = scheduler.readNow(view.key);
    assert.equal(reads.length, 1, 'the read under way is waited for, none starts beside it');
    finish();
    await asked;
    await clock.advance(INTERVAL);
    assert.equal(reads.length, 2, 'the next read comes one interval after the slow one ended');
  });

  it('waits while the window has no focus and reads what fell due once it comes back', async () => {
    const { clock, reads, scheduler } = setup();
    scheduler.watch(view);
    await clock.advance(0);
    scheduler.setFocused(false);
    await clock.advance(10 * INTERVAL);
    assert.equal(reads.length, 1);
    scheduler.setFocused(true);
    await clock.advance(0);
    assert.deepEqual(reads, [0, 10 * INTERVAL]);
  });

  it('does not read before focus when watched without it', async () => {
    const { clock, reads, scheduler } = setup(undefined, false);
    scheduler.watch(view);
    await clock.advance(INTERVAL);
    assert.equal(reads.length, 0);
    scheduler.setFocused(true);
    await clock.advance(0);
    assert.equal(reads.length, 1);
  });

  it('backs off after failures, doubling up to a cap, and returns to the interval after a success', async () => {
    let fail = true;
    const { clock, reads, scheduler, failures } = setup(async () => {
      if (fail) throw new PortalError({ kind: 'network', message: 'down' });
    });
    scheduler.watch(view);
    await clock.advance(0);
    await clock.advance(2 * INTERVAL);
    await clock.advance(4 * INTERVAL);
    assert.deepEqual(failures, [2 * INTERVAL, 4 * INTERVAL, 8 * INTERVAL]);
    assert.deepEqual(reads, [0, 2 * INTERVAL, 6 * INTERVAL]);
    fail = false;
    await clock.advance(8 * INTERVAL);
    await clock.advance(INTERVAL);
    assert.deepEqual(reads.slice(3), [14 * INTERVAL, 15 * INTERVAL]);
  });

  it("after a 429 waits for the Retry-After and the limiter's pause, whichever is longer", async () => {
    let refuse = true;
    const harness = setup(async () => {
      if (!refuse) return;
      refuse = false;
      harness.pauseUntil(harness.clock.now() + 30 * INTERVAL);
      throw new PortalError({ kind: 'http', status: 429, message: 'Too many requests', retryAfterMs: 20 * INTERVAL });
    });
    const { clock, reads, scheduler, failures } = harness;
    scheduler.watch(view);
    await clock.advance(0);
    assert.deepEqual(failures, [30 * INTERVAL]);
    await clock.advance(29 * INTERVAL);
    assert.equal(reads.length, 1);
    await clock.advance(INTERVAL);
    assert.deepEqual(reads, [0, 30 * INTERVAL]);
  });

  it('defers a read due while the limiter holds the portal', async () => {
    const { clock, reads, scheduler, pauseUntil } = setup();
    scheduler.watch(view);
    await clock.advance(0);
    pauseUntil(INTERVAL + 5_000);
    await clock.advance(INTERVAL);
    assert.equal(reads.length, 1);
    await clock.advance(5_000);
    assert.deepEqual(reads, [0, INTERVAL + 5_000]);
  });

  it('leaves an app whose webhook events arrive to them, and resumes once they stay away', async () => {
    const { clock, reads, scheduler } = setup();
    const other: PollTarget = { key: 'p/b/v', portalId: 'p', appId: 'b' };
    const mine: PollTarget = { key: 'p/me', portalId: 'p', appId: undefined };
    scheduler.watch(view);
    scheduler.watch(other);
    scheduler.watch(mine);
    await clock.advance(0);
    scheduler.webhookArrived('p', 'a');
    await clock.advance(WEBHOOK_QUIET_INTERVALS * INTERVAL - 1);
    // 3 reads at 0, then the other app's and My Records' reads at each interval; none of app a.
    assert.equal(reads.length, 3 + 2 * (WEBHOOK_QUIET_INTERVALS - 1));
    await clock.advance(1);
    // At three intervals, the three are read again (app a's view too: no event came for three intervals).
    assert.equal(reads.length, 3 + 2 * (WEBHOOK_QUIET_INTERVALS - 1) + 3, "app a's view is read again");
  });

  it('cancels the read under way when unwatched, and reports no failure for it', async () => {
    const { clock, scheduler, failures } = setup(
      (_target, signal) => new Promise<void>((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
    );
    scheduler.watch(view);
    await clock.advance(0);
    assert.equal(scheduler.isReading(view.key), true);
    scheduler.unwatch(view.key);
    await clock.advance(INTERVAL);
    assert.deepEqual(failures, []);
  });
});
