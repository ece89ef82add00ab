// The one classification of a failed request to the portal: what the failure says about whether the
// portal carried the request out. Every writer decides from it (the import and bulk change runner, the
// grid save, the records store's messages, a new record's save), so that a status means one thing
// everywhere. How long to wait and how often to try again is the retry policy's business, not this one's.
//
// The verdicts, and why:
// - 'not-taken': the portal did not carry the request out; sending it again cannot duplicate it.
//   429: a rate limiter answers before the request is handled (RFC 6585). 408: the portal did not receive
//   the whole request (RFC 9110 §15.5.9). A connection refused, a host name that does not resolve, a
//   connect that timed out: nothing was sent.
// - 'may-have-been-done': the portal may have carried it out, its answer is lost or says nothing sure.
//   Every other 5xx, a dropped connection, a time-out. 503 is here too, with or without Retry-After: a
//   rate limiter or an overloaded portal that answers 503 usually did not take the request, but the
//   portal's API documents nothing of it, and a gateway in front of the portal answers 503 as well after
//   passing the request on (its upstream timed out). Taken for "not taken", a 503 to a create could make
//   a second record; taken for "may have been done", it costs a look-up before the create is sent again
//   (or, with nothing to look it up by, a row a person checks). The wait it asks for is kept either way.
// - 'taken': the portal said 2xx but its answer cannot be read: it did it (a create's record id is lost).
// - 'refused': the portal said no (any other 4xx, 3xx), or nothing was sent (a value refused locally, an
//   error of our own): sending it again as it is would be refused again.
// - 'cancelled': the person or the caller stopped it; whether a request sent meanwhile was carried out is
//   the caller's to handle (the runner lets requests in flight answer before it cuts them off).
// A create is sent again only after 'not-taken'; after 'may-have-been-done' or 'taken' it is looked up
// first (or reported as possibly made). Updates and deletes may be sent again after either.
import { isCancellation, isPortalError } from '../api/errors';

export type Verdict = 'not-taken' | 'may-have-been-done' | 'taken' | 'refused' | 'cancelled';

export interface Failure {
  readonly verdict: Verdict;
  /** The portal's message, else the error's. */
  readonly reason: string;
  readonly status?: number;
  /** How long the portal asked to wait (Retry-After), whatever the verdict. */
  readonly waitMs?: number;
}

/** Network codes of a connection that never carried the request (nodeTransport and fetch codes). */
const NOTHING_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

/** The verdict of an HTTP status other than 2xx. */
export function statusVerdict(status: number): Verdict {
  if (status === 429 || status === 408) return 'not-taken';
  if (status >= 500) return 'may-have-been-done';
  return 'refused';
}

export function classifyFailure(error: unknown): Failure {
  if (isCancellation(error)) return { verdict: 'cancelled', reason: error instanceof Error ? error.message : String(error) };
  if (!isPortalError(error)) return { verdict: 'refused', reason: error instanceof Error ? error.message : String(error) };
  const reason = error.portalMessage ?? error.message;
  const waitMs = error.retryAfterMs;
  switch (error.kind) {
    case 'http':
      return {
        verdict: error.status === undefined ? 'may-have-been-done' : statusVerdict(error.status),
        reason,
        status: error.status,
        waitMs,
      };
    case 'network':
      return {
        verdict: error.code !== undefined && NOTHING_SENT.has(error.code) ? 'not-taken' : 'may-have-been-done',
        reason: error.message,
      };
    case 'timeout':
      return { verdict: 'may-have-been-done', reason: error.message };
    case 'invalid-response':
      return { verdict: 'taken', reason: error.message };
    default:
      return { verdict: 'refused', reason, status: error.status };
  }
}

/** Whether the portal may hold what the failed request asked for: a create must not be sent again blindly. */
export function mayHaveBeenDone(error: unknown): boolean {
  const { verdict } = classifyFailure(error);
  return verdict === 'may-have-been-done' || verdict === 'taken';
}

/** Whether the portal did not carry the request out: it may be sent again as it is. */
export function notTaken(error: unknown): boolean {
  return classifyFailure(error).verdict === 'not-taken';
}
