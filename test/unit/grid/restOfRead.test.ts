import * as assert from 'node:assert/strict';
import { REST_AFTER_MS, REST_AFTER_PAGE_MS, RestOfRead } from '../../../src/grid/model/restOfRead';
import { FakeClock } from '../support/fakeClock';

/** Whether `promise` has settled after the turns the clock gives. */
function settled(promise: Promise<void>): () => boolean {
  let done = false;
  // Not awaited: the test asks whether it has settled, at the moments it chooses.
  void promise.then(() => (done = true));
  return () => done;
}

/** The rest comes exactly `ms` after the first rows, no page having shown them (`page`: one is being made). */
async function restComesAfter(ms: number, page: boolean): Promise<void> {
  const clock = new FakeClock();
  const rest = new RestOfRead(clock);
  if (page) rest.pageOpened();
  rest.firstRowsCame();
  const done = settled(rest.wait());
  await clock.advance(ms - 1);
  assert.equal(done(), false);
  await clock.advance(1);
  assert.equal(done(), true);
}

describe('the rest of a view read, after the first rows are shown', () => {
  it('comes at once when a page has shown the first rows', async () => {
    const rest = new RestOfRead(new FakeClock());
    rest.firstRowsCame();
    rest.shown();
    await rest.wait();
  });

  it('comes when the page shows the first rows, not before', async () => {
    const clock = new FakeClock();
    const rest = new RestOfRead(clock);
    rest.firstRowsCame();
    const done = settled(rest.wait());
    await clock.advance(100);
    assert.equal(done(), false);
    rest.shown();
    await clock.advance(0);
    assert.equal(done(), true);
  });

  it('comes after REST_AFTER_MS when no page is being made (a document opened from a backup)', () => restComesAfter(REST_AFTER_MS, false));

  it('waits longer for a page being made, which VS Code may take seconds to start', async () => {
    const clock = new FakeClock();
    const rest = new RestOfRead(clock);
    rest.firstRowsCame();
    const done = settled(rest.wait());
    await clock.advance(50);
    rest.pageOpened();
    await clock.advance(REST_AFTER_MS * 2);
    assert.equal(done(), false, 'the rest did not start while the page was still starting');
    rest.shown();
    await clock.advance(0);
    assert.equal(done(), true);
  });

  it('takes the rest after REST_AFTER_PAGE_MS when the page never shows the rows', () => restComesAfter(REST_AFTER_PAGE_MS, true));

  it('ends the wait of a read given up for a newer one', async () => {
    const clock = new FakeClock();
    const rest = new RestOfRead(clock);
    rest.firstRowsCame();
    const older = settled(rest.wait());
    rest.firstRowsCame();
    const newer = settled(rest.wait());
    await clock.advance(0);
    assert.equal(older(), true);
    assert.equal(newer(), false);
    rest.end();
    await clock.advance(0);
    assert.equal(newer(), true);
  });
});
