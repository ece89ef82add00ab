// What a request passes before it goes to the portal: the client asks the gate for a permit and gives
// it back with how the request went. The gate itself (how many at once, the pause a 429 asks for) is the
// portal's limiter, src/records/limiter.ts; the client only knows this shape.

export interface RequestAnswer {
  /** The HTTP status; undefined when no answer came (a dropped connection, a time-out, a cancel). */
  readonly status: number | undefined;
  /** A 429's or 503's Retry-After, as read. */
  readonly retryAfterMs?: number;
  /** The request's round trip, when its answer was small enough to time one (not a transfer). */
  readonly roundTripMs?: number;
}

export interface RequestPermit {
  release(answer: RequestAnswer): void;
}

/**
 * Whose request: the user's, waiting on it (a hover, Open Record, a tree's rows), or one of a job's many
 * (an import, a bulk change, a save, a watched read), which the user's pass (records/limiter.ts).
 */
export type RequestPriority = 'interactive' | 'bulk';

export interface RequestGate {
  /** A permit at once when one is free (no promise), else once one is; rejects when `signal` aborts. */
  acquire(signal?: AbortSignal): RequestPermit | Promise<RequestPermit>;
}
