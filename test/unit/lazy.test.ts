import * as assert from 'node:assert/strict';
import { Lazy } from '../../src/lazy';

describe('Lazy', () => {
  it('builds nothing until asked, then once for every caller', async () => {
    let builds = 0;
    const lazy = new Lazy(async () => {
      builds += 1;
      return { built: builds };
    });
    assert.equal(builds, 0);
    assert.equal(lazy.peek(), undefined);
    const [first, second] = await Promise.all([lazy.get(), lazy.get()]);
    assert.equal(builds, 1);
    assert.equal(first, second);
    assert.equal(lazy.peek(), first);
    assert.equal(await lazy.get(), first);
  });

  it('tells its listeners before any caller of get() hears of the value', async () => {
    const lazy = new Lazy(async () => 'built');
    const heard: string[] = [];
    lazy.onLoad((value) => heard.push(`listener: ${value}`));
    const got = lazy.get().then((value) => heard.push(`caller: ${value}`));
    assert.equal(heard.length, 0, 'not before it is built');
    await got;
    lazy.onLoad((value) => heard.push(`late listener: ${value}`));
    assert.deepEqual(heard, ['listener: built', 'caller: built', 'late listener: built']);
  });

  it('keeps a failed build failed, for every caller', async () => {
    let builds = 0;
    const lazy = new Lazy<string>(async () => {
      builds += 1;
      throw new Error('cannot build');
    });
    await assert.rejects(lazy.get(), /cannot build/);
    await assert.rejects(lazy.get(), /cannot build/);
    assert.equal(builds, 1);
    assert.equal(lazy.peek(), undefined);
  });
});
