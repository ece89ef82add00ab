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
 * The exchanges under way under one caller's signal, halted by one listener for all of them instead of
 * one per request. Not for the cost of adding a listener alone: Node's EventTarget keeps its listeners in
 * a linked list whose removed entries still point at the next one. Once one removed entry had lived long
 * enough to be promoted to the old generation, each collection of the young one kept the entries after it
 * alive through it, and with each its whole request (the request, its answer, their buffers): 4 requests at
 * once promoted about 5 kB per request, collected only by full collections (test/bench/import.profile.ts,
 * IMPORT_PROFILE_ONLY=client under --trace-gc-nvp). The listener goes once nothing is under way, so a
 * signal keeps nothing after its requests.
 */
class Watch {
  readonly exchanges = new Set<Exchange>();
  readonly listener = (): void => {
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
    caller.addEventListener('abort', this.listener, { once: true });
  }
}

const watches = new WeakMap<AbortSignal, Watch>();

function watch(caller: AbortSignal, exchange: Exchange): void {
  let watching = watches.get(caller);
  if (!watching) {
    watching = new Watch(caller);
    watches.set(caller, watching);
  }
  watching.exchanges.add(exchange);
}

function unwatch(caller: AbortSignal, exchange: Exchange): void {
  const watching = watches.get(caller);
  if (!watching?.exchanges.delete(exchange) || watching.exchanges.size > 0) return;
  caller.removeEventListener('abort', watching.listener);
  watches.delete(caller);
}

/** One request's stop switch, time limit and watch on the caller's signal in one object. */
export class Exchange implements StopSwitch {
  reason: Error | undefined = undefined;
  onStop: ((reason: Error) => void) | undefined = undefined;
  timedOut = false;
  private timer: ReturnType<typeof setTimeout>;
  /**
   * The timer's callback, not expire() with this as its argument: Node keeps a timer's arguments in an
   * array made at one place for every setTimeout of the process, which V8 comes to allocate straight in the
   * old generation once some timers there lived long (pretenuring). Dead there, each such array kept its
   * exchange, and with it the whole request, alive through young collections: measured under one signal
   * after a burst of long-lived allocations (reading and planning an import), 78 MB promoted instead of
   * 47 MB, 70 µs CPU per create instead of 51 (IMPORT_PROFILE_ONLY=client, --trace-gc-nvp).
   */
  private readonly expired = (): void => expire(this);

  constructor(
    readonly caller: AbortSignal | undefined,
    private readonly timeoutMs: number,
  ) {
    this.timer = setTimeout(this.expired, timeoutMs);
    if (caller) watch(caller, this);
  }

  halt(reason: Error): void {
    if (this.reason) return;
    this.reason = reason;
    this.onStop?.(reason);
  }

  /** The time limit starts again (a streamed body's next piece came). */
  rearm(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(this.expired, this.timeoutMs);
  }

  end(): void {
    clearTimeout(this.timer);
    if (this.caller) unwatch(this.caller, this);
    // The transport's switch holds the request: nothing stops it any more.
    this.onStop = undefined;
  }
}

function expire(exchange: Exchange): void {
  exchange.timedOut = true;
  exchange.halt(stopReason(undefined));
}
