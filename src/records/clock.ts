// The clock of what waits: the portal's limiter and the watched views' scheduler. Passed in, so that their
// unit tests move time themselves (test/unit/support/fakeClock.ts) and nothing there really waits.

export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Monotonic: a change of the system's time moves no wait. */
export const systemClock: Clock = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
