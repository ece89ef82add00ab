// The one table of what a failed request says about the portal having carried it out (src/records/failures.ts).
import * as assert from 'node:assert/strict';
import { PortalError, type PortalErrorInit } from '../../../src/api/errors';
import { classifyFailure, mayHaveBeenDone, notTaken, type Verdict } from '../../../src/records/failures';

const error = (init: Omit<PortalErrorInit, 'message'>): PortalError => new PortalError({ message: 'Creating a record failed.', ...init });

const TABLE: Array<[string, unknown, Verdict]> = [
  ['429 (a rate limiter answers first)', error({ kind: 'http', status: 429, retryAfterMs: 1000 }), 'not-taken'],
  ['408 (the request did not arrive whole)', error({ kind: 'http', status: 408 }), 'not-taken'],
  ['a connection refused', error({ kind: 'network', code: 'ECONNREFUSED' }), 'not-taken'],
  ['a host name unknown', error({ kind: 'network', code: 'ENOTFOUND' }), 'not-taken'],
  ['a connect that timed out', error({ kind: 'network', code: 'UND_ERR_CONNECT_TIMEOUT' }), 'not-taken'],
  ['503 without Retry-After', error({ kind: 'http', status: 503 }), 'may-have-been-done'],
  ['503 with Retry-After', error({ kind: 'http', status: 503, retryAfterMs: 2000 }), 'may-have-been-done'],
  ['500', error({ kind: 'http', status: 500 }), 'may-have-been-done'],
  ['502', error({ kind: 'http', status: 502 }), 'may-have-been-done'],
  ['504', error({ kind: 'http', status: 504 }), 'may-have-been-done'],
  ['a connection dropped', error({ kind: 'network', code: 'ECONNRESET' }), 'may-have-been-done'],
  ['a network failure without a code', error({ kind: 'network' }), 'may-have-been-done'],
  ['a time-out', error({ kind: 'timeout' }), 'may-have-been-done'],
  ['an unreadable 2xx', error({ kind: 'invalid-response' }), 'taken'],
  ['400', error({ kind: 'http', status: 400 }), 'refused'],
  ['401 (sign-in expired)', error({ kind: 'http', status: 401 }), 'refused'],
  ['403', error({ kind: 'http', status: 403 }), 'refused'],
  ['404 (a view deleted)', error({ kind: 'http', status: 404 }), 'refused'],
  ['409', error({ kind: 'http', status: 409 }), 'refused'],
  ['302', error({ kind: 'http', status: 302 }), 'refused'],
  ['a value refused before sending', error({ kind: 'invalid-input' }), 'refused'],
  ['an error of our own', new Error('bug'), 'refused'],
  ['a cancel', error({ kind: 'cancelled' }), 'cancelled'],
  ['an AbortError', Object.assign(new Error('aborted'), { name: 'AbortError' }), 'cancelled'],
];

describe('the one failure classification', () => {
  for (const [what, failure, verdict] of TABLE) {
    it(`${what}: ${verdict}`, () => {
      assert.equal(classifyFailure(failure).verdict, verdict);
      assert.equal(mayHaveBeenDone(failure), verdict === 'may-have-been-done' || verdict === 'taken');
      assert.equal(notTaken(failure), verdict === 'not-taken');
    });
  }

  it("keeps the wait the portal asked for, and the portal's own message", () => {
    const failure = classifyFailure(
      new PortalError({ kind: 'http', status: 503, message: 'Creating failed (HTTP 503).', portalMessage: 'Busy', retryAfterMs: 2000 }),
    );
    assert.deepEqual(failure, { verdict: 'may-have-been-done', reason: 'Busy', status: 503, waitMs: 2000 });
  });
});
