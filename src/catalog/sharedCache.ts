// Values fetched once and kept until dropped. Callers asking while a fetch is under way share it; one
// caller's abort leaves the others waiting, and the fetch itself is aborted only when every caller has
// given up. A failed fetch is not kept, and a fetch that was dropped (refreshed) while under way is not
// kept either: its callers get what it brought, the next caller asks again.
import { cancelled } from '../api/errors';

type Load<V> = (signal: AbortSignal) => Promise<V>;

interface Pending<V> {
  readonly state: 'pending';
  readonly promise: Promise<V>;
  readonly controller: AbortController;
  /** Callers still waiting that may abort; the fetch stops when the last one does. */
  waiting: number;
  /** A caller without a signal waits for good: the fetch is never aborted. */
  pinned: boolean;
}

type Entry<V> = { readonly state: 'ready'; readonly value: V } | Pending<V>;

/**
 * `promise` for a caller who may give up: a cancellation as soon as `signal` aborts, after `onAbort` (which
 * may give up the shared work once nobody waits for it).
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal, onAbort: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = (): void => {
      onAbort();
      reject(cancelled('The read'));
    };
    signal.addEventListener('abort', abort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(error);
      },
    );
  });
}

export class SharedCache<V> {
  private readonly entries = new Map<string, Entry<V>>();

  /** The value of `key`: kept, shared with a fetch under way, or fetched with `load`. */
  get(key: string, load: Load<V>, signal?: AbortSignal): Promise<V> {
    if (signal?.aborted) return Promise.reject(cancelled('The read'));
    const known = this.entries.get(key);
    if (known?.state === 'ready') return Promise.resolve(known.value);
    const entry = known ?? this.start(key, load);
    return this.join(key, entry, signal);
  }

  /** The kept value, without fetching. */
  peek(key: string): V | undefined {
    const entry = this.entries.get(key);
    return entry?.state === 'ready' ? entry.value : undefined;
  }

  has(key: string): boolean {
    return this.entries.get(key)?.state === 'ready';
  }

  /** Drops the entries whose key passes `test` (all when no test); fetches under way are not kept. */
  drop(test: (key: string) => boolean = () => true): string[] {
    const dropped: string[] = [];
    for (const key of [...this.entries.keys()]) {
      if (test(key)) {
        this.entries.delete(key);
        dropped.push(key);
      }
    }
    return dropped;
  }

  keys(): string[] {
    return [...this.entries.keys()];
  }

  private start(key: string, load: Load<V>): Pending<V> {
    const controller = new AbortController();
    const entry: Pending<V> = {
      state: 'pending',
      controller,
      waiting: 0,
      pinned: false,
      promise: load(controller.signal).then(
        (value) => {
          if (this.entries.get(key) === entry) this.entries.set(key, { state: 'ready', value });
          return value;
        },
        (error: unknown) => {
          if (this.entries.get(key) === entry) this.entries.delete(key);
          throw error;
        },
      ),
    };
    // Nobody may be listening when every caller aborted; the rejection is theirs, not unhandled.
    entry.promise.catch(() => undefined);
    this.entries.set(key, entry);
    return entry;
  }

  private join(key: string, entry: Pending<V>, signal: AbortSignal | undefined): Promise<V> {
    if (!signal) {
      entry.pinned = true;
      return entry.promise;
    }
    entry.waiting += 1;
    return untilAborted(entry.promise, signal, () => {
      entry.waiting -= 1;
      if (entry.waiting === 0 && !entry.pinned) {
        if (this.entries.get(key) === entry) this.entries.delete(key);
        entry.controller.abort();
      }
    });
  }
}
