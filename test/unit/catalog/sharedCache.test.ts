import * as assert from 'node:assert/strict';
import { isCancellation } from '../../../src/api/errors';
import { SharedCache } from '../../../src/catalog/sharedCache';

/** A load that waits until released, counting calls and recording the signal it got. */
function gate<V>(value: V) {
  const calls: AbortSignal[] = [];
  let release: () => void = () => undefined;
  let fail: (error: Error) => void = () => undefined;
  const load = (signal: AbortSignal): Promise<V> => {
    calls.push(signal);
    return new Promise<V>((resolve, reject) => {
      release = () => resolve(value);
      fail = reject;
    });
  };
  return { load, calls, release: () => release(), fail: (error: Error) => fail(error) };
}

describe('the shared cache of the catalog', () => {
  it('shares one fetch among concurrent callers and keeps its value', async () => {
    const cache = new SharedCache<string>();
    const { load, calls, release } = gate('sites');
    const first = cache.get('p', load);
    const second = cache.get('p', load);
    release();
    assert.deepEqual(await Promise.all([first, second]), ['sites', 'sites']);
    assert.equal(await cache.get('p', load), 'sites');
    assert.equal(calls.length, 1);
  });

  it('does not keep a failure', async () => {
    const cache = new SharedCache<string>();
    const failing = gate('x');
    const attempt = cache.get('p', failing.load);
    failing.fail(new Error('HTTP 500'));
    await assert.rejects(attempt, /HTTP 500/);
    const again = gate('second time');
    const retried = cache.get('p', again.load);
    again.release();
    assert.equal(await retried, 'second time');
  });

  it('aborts the fetch only when every caller gave up', async () => {
    const cache = new SharedCache<string>();
    const { load, calls, release } = gate('v');
    const one = new AbortController();
    const two = new AbortController();
    const first = cache.get('p', load, one.signal);
    const second = cache.get('p', load, two.signal);
    one.abort();
    await assert.rejects(first, (error) => isCancellation(error));
    assert.equal(calls[0].aborted, false, 'the other caller still waits');
    two.abort();
    await assert.rejects(second, (error) => isCancellation(error));
    assert.equal(calls[0].aborted, true);
    release();
    assert.equal(cache.has('p'), false, 'an abandoned fetch is not kept');
  });

  it('never aborts a fetch that a caller without a signal waits for', async () => {
    const cache = new SharedCache<string>();
    const { load, calls, release } = gate('v');
    const controller = new AbortController();
    const withSignal = cache.get('p', load, controller.signal);
    const pinned = cache.get('p', load);
    controller.abort();
    await assert.rejects(withSignal, (error) => isCancellation(error));
    release();
    assert.equal(await pinned, 'v');
    assert.equal(calls[0].aborted, false);
  });

  it('does not keep what a fetch brought after it was dropped', async () => {
    const cache = new SharedCache<string>();
    const stale = gate('old');
    const pending = cache.get('p', stale.load);
    assert.deepEqual(
      cache.drop((key) => key === 'p'),
      ['p'],
    );
    stale.release();
    assert.equal(await pending, 'old');
    assert.equal(cache.has('p'), false);
  });
});
