// An open grid gathers the records an import or a bulk change announces one by one and reads its view
// once the burst is over: one hand-over per burst, and none while one runs.
import * as assert from 'node:assert/strict';
import { QuietBatch } from '../../../src/grid/model/quietBatch';

const later = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('grid: a burst of record changes', () => {
  it('is handed over once, after it has been quiet', async () => {
    const batches: string[][] = [];
    const batch = new QuietBatch(30, (keys) => {
      batches.push([...keys]);
      return Promise.resolve();
    });
    for (let index = 0; index < 1000; index += 1) batch.add(String(index % 500));
    assert.equal(batches.length, 0, 'nothing while the burst goes on');
    await later(80);
    assert.equal(batches.length, 1);
    assert.equal(batches[0].length, 500, 'each key once');
    batch.dispose();
  });

  it('keys that come while a hand-over runs wait for it, then go together', async () => {
    const batches: string[][] = [];
    let release = (): void => undefined;
    let running = 0;
    let most = 0;
    const batch = new QuietBatch(10, async (keys) => {
      running += 1;
      most = Math.max(most, running);
      batches.push([...keys]);
      if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
      running -= 1;
    });
    batch.add('a');
    await later(30);
    batch.add('b');
    batch.add('c');
    await later(30);
    assert.deepEqual(batches, [['a']], 'b and c wait for the first hand-over');
    release();
    await later(30);
    assert.deepEqual(batches, [['a'], ['b', 'c']]);
    assert.equal(most, 1, 'one at a time');
    batch.dispose();
  });

  it('hands nothing over once disposed', async () => {
    const batches: string[][] = [];
    const batch = new QuietBatch(10, (keys) => {
      batches.push([...keys]);
      return Promise.resolve();
    });
    batch.add('a');
    batch.dispose();
    await later(30);
    assert.deepEqual(batches, []);
  });
});
