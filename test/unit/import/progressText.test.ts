// What the progress notification of an import or bulk change says: the count (of the total), the rate and
// the time left, each only once it is known, in words and numbers a person reads at a glance.
import * as assert from 'node:assert/strict';
import { bulkSummaryText, progressText } from '../../../src/import/report';
import type { RunProgress } from '../../../src/import/runner';

const counts = { created: 0, updated: 0, unchanged: 0, deleted: 0, failed: 0, uncertain: 0 };
const at = (progress: Partial<RunProgress>): string =>
  progressText({ done: 0, total: undefined, counts, ratePerSecond: 0, secondsLeft: undefined, ...progress });

describe('import: the progress text', () => {
  it('says the count of the total, the rate and the time left', () => {
    assert.equal(at({ done: 120, total: 2000, ratePerSecond: 45.4, secondsLeft: 41.8 }), '120 of 2,000 · 45 rows/s · about 42 s left');
    assert.equal(
      at({ done: 1234, total: 10000, ratePerSecond: 1523.6, secondsLeft: 5.75 }),
      '1,234 of 10,000 · 1,524 rows/s · about 6 s left',
    );
  });

  it('gives a slow rate with a decimal, and says nothing it does not know yet', () => {
    assert.equal(at({ done: 3, total: 50, ratePerSecond: 2.25, secondsLeft: 21 }), '3 of 50 · 2.3 rows/s · about 21 s left');
    assert.equal(at({ done: 0, total: 50 }), '0 of 50', 'no rate and no time left before the first row');
    assert.equal(at({ done: 7, ratePerSecond: 3 }), '7 · 3.0 rows/s', 'no total (still counting): no "of", no time left');
  });

  it('says when the portal pushes back: the wait it asked for, else the rate it allows', () => {
    assert.equal(
      at({ done: 120, total: 2000, ratePerSecond: 45.4, secondsLeft: 41.8, waitingSeconds: 42 }),
      '120 of 2,000 · 45 rows/s · about 42 s left · the portal asked to wait 42 s',
    );
    assert.equal(
      at({ done: 120, total: 2000, ratePerSecond: 40.2, secondsLeft: 47, limited: true, requestsPerSecond: 40.4 }),
      '120 of 2,000 · 40 rows/s · about 47 s left · the portal is limiting us to ~40 requests/s',
    );
    assert.equal(
      at({ done: 120, total: 2000, ratePerSecond: 40.2, secondsLeft: 47, limited: false, requestsPerSecond: 40.4 }),
      '120 of 2,000 · 40 rows/s · about 47 s left',
      'nothing while it does not',
    );
  });

  it('rounds the time left to seconds, minutes, or hours and minutes', () => {
    assert.match(at({ done: 1, total: 9, ratePerSecond: 20, secondsLeft: 0.2 }), /about 1 s left$/, 'never "0 s"');
    assert.match(at({ done: 1, total: 9, ratePerSecond: 20, secondsLeft: 59.4 }), /about 59 s left$/);
    assert.match(at({ done: 1, total: 9, ratePerSecond: 20, secondsLeft: 150 }), /about 3 min left$/);
    assert.match(at({ done: 1, total: 9, ratePerSecond: 20, secondsLeft: 3 * 3600 + 20 * 60 }), /about 3 h 20 min left$/);
    assert.match(at({ done: 1, total: 9, ratePerSecond: 20, secondsLeft: 7190 }), /about 2 h 0 min left$/, 'not "1 h 60 min"');
  });

  it('says no time left once every row is done', () => {
    assert.equal(at({ done: 50, total: 50, ratePerSecond: 12, secondsLeft: 0 }), '50 of 50 · 12 rows/s');
  });
});

describe('bulk change: the summary', () => {
  it('says only what happened, in the words of the change', () => {
    assert.equal(bulkSummaryText({ ...counts, updated: 3 }), '3 records updated');
    assert.equal(bulkSummaryText({ ...counts, deleted: 2 }), '2 records moved to trash');
    assert.equal(bulkSummaryText({ ...counts, updated: 1, unchanged: 2, failed: 1 }), '1 record updated, 2 unchanged, 1 failed');
    assert.equal(bulkSummaryText(counts), 'nothing changed');
  });
});
