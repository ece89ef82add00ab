// The pace at which webhook events are acted on. Each accepted event about a record makes this window
// read (the explorer's views, an open document, a deletion's check) with the user's token; a sender that
// may post anything (an unsigned portal, a flood of distinct ids) must not turn that into unlimited reads.
// So: an event for a record acted on within `cooldownMs` waits, and the events that come for it meanwhile
// become one (the latest); at most `perWindow` records are acted on per `windowMs`, the others wait in the
// order they came; at most `maxWaiting` records wait, and the events beyond are dropped, with one word
// for each lot. Pure (a clock is handed in): unit-tested in plain node.

export interface PacerClock {
  now(): number;
  /** Runs `run` after `ms`; the function returned cancels it. */
  schedule(run: () => void, ms: number): () => void;
}

export const REAL_CLOCK: PacerClock = {
  now: () => Date.now(),
  schedule: (run, ms) => {
    const timer = setTimeout(run, ms);
    return () => clearTimeout(timer);
  },
};

export interface PacerLimits {
  readonly perWindow: number;
  readonly windowMs: number;
  readonly cooldownMs: number;
  readonly maxWaiting: number;
}

/**
 * The receiver's pace: a burst of 20 records at once (an import's echoes of a few rows, a bulk change
 * seen through one view), then 10 a second; a record at most once a second; 1,000 records waiting.
 */
export const WEBHOOK_PACE: PacerLimits = { perWindow: 20, windowMs: 2000, cooldownMs: 1000, maxWaiting: 1000 };

export class EventPacer<T> {
  /** By key, in the order they came (a coalesced event keeps its key's place). */
  private readonly waiting = new Map<string, T>();
  /** When each key was last acted on, oldest first. */
  private readonly lastActed = new Map<string, number>();
  private windowStart = Number.NEGATIVE_INFINITY;
  private actedInWindow = 0;
  private dropped = 0;
  private cancelTimer: (() => void) | undefined;
  private disposed = false;

  constructor(
    private readonly limits: PacerLimits,
    private readonly act: (key: string, item: T) => void,
    /** Events dropped since the last word (the waiting list was full). */
    private readonly onDropped: (count: number) => void,
    private readonly clock: PacerClock = REAL_CLOCK,
  ) {}

  push(key: string, item: T): void {
    if (this.disposed) return;
    if (this.waiting.has(key)) {
      this.waiting.set(key, item);
      return;
    }
    const now = this.clock.now();
    this.drain(now);
    if (this.isReady(key, now) && this.takeTurn(now)) {
      this.actOn(key, item, now);
      return;
    }
    if (this.waiting.size >= this.limits.maxWaiting) this.dropped += 1;
    else this.waiting.set(key, item);
    this.arm(now);
  }

  dispose(): void {
    this.disposed = true;
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    this.waiting.clear();
    this.lastActed.clear();
  }

  private isReady(key: string, now: number): boolean {
    const last = this.lastActed.get(key);
    return last === undefined || now - last >= this.limits.cooldownMs;
  }

  private takeTurn(now: number): boolean {
    if (now - this.windowStart >= this.limits.windowMs) {
      this.windowStart = now;
      this.actedInWindow = 0;
    }
    if (this.actedInWindow >= this.limits.perWindow) return false;
    this.actedInWindow += 1;
    return true;
  }

  private actOn(key: string, item: T, now: number): void {
    this.lastActed.delete(key);
    this.lastActed.set(key, now);
    for (const [old, at] of this.lastActed) {
      if (now - at < this.limits.cooldownMs) break;
      this.lastActed.delete(old);
    }
    try {
      this.act(key, item);
    } catch {
      // The listener's own failure; the next events still go through.
    }
  }

  private drain(now: number): void {
    for (const [key, item] of this.waiting) {
      if (!this.isReady(key, now)) continue;
      if (!this.takeTurn(now)) break;
      this.waiting.delete(key);
      this.actOn(key, item, now);
    }
  }

  private run(): void {
    this.cancelTimer = undefined;
    if (this.disposed) return;
    const now = this.clock.now();
    this.drain(now);
    if (this.dropped > 0) {
      const count = this.dropped;
      this.dropped = 0;
      this.onDropped(count);
    }
    this.arm(now);
  }

  /** The timer for the next key that may be acted on (or at once, to say what was dropped). */
  private arm(now: number): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    if (this.waiting.size === 0 && this.dropped === 0) return;
    const turnAt =
      this.actedInWindow < this.limits.perWindow || now - this.windowStart >= this.limits.windowMs
        ? now
        : this.windowStart + this.limits.windowMs;
    let next = this.dropped > 0 ? now : Number.POSITIVE_INFINITY;
    for (const key of this.waiting.keys()) {
      const last = this.lastActed.get(key);
      next = Math.min(next, Math.max(turnAt, last === undefined ? now : last + this.limits.cooldownMs));
    }
    this.cancelTimer = this.clock.schedule(() => this.run(), Math.max(0, next - now));
  }
}
