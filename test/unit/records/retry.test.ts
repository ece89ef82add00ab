// The one retry loop of the many-request jobs (records/retry.ts withRetries): which failures it sends again,
// how long it waits, and that the portal's pause is the portal's (every request waits for it).
import * as assert from 'node:assert/strict';
import { PortalError, type PortalErrorInit } from '../../../src/api/errors';
import { PortalLimiter } from '../../../src/records/limiter';
import { retryPolicy, WaitTooLong, withRetries, type Retrying } from '../../../src/records/retry';

const failure = (init: Omit<PortalErrorInit, 'message'>): PortalError => new PortalError({ message: 'Reading record 1 failed.', ...init });

/** A run that fails with `errors` in turn, then answers 'done'; its attempts. */
function failing(...errors: unknown[]): { run: (attempt: number) => Promise<string>; attempts: number[] } {
  const attempts: number[] = [];
  return {
    attempts,
    run: async (attempt) => {
      attempts.push(attempt);
      const error = errors.shift();
      if (error !== undefined) throw error;
      return 'done';
    },
  };
}

function retrying(overrides: Partial<Retrying> = {}): Retrying {
  return { policy: retryPolicy({ maxAttempts: 4 }), pace: new PortalLimiter(), backoffMs: () => 1, ...overrides };
}

describe('records: retrying a request', () => {
  it('sends again what was not taken and what may have been done, not what was refused', async () => {
    const sent = failing(failure({ kind: 'http', status: 429 }), failure({ kind: 'http', status: 503 }), failure({ kind: 'timeout' }));
    assert.equal(await withRetries(sent.run, retrying()), 'done');
    assert.deepEqual(sent.attempts, [1, 2, 3, 4]);
    const refused = failing(failure({ kind: 'http', status: 400 }));
    await assert.rejects(withRetries(refused.run, retrying()), /Reading record 1 failed/);
    assert.deepEqual(refused.attempts, [1]);
  });

  it('gives up once the attempts are spent, with the last failure', async () => {
    const busy = failing(...Array.from({ length: 5 }, (_, index) => failure({ kind: 'http', status: 500 + index })));
    await assert.rejects(withRetries(busy.run, retrying()), (error: PortalError) => error.status === 503);
    assert.deepEqual(busy.attempts, [1, 2, 3, 4]);
  });

  it('a caller narrows what is sent again (a create: only what was not taken)', async () => {
    const create = failing(failure({ kind: 'http', status: 429 }), failure({ kind: 'http', status: 502 }));
    await assert.rejects(
      withRetries(create.run, retrying(), (verdict) => verdict.verdict === 'not-taken'),
      (error: PortalError) => error.status === 502,
    );
    assert.deepEqual(create.attempts, [1, 2]);
  });

  it("a Retry-After pauses every request to the portal, a 503's too", async () => {
    for (const status of [429, 503]) {
      const pace = new PortalLimiter();
      const limited = failing(failure({ kind: 'http', status, retryAfterMs: 150 }));
      const started = Date.now();
      const retried = withRetries(limited.run, retrying({ pace }));
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.ok(pace.pausedMs() > 50, `${status}: another job on the portal waits too (${pace.pausedMs()} ms left)`);
      assert.equal(await retried, 'done');
      assert.ok(Date.now() - started >= 140, `${status}: waited ${Date.now() - started} ms`);
    }
  });

  it('fails at once when the portal asks to wait longer than the job waits, saying how long', async () => {
    const limited = failing(failure({ kind: 'http', status: 429, retryAfterMs: 120_000 }));
    await assert.rejects(withRetries(limited.run, retrying({ failBeyondMs: 60_000 })), (error: unknown) => {
      assert.ok(error instanceof WaitTooLong);
      assert.equal(error.waitMs, 120_000);
      assert.match(error.message, /HTTP|Reading record 1 failed\. The portal asked to wait 120 s\./);
      return true;
    });
    assert.deepEqual(limited.attempts, [1]);
  });

  it('a cancel ends the wait between attempts, with its reason', async () => {
    const controller = new AbortController();
    const slow = failing(failure({ kind: 'http', status: 500 }));
    const retried = withRetries(slow.run, retrying({ signal: controller.signal, backoffMs: () => 60_000 }));
    setTimeout(() => controller.abort(new Error('Cancelled by the person')), 10);
    await assert.rejects(retried, /Cancelled by the person/);
    assert.deepEqual(slow.attempts, [1]);
  });
});
