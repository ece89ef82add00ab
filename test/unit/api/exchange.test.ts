// A request's time limit, kept for every request under way on one timer (src/api/exchange.ts): each
// exchange still stops at its own limit, an ended one never does, and no timer stays once none is under way.
import * as assert from 'node:assert/strict';
import { setTimeout as wait } from 'node:timers/promises';
import { Exchange } from '../../../src/api/exchange';

function timers(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
}

/** The moment (ms since `started`) the exchange was stopped, once it is. */
function stoppedAt(exchange: Exchange, started: number): Promise<number> {
  return new Promise((resolve) => {
    exchange.onStop = () => resolve(performance.now() - started);
  });
}

describe('api: time limits of the requests under way', () => {
  it('stops a request with a short limit on time among requests with long ones, and only it', async () => {
    await Promise.resolve(); // mocha's own time limit for the test starts once the test awaits
    const before = timers();
    const started = performance.now();
    const long = [new Exchange(undefined, 30_000), new Exchange(undefined, 30_000)];
    const short = new Exchange(undefined, 80);
    const later = new Exchange(undefined, 30_000);
    const shortStop = await stoppedAt(short, started);
    assert.ok(shortStop >= 79 && shortStop < 1000, `stopped after ${shortStop.toFixed(0)} ms, not about 80`);
    assert.equal(short.timedOut, true);
    assert.equal(short.reason?.name, 'AbortError');
    for (const exchange of [...long, later]) assert.equal(exchange.timedOut, false, 'a long limit is not reached');
    short.end();
    for (const exchange of [...long, later]) exchange.end();
    assert.equal(timers(), before, 'no timer once no request is under way');
  });

  it('never stops a request that ended, and stops the next one at its own limit', async () => {
    const started = performance.now();
    const ended = new Exchange(undefined, 40);
    ended.end();
    const next = new Exchange(undefined, 300);
    await wait(80);
    assert.equal(ended.timedOut, false, 'an ended request is not stopped');
    assert.equal(next.timedOut, false, 'not yet at its limit');
    const stop = await stoppedAt(next, started);
    assert.ok(stop >= 299, `stopped after ${stop.toFixed(0)} ms, before its limit of 300`);
    next.end();
  });

  it('restarts the limit when a streamed body brings its next piece', async () => {
    const started = performance.now();
    const exchange = new Exchange(undefined, 300);
    const stopped = stoppedAt(exchange, started);
    await wait(200);
    const piece = performance.now() - started;
    exchange.rearm();
    await wait(200);
    assert.equal(exchange.timedOut, false, 'past the first limit, but within the limit since the new piece');
    const stop = await stopped;
    assert.ok(stop >= piece + 299, `stopped after ${stop.toFixed(0)} ms, before 300 ms after the last piece (at ${piece.toFixed(0)})`);
    exchange.end();
  });
});
