// How many requests one portal gets at once, shared by everything that talks to it (imports, bulk changes,
// the grid's and board's saves, watched reads, hovers): an AIMD limiter, as TCP's congestion window and
// the well-known concurrency-limit libraries (Netflix's concurrency-limits, its "AIMD" and "Gradient").
// Written here rather than taken from npm: the JavaScript ones found limit a fixed number (p-limit) or
// pace a fixed rate (bottleneck), and none both adapts and holds one pause for Retry-After; what we need
// is this page.
//
// - Grows by about one request in flight per round of answers while the answers stay about as fast as the
//   fastest lately (the portal's distance) and none is refused, up to `maxInFlight` (a setting).
// - Halves at once on a 429 or 503, and takes a fifth off when round trips stretch to twice the fastest
//   (the portal queues us: more in flight would only wait longer there); at most once per round trip, so
//   one burst of refusals counts once.
// - Near the window at which the portal last refused, it creeps (one more per PROBE_ROUNDS rounds), as
//   TCP's congestion avoidance above its threshold, while the portal refused lately (LIMITED_FOR_MS:
//   after that a limit that rose, or a refusal met at a window too small to tell, is outgrown at full
//   speed). Against a rate limit each overshoot is a burst of 429s and a Retry-After pause of the whole
//   portal, and a portal may hold a client that keeps running into its limit against it (the far rows
//   of test/bench/farSave.bench.ts count the 429s).
// - A Retry-After pauses every request to the portal (none starts until it ends), capped like the retries'.
// - Interactive first: a request of the user's (a hover, Open Record, a tree's rows) takes the next permit
//   free before any job's request waiting (`bulk`, the gate a job's client passes), so that while an import
//   keeps the whole window busy it waits for one answer, not for the job's queue. Within the window: it
//   takes a job's turn, so the portal sees no more than it allows.
import type { RequestAnswer, RequestGate, RequestPermit } from '../api/gate';
import { systemClock, type Clock } from './clock';
import { DEFAULT_RETRY_POLICY } from './retry';

export interface LimiterOptions {
  /** The most requests in flight at once (the setting portalExplorer.maxRequestsInFlight); default 32. */
  readonly maxInFlight?: number;
  /** Where it starts; default 4 (what the jobs used before it adapted). */
  readonly initialInFlight?: number;
  /** The longest Retry-After obeyed (the retries' cap). */
  readonly maxRetryAfterMs?: number;
  readonly clock?: Clock;
}

export interface LimiterState {
  readonly inFlight: number;
  /** Requests allowed in flight now (whole). */
  readonly limit: number;
  /** Answers per second over the last few seconds. */
  readonly ratePerSecond: number;
  /** Whether the portal pushed back (429, 503) lately: the rate is then about what it allows. */
  readonly limited: boolean;
  /** How long every request still waits because the portal asked to (0: no pause). */
  readonly pausedMs: number;
  /** 429s and 503s met since the limiter was made. */
  readonly pushBacks: number;
}

const MIN_IN_FLIGHT = 1;
/** A round trip this many times the fastest lately means the portal (or the way to it) is queueing us. */
const STRETCHED = 2;
/** Below this, a longer round trip is the machine's noise, not the portal's queue (a portal next door). */
const STRETCH_SLACK_MS = 20;
const ROUND_TRIPS_KEPT = 64;
/** Below this share of the window refused, it grows by one a round as before. */
const NEAR_REFUSED = 0.9;
/** From there to the window refused, one more per this many rounds. */
const PROBE_ROUNDS = 8;
const RATE_WINDOW_MS = 5_000;
/** How long after a push-back the rate is reported as the portal's limit, and growth creeps near the window refused. */
const LIMITED_FOR_MS = 10_000;

interface Waiter {
  resolve: (permit: RequestPermit) => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

export class PortalLimiter implements RequestGate {
  readonly maxInFlight: number;
  /** The gate of the many-request jobs' clients (import, bulk changes, saves, watched reads): served after the interactive requests waiting. */
  readonly bulk: RequestGate = { acquire: (signal) => this.request(this.bulkWaiting, signal) };
  private readonly maxRetryAfterMs: number;
  private readonly clock: Clock;
  private window: number;
  private inFlight = 0;
  /** Interactive requests waiting (acquire), then the jobs' (bulk), each first come first served. */
  private readonly waiting: Waiter[] = [];
  private readonly bulkWaiting: Waiter[] = [];
  private pausedUntil = 0;
  private pauseTimer: unknown;
  private readonly pauseWaiters = new Set<() => void>();
  private readonly roundTrips: number[] = [];
  private fastest = Number.POSITIVE_INFINITY;
  private lastCutAt = Number.NEGATIVE_INFINITY;
  private lastPushBackAt = Number.NEGATIVE_INFINITY;
  /** The window when the portal last refused (429, 503): growth creeps from NEAR_REFUSED of it (while limited). */
  private refusedAt = Number.POSITIVE_INFINITY;
  private pushBacks = 0;
  /** When the window was last full (a grant filled it, or a request had to queue). */
  private fullAt = Number.NEGATIVE_INFINITY;
  /** When recent answers came, oldest first from `answersHead`. */
  private readonly answers: number[] = [];
  private answersHead = 0;

  constructor(options: LimiterOptions = {}) {
    this.maxInFlight = Math.max(MIN_IN_FLIGHT, Math.floor(options.maxInFlight ?? 32));
    this.window = Math.min(this.maxInFlight, Math.max(MIN_IN_FLIGHT, options.initialInFlight ?? 4));
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? DEFAULT_RETRY_POLICY.maxRetryAfterMs;
    this.clock = options.clock ?? systemClock;
  }

  /** An interactive request's permit (see `bulk` for a job's). */
  acquire(signal?: AbortSignal): RequestPermit | Promise<RequestPermit> {
    return this.request(this.waiting, signal);
  }

  private request(queue: Waiter[], signal: AbortSignal | undefined): RequestPermit | Promise<RequestPermit> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    // An interactive request passes the jobs' queue; a job's waits behind both.
    if (this.waiting.length === 0 && (queue === this.waiting || this.bulkWaiting.length === 0) && this.free()) return this.grant();
    return new Promise<RequestPermit>((resolve, reject) => {
      this.fullAt = this.clock.now();
      const waiter: Waiter = { resolve, reject, signal, onAbort: undefined };
      if (signal) {
        waiter.onAbort = () => {
          const index = queue.indexOf(waiter);
          if (index >= 0) queue.splice(index, 1);
          reject(signal.reason);
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      queue.push(waiter);
      this.schedulePauseEnd();
    });
  }

  /** Holds every request until `ms` from now (a Retry-After), capped; a shorter pause never shortens a longer one. */
  pause(ms: number): void {
    const wait = Math.min(Math.max(0, Number.isFinite(ms) ? ms : this.maxRetryAfterMs), this.maxRetryAfterMs);
    this.pausedUntil = Math.max(this.pausedUntil, this.clock.now() + wait);
    this.schedulePauseEnd();
  }

  /** Resolves once no pause holds the portal (at once when none does); rejects when `signal` aborts first. */
  whenOpen(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.pausedMs() === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const abort = (): void => {
        this.pauseWaiters.delete(done);
        reject(signal?.reason);
      };
      const done = (): void => {
        signal?.removeEventListener('abort', abort);
        resolve();
      };
      this.pauseWaiters.add(done);
      signal?.addEventListener('abort', abort, { once: true });
      this.schedulePauseEnd();
    });
  }

  pausedMs(): number {
    return Math.max(0, this.pausedUntil - this.clock.now());
  }

  state(): LimiterState {
    const now = this.clock.now();
    this.forgetAnswersBefore(now - RATE_WINDOW_MS);
    const counted = this.answers.length - this.answersHead;
    const oldest = counted > 0 ? this.answers[this.answersHead] : now;
    const span = Math.max(1_000, Math.min(RATE_WINDOW_MS, now - oldest));
    return {
      inFlight: this.inFlight,
      limit: Math.floor(this.window),
      ratePerSecond: (counted * 1000) / span,
      limited: now - this.lastPushBackAt < LIMITED_FOR_MS,
      pausedMs: this.pausedMs(),
      pushBacks: this.pushBacks,
    };
  }

  private free(): boolean {
    return this.inFlight < Math.floor(this.window) && this.pausedUntil <= this.clock.now();
  }

  private grant(): RequestPermit {
    this.inFlight += 1;
    const startedAt = this.clock.now();
    if (this.inFlight >= Math.floor(this.window)) this.fullAt = startedAt;
    let released = false;
    return {
      release: (answer) => {
        if (released) return;
        released = true;
        this.inFlight -= 1;
        this.learn(answer, startedAt);
        this.drain();
      },
    };
  }

  private learn(answer: RequestAnswer, startedAt: number): void {
    const now = this.clock.now();
    if (answer.status === 429 || answer.status === 503) {
      this.pushBacks += 1;
      this.lastPushBackAt = now;
      if (answer.retryAfterMs !== undefined) this.pause(answer.retryAfterMs);
      this.cut(now, 0.5, true);
      return;
    }
    if (answer.status === undefined) return; // no answer: says nothing of the portal's pace
    this.noteAnswer(now);
    const roundTrip = answer.roundTripMs;
    if (roundTrip === undefined) return;
    this.roundTrips.push(roundTrip);
    if (this.roundTrips.length > ROUND_TRIPS_KEPT) {
      const dropped = this.roundTrips.shift();
      if (dropped === this.fastest) this.fastest = Math.min(...this.roundTrips);
    }
    this.fastest = Math.min(this.fastest, roundTrip);
    if (roundTrip > this.fastest * STRETCHED + STRETCH_SLACK_MS) this.cut(now, 0.8, false);
    // Grows only while the window is used (full at some time of this request): a job that keeps 3 in
    // flight says nothing of whether 30 would do.
    else if (this.fullAt >= startedAt) {
      if (now - this.lastPushBackAt >= LIMITED_FOR_MS) this.refusedAt = Number.POSITIVE_INFINITY;
      const step = this.window < this.refusedAt * NEAR_REFUSED ? 1 / this.window : 1 / (this.window * PROBE_ROUNDS);
      this.window = Math.min(this.maxInFlight, this.window + step);
    }
  }

  /** Shrinks the window, once per round trip (the answers of one round all tell of the same moment). */
  private cut(now: number, factor: number, refused: boolean): void {
    // Before any round trip is known, the answers of one moment still count once.
    const round = Number.isFinite(this.fastest) ? Math.max(this.fastest, 1) : 1;
    if (now - this.lastCutAt < round) return;
    this.lastCutAt = now;
    if (refused) this.refusedAt = this.window;
    this.window = Math.max(MIN_IN_FLIGHT, this.window * factor);
  }

  private noteAnswer(now: number): void {
    this.answers.push(now);
    if (this.answersHead > 1024 && this.answersHead * 2 > this.answers.length) {
      this.answers.splice(0, this.answersHead);
      this.answersHead = 0;
    }
  }

  private forgetAnswersBefore(time: number): void {
    while (this.answersHead < this.answers.length && this.answers[this.answersHead] < time) this.answersHead += 1;
  }

  private drain(): void {
    while (this.free()) {
      const waiter = this.waiting.shift() ?? this.bulkWaiting.shift();
      if (!waiter) break;
      if (waiter.onAbort) waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.resolve(this.grant());
    }
    this.schedulePauseEnd();
  }

  /** A timer for the end of the pause, while anyone waits for it. */
  private schedulePauseEnd(): void {
    const left = this.pausedMs();
    if (left === 0) {
      for (const done of [...this.pauseWaiters]) done();
      this.pauseWaiters.clear();
      return;
    }
    if (this.pauseTimer !== undefined || (this.waiting.length === 0 && this.bulkWaiting.length === 0 && this.pauseWaiters.size === 0))
      return;
    this.pauseTimer = this.clock.setTimeout(() => {
      this.pauseTimer = undefined;
      this.drain();
    }, left);
  }
}
