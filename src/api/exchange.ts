// One request's stop switch: its time limit and the caller's AbortSignal, each of which stops it through the
// switch (StopSwitch, http.ts) the transport watches; send() in http.ts makes one per request.
import type { StopSwitch } from './http';

/** Why a stopped request failed, for the transport; failure() tells timeout from cancel by the flags. */
function stopReason(caller: AbortSignal | undefined): Error {
  if (caller?.reason instanceof Error) return caller.reason;
  const error = new Error(caller ? 'The request was aborted.' : 'The request took too long.');
  error.name = 'AbortError';
  return error;
}

/**
 * A signal's `aborted` and its listeners, through the standard getter and methods rather than a lookup on
 * the signal itself: on Node 20 every AbortSignal has a map of its own, and a lookup that V8 inlined into
 * send() was optimized for one signal, then thrown away at the first request under the next (Watch).
 */
const abortedGetter = Object.getOwnPropertyDescriptor(AbortSignal.prototype, 'aborted')?.get;
const { addEventListener, removeEventListener } = EventTarget.prototype;

function isAborted(signal: AbortSignal): boolean {
  return abortedGetter ? abortedGetter.call(signal) === true : signal.aborted;
}

/**
 * The exchanges under way under one caller's signal, halted by one listener for all of them instead of
 * one per request. Not for the cost of adding a listener alone: Node's EventTarget keeps its listeners in
 * a linked list whose removed entries still point at the next one. Once one removed entry had lived long
 * enough to be promoted to the old generation, each collection of the young one kept the entries after it
 * alive through it, and with each its whole request (the request, its answer, their buffers): 4 requests at
 * once promoted about 5 kB per request, collected only by full collections (test/bench/import.profile.ts,
 * IMPORT_PROFILE_ONLY=client under --trace-gc-nvp). The listener goes once nothing is under way, so a
 * signal keeps nothing after its requests.
 *
 * Whether the caller aborted is kept here too, read once from the signal: on Node 20 every AbortSignal
 * has a map of its own, so code reading `aborted` for each request was optimized for one caller's signal
 * and thrown away at the first request under the next (--trace-deopt, "wrong map" in send() at each run
 * of an import).
 */
class Watch {
  readonly exchanges = new Set<Exchange>();
  aborted: boolean;
  readonly listener = (): void => {
    this.aborted = true;
    for (const exchange of this.exchanges) {
      try {
        exchange.halt(stopReason(this.caller));
      } catch (error) {
        // As EventTarget reports a listener's failure: the others are still halted.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  };

  constructor(private readonly caller: AbortSignal) {
    this.aborted = isAborted(caller);
    if (!this.aborted) addEventListener.call(caller, 'abort', this.listener, { once: true });
  }

  /** Ends the request's watch; the last one under way takes the listener off the signal. */
  forget(exchange: Exchange): void {
    if (!this.exchanges.delete(exchange) || this.exchanges.size > 0) return;
    removeEventListener.call(this.caller, 'abort', this.listener);
    watches.delete(this.caller);
  }
}

const watches = new WeakMap<AbortSignal, Watch>();

function watch(caller: AbortSignal, exchange: Exchange): Watch {
  let watching = watches.get(caller);
  if (!watching) {
    watching = new Watch(caller);
    watches.set(caller, watching);
  }
  watching.exchanges.add(exchange);
  return watching;
}

/**
 * The time limits of the exchanges under way, on one timer set for the earliest of them rather than a
 * timer per request: requests mostly share one limit, so a new one ends after the timer and leaves it be.
 * An import's Timeout per request, armed then cleared, cost about 1 µs of its 60 per record, and it was
 * garbage per request. The timer goes once nothing is under way, so it never keeps the process alive idle.
 */
class Deadlines {
  private readonly live = new Set<Exchange>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private armedFor = Number.POSITIVE_INFINITY;

  add(exchange: Exchange): void {
    this.live.add(exchange);
    if (exchange.deadline < this.armedFor) this.arm(exchange.deadline);
  }

  remove(exchange: Exchange): void {
    if (!this.live.delete(exchange) || this.live.size > 0) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.armedFor = Number.POSITIVE_INFINITY;
  }

  private arm(at: number): void {
    clearTimeout(this.timer);
    this.armedFor = at;
    this.timer = setTimeout(this.due, Math.max(1, Math.ceil(at - performance.now())));
  }

  private readonly due = (): void => {
    this.timer = undefined;
    this.armedFor = Number.POSITIVE_INFINITY;
    const now = performance.now();
    let next = Number.POSITIVE_INFINITY;
    for (const exchange of [...this.live]) {
      if (exchange.deadline <= now) {
        this.live.delete(exchange);
        expire(exchange);
      } else next = Math.min(next, exchange.deadline);
    }
    if (next !== Number.POSITIVE_INFINITY) this.arm(next);
  };
}

const deadlines = new Deadlines();

/** One request's stop switch, time limit and watch on the caller's signal in one object. */
export class Exchange implements StopSwitch {
  reason: Error | undefined = undefined;
  onStop: ((reason: Error) => void) | undefined = undefined;
  timedOut = false;
  /** When the time limit ends, on performance.now()'s clock (Deadlines). */
  deadline: number;
  private readonly watching: Watch | undefined;

  constructor(
    readonly caller: AbortSignal | undefined,
    private readonly timeoutMs: number,
  ) {
    this.deadline = performance.now() + timeoutMs;
    deadlines.add(this);
    this.watching = caller ? watch(caller, this) : undefined;
  }

  /** Whether the caller's signal was aborted (before this request, or since). */
  get callerAborted(): boolean {
    return this.watching?.aborted === true;
  }

  halt(reason: Error): void {
    if (this.reason) return;
    this.reason = reason;
    this.onStop?.(reason);
  }

  /** The time limit starts again (a streamed body's next piece came); the timer sees the new end when due. */
  rearm(): void {
    this.deadline = performance.now() + this.timeoutMs;
  }

  end(): void {
    deadlines.remove(this);
    this.watching?.forget(this);
    // The transport's switch holds the request: nothing stops it any more.
    this.onStop = undefined;
  }
}

function expire(exchange: Exchange): void {
  exchange.timedOut = true;
  exchange.halt(stopReason(undefined));
}
