// The one retry policy of the jobs that send many requests (import, bulk change, the grid's save): how
// many attempts a request gets, the wait between them, and how long a portal's Retry-After is obeyed;
// and the one sleep they wait with. Which failures are retried is the classification's business, not
// this file's: it only says how long to wait once a failure is to be retried.
import { classifyFailure, type Failure } from './failures';

export interface RetryPolicy {
  /** Attempts per request before it fails. */
  readonly maxAttempts: number;
  /** The first wait after a failure without Retry-After; it doubles per attempt up to maxDelayMs. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /**
   * The longest Retry-After obeyed. A portal may ask for days (`Retry-After: 99999999`), and a wait
   * above setTimeout's limit would fire at once and turn the retries into a hot loop; beyond the cap the
   * request is tried again after the cap, and fails as any other once its attempts are spent.
   */
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({
  maxAttempts: 8,
  baseDelayMs: 250,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 5 * 60_000,
});

/** The default policy with `overrides` (undefined keys keep the default). */
export function retryPolicy(overrides: Partial<RetryPolicy> = {}): RetryPolicy {
  const policy = { ...DEFAULT_RETRY_POLICY };
  for (const key of Object.keys(policy) as Array<keyof RetryPolicy>) {
    const value = overrides[key];
    if (value !== undefined && Number.isFinite(value) && value >= 0)
      policy[key] = key === 'maxAttempts' ? Math.max(1, Math.floor(value)) : value;
  }
  return Object.freeze(policy);
}

/**
 * The wait after the `attempt`th failure (1, 2, ...) without a Retry-After: doubling, capped, and
 * jittered over its upper half, so that workers refused at the same moment do not all come back together.
 */
export function backoffMs(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (Math.max(1, attempt) - 1)) * (0.5 + random() / 2);
}

/** The wait before the next attempt: what the portal asked for (up to the cap), else the backoff. */
export function retryWaitMs(policy: RetryPolicy, attempt: number, askedMs: number | undefined, random?: () => number): number {
  if (askedMs !== undefined && Number.isFinite(askedMs)) return Math.min(Math.max(0, askedMs), policy.maxRetryAfterMs);
  if (askedMs !== undefined) return policy.maxRetryAfterMs;
  return backoffMs(policy, attempt, random);
}

/** setTimeout's longest delay: above it Node fires the timer at once (TimeoutOverflowWarning). */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * Waits `ms`, or until `signal` aborts: then it rejects with the signal's reason (as node:timers/promises
 * does), so a cancelled wait never looks like one that ran its course.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const abort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', abort);
        resolve();
      },
      Math.min(LONGEST_TIMER_MS, Math.max(0, Number.isFinite(ms) ? ms : LONGEST_TIMER_MS)),
    );
    signal?.addEventListener('abort', abort, { once: true });
  });
}

/** Where the pause a portal asks for is kept: its limiter (PortalLimiter), shared by every request to it. */
export interface Pace {
  pause(ms: number): void;
  whenOpen(signal?: AbortSignal): Promise<void>;
}

/** How one job retries its requests: the policy, the portal's pause, its cancel. */
export interface Retrying {
  readonly policy: RetryPolicy;
  readonly pace: Pace;
  readonly signal?: AbortSignal;
  /** The wait after the `attempt`th failure without Retry-After; default backoffMs (tests shorten it). */
  readonly backoffMs?: (attempt: number) => number;
  /**
   * A Retry-After longer than this fails the request at once (WaitTooLong) instead of holding the job:
   * for a job a person watches (the grid's save), who is better told to come back later. Default: the
   * wait is obeyed up to the policy's cap.
   */
  readonly failBeyondMs?: number;
  /** Told when a failure pauses every request to the portal, for `ms` (a job's progress says it waits). */
  readonly onPause?: (ms: number) => void;
}

/** The portal asked to wait longer than the job waits (Retrying.failBeyondMs); `cause` is its answer. */
export class WaitTooLong extends Error {
  constructor(
    readonly waitMs: number,
    cause: unknown,
  ) {
    super(`${cause instanceof Error ? cause.message : String(cause)} The portal asked to wait ${Math.ceil(waitMs / 1000)} s.`, { cause });
  }
}

/** Retried by default: what the portal did not take, and what it may have done (the caller re-checks first). */
function retriedByDefault(failure: Failure): boolean {
  return failure.verdict === 'not-taken' || failure.verdict === 'may-have-been-done';
}

/**
 * Runs `run` (given the attempt, 1, 2, ...) until it resolves, its failure is not to be retried
 * (`retried`, by the classification), the job is cancelled or the attempts are spent; then its last
 * failure is thrown. Before each attempt it waits while the portal asked every request to (the pace);
 * between attempts, as long as the portal asked (up to the cap: a 429's or a 503's Retry-After pauses
 * every request to the portal), else the jittered backoff. What `run` does on an uncertain failure (look
 * before sending again) is its own business.
 */
export async function withRetries<T>(
  run: (attempt: number) => Promise<T>,
  retrying: Retrying,
  retried: (failure: Failure) => boolean = retriedByDefault,
): Promise<T> {
  const { policy, pace, signal } = retrying;
  for (let attempt = 1; ; attempt += 1) {
    await pace.whenOpen(signal);
    signal?.throwIfAborted();
    try {
      return await run(attempt);
    } catch (error) {
      const failure = classifyFailure(error);
      if (failure.verdict === 'cancelled' || signal?.aborted || attempt >= policy.maxAttempts || !retried(failure)) throw error;
      const asked = failure.waitMs;
      if (asked !== undefined && retrying.failBeyondMs !== undefined && asked > retrying.failBeyondMs) throw new WaitTooLong(asked, error);
      const wait =
        asked !== undefined ? retryWaitMs(policy, attempt, asked) : (retrying.backoffMs ?? ((n) => backoffMs(policy, n)))(attempt);
      // A 503 may have been done, yet its Retry-After is the portal's word on when to come back: kept too.
      if (failure.verdict === 'not-taken' || asked !== undefined) {
        pace.pause(wait);
        retrying.onPause?.(wait);
      }
      await sleep(wait, signal);
    }
  }
}
