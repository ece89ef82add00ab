// When each watched view is read again, without `vscode` (tested with a fake clock): every interval (a
// setting, read at each turn so a change applies at the next); not while no window of VS Code has focus (a
// read due then waits for the focus, and runs once it comes); never two reads of one view at once; later
// and later after failures (the one backoff of records/retry.ts, from one interval up to 16), and not
// before the portal's limiter lets requests go again after a 429's Retry-After; and not at all for an app
// whose webhook events arrive (they tell of its changes as they happen): its reads resume once the events
// have stayed away for three intervals.
import { isCancellation } from '../api/errors';
import { systemClock, type Clock } from '../records/clock';
import { classifyFailure } from '../records/failures';
import { backoffMs, retryPolicy } from '../records/retry';

export interface PollTarget {
  /** One per watched view (or My Records of a portal). */
  readonly key: string;
  readonly portalId: string;
  /** The app whose webhook events replace the reads; undefined: reads across apps (My Records), never replaced. */
  readonly appId: string | undefined;
}

export interface PollOptions {
  /** The interval between reads, in ms (the setting). */
  intervalMs(): number;
  /** One read of the target; the scheduler never starts a second while it runs. */
  read(target: PollTarget, signal: AbortSignal): Promise<void>;
  /** How long the portal's limiter still holds every request (a Retry-After), in ms. */
  pausedMs(portalId: string): number;
  /** A read failed (not a cancellation): `failures` in a row so far, the next one in `nextInMs`. */
  failed?(target: PollTarget, error: unknown, failures: number, nextInMs: number): void;
  readonly clock?: Clock;
  readonly random?: () => number;
}

/** Intervals without webhook events after which an app's reads resume. */
export const WEBHOOK_QUIET_INTERVALS = 3;
/** The longest wait after failures, in intervals. */
export const MAX_BACKOFF_INTERVALS = 16;

interface Entry {
  readonly target: PollTarget;
  timer: unknown;
  /** When the next read is due (also while the window has no focus). */
  dueAt: number;
  running: Promise<void> | undefined;
  readonly stop: AbortController;
  failures: number;
}

const appKey = (portalId: string, appId: string): string => `${portalId}\u0000${appId}`;

export class PollScheduler {
  private readonly entries = new Map<string, Entry>();
  private readonly lastWebhookAt = new Map<string, number>();
  private readonly clock: Clock;
  private focused: boolean;
  private disposed = false;

  constructor(
    private readonly options: PollOptions,
    focused = true,
  ) {
    this.clock = options.clock ?? systemClock;
    this.focused = focused;
  }

  /** Watches `target`: its first read is due at once (it is the baseline the next ones are compared with). */
  watch(target: PollTarget): void {
    if (this.disposed || this.entries.has(target.key)) return;
    const entry: Entry = { target, timer: undefined, dueAt: 0, running: undefined, stop: new AbortController(), failures: 0 };
    this.entries.set(target.key, entry);
    this.schedule(entry, 0);
  }

  unwatch(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.clock.clearTimeout(entry.timer);
    entry.stop.abort();
  }

  isWatched(key: string): boolean {
    return this.entries.has(key);
  }

  keys(): string[] {
    return [...this.entries.keys()];
  }

  /** Whether a read of `key` runs now. */
  isReading(key: string): boolean {
    return this.entries.get(key)?.running !== undefined;
  }

  /** The window gained or lost the focus: reads wait while it has none, and those due run when it comes. */
  setFocused(focused: boolean): void {
    if (this.focused === focused) return;
    this.focused = focused;
    for (const entry of this.entries.values()) {
      if (entry.running) continue;
      this.clock.clearTimeout(entry.timer);
      entry.timer = undefined;
      if (focused) this.schedule(entry, entry.dueAt - this.clock.now());
    }
  }

  /** A webhook event of the app arrived: its watched views are not read while such events keep coming. */
  webhookArrived(portalId: string, appId: string): void {
    this.lastWebhookAt.set(appKey(portalId, appId), this.clock.now());
  }

  /** Reads `key` now (unless a read of it runs: then that read is awaited). */
  readNow(key: string): Promise<void> {
    const entry = this.entries.get(key);
    if (!entry) return Promise.resolve();
    return entry.running ?? this.run(entry);
  }

  dispose(): void {
    this.disposed = true;
    for (const key of [...this.entries.keys()]) this.unwatch(key);
  }

  private interval(): number {
    const ms = this.options.intervalMs();
    return Number.isFinite(ms) && ms > 0 ? ms : 1;
  }

  private schedule(entry: Entry, delayMs: number): void {
    this.clock.clearTimeout(entry.timer);
    entry.timer = undefined;
    const delay = Math.max(0, delayMs);
    entry.dueAt = this.clock.now() + delay;
    if (!this.focused || this.disposed || this.entries.get(entry.target.key) !== entry) return;
    entry.timer = this.clock.setTimeout(() => {
      entry.timer = undefined;
      this.due(entry);
    }, delay);
  }

  private due(entry: Entry): void {
    if (!this.focused || entry.running || this.entries.get(entry.target.key) !== entry) return;
    const { portalId, appId } = entry.target;
    const webhookAt = appId === undefined ? undefined : this.lastWebhookAt.get(appKey(portalId, appId));
    if (webhookAt !== undefined && this.clock.now() - webhookAt < WEBHOOK_QUIET_INTERVALS * this.interval()) {
      this.schedule(entry, this.interval());
      return;
    }
    const paused = this.options.pausedMs(portalId);
    if (paused > 0) {
      this.schedule(entry, paused);
      return;
    }
    // Not awaited: the timer's turn ends here; run() schedules the next turn itself and reports failures.
    void this.run(entry);
  }

  private run(entry: Entry): Promise<void> {
    this.clock.clearTimeout(entry.timer);
    entry.timer = undefined;
    const running = this.readOnce(entry).finally(() => {
      entry.running = undefined;
    });
    entry.running = running;
    return running;
  }

  private async readOnce(entry: Entry): Promise<void> {
    let next: number;
    try {
      await this.options.read(entry.target, entry.stop.signal);
      entry.failures = 0;
      next = this.interval();
    } catch (error) {
      if (entry.stop.signal.aborted || (isCancellation(error) && this.disposed)) return;
      entry.failures += 1;
      next = this.backoff(entry, error);
      this.options.failed?.(entry.target, error, entry.failures, next);
    }
    this.schedule(entry, next);
  }

  /** The wait after a failure: doubling from one interval, jittered, capped; at least what the portal asked. */
  private backoff(entry: Entry, error: unknown): number {
    const interval = this.interval();
    const policy = retryPolicy({ baseDelayMs: interval, maxDelayMs: interval * MAX_BACKOFF_INTERVALS });
    const asked = classifyFailure(error).waitMs ?? 0;
    return Math.max(
      interval,
      backoffMs(policy, entry.failures + 1, this.options.random),
      asked,
      this.options.pausedMs(entry.target.portalId),
    );
  }
}
