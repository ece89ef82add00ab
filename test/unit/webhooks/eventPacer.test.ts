// The pace of what webhook events make Portal Explorer do (each may read records with the user's token):
// events for one record coalesced while it waits or was just acted on, and at most so many records acted
// on per window, the rest queued (up to a bound) in order. A fake clock: nothing here waits.
import * as assert from 'node:assert/strict';
import { EventPacer } from '../../../src/webhooks/eventPacer';
import { FakeClock } from '../support/fakeClock';

describe('webhooks: the pace of acting on events', () => {
  let clock: FakeClock;
  let acted: string[];
  let dropped: number[];
  const pacer = (options: { perWindow?: number; windowMs?: number; cooldownMs?: number; maxWaiting?: number } = {}): EventPacer<string> =>
    new EventPacer<string>(
      { perWindow: 3, windowMs: 1000, cooldownMs: 1000, maxWaiting: 5, ...options },
      (_key, item) => acted.push(item),
      (count) => dropped.push(count),
      clock,
    );

  beforeEach(() => {
    clock = new FakeClock();
    acted = [];
    dropped = [];
  });

  it('acts on the first event of a record at once', () => {
    pacer().push('r1', 'r1 updated');
    assert.deepEqual(acted, ['r1 updated']);
  });

  it('coalesces the events of one record that arrive after it was acted on into one, the latest, after the cooldown', () => {
    const events = pacer();
    events.push('r1', 'r1 a');
    for (const name of ['r1 b', 'r1 c', 'r1 d']) events.push('r1', name);
    assert.deepEqual(acted, ['r1 a']);
    clock.advanceNow(999);
    assert.deepEqual(acted, ['r1 a']);
    clock.advanceNow(1);
    assert.deepEqual(acted, ['r1 a', 'r1 d'], 'one act for the three, with the latest');
    clock.advanceNow(5000);
    assert.equal(acted.length, 2);
  });

  it('acts on at most perWindow records per window, the rest in the order they came', () => {
    const events = pacer();
    for (const id of ['1', '2', '3', '4', '5']) events.push(id, `r${id}`);
    assert.deepEqual(acted, ['r1', 'r2', 'r3']);
    clock.advanceNow(1000);
    assert.deepEqual(acted, ['r1', 'r2', 'r3', 'r4', 'r5']);
  });

  it('keeps at most maxWaiting records waiting, dropping the newest beyond it and saying how many', () => {
    const events = pacer();
    for (let id = 1; id <= 20; id += 1) events.push(String(id), `r${id}`);
    assert.deepEqual(acted, ['r1', 'r2', 'r3']);
    clock.advanceNow(0);
    assert.deepEqual(dropped, [12], 'one word for the lot (20 - 3 acted - 5 waiting)');
    clock.advanceNow(60_000);
    assert.deepEqual(acted, ['r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7', 'r8']);
    events.push('1', 'r1 again');
    assert.deepEqual(acted.at(-1), 'r1 again', 'room again: acted on');
  });

  it('forgets everything waiting when disposed', () => {
    const events = pacer();
    for (const id of ['1', '2', '3', '4']) events.push(id, `r${id}`);
    events.dispose();
    clock.advanceNow(10_000);
    events.push('9', 'r9');
    assert.deepEqual(acted, ['r1', 'r2', 'r3']);
  });
});
