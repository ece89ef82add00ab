// What a failed request of a run means (sent again, looked for, or refused); the waits between attempts are
// records/retry.ts's.
import { isCancellation, isPortalError } from '../api/errors';

export type Failure =
  | { kind: 'cancelled' }
  | { kind: 'refused'; reason: string; status?: number }
  /** The portal did not take the request: send it again after `waitMs`. */
  | { kind: 'not-taken'; reason: string; waitMs?: number }
  /** The request may have been carried out. */
  | { kind: 'unknown'; reason: string };

export function classify(error: unknown): Failure {
  if (isCancellation(error)) return { kind: 'cancelled' };
  if (!isPortalError(error)) return { kind: 'refused', reason: error instanceof Error ? error.message : String(error) };
  const reason = error.portalMessage ?? error.message;
  if (error.kind === 'http' && (error.status === 429 || error.status === 503)) return { kind: 'not-taken', reason, waitMs: error.retryAfterMs };
  if (error.kind === 'http' && (error.status ?? 0) >= 500) return { kind: 'unknown', reason };
  if (error.kind === 'network' || error.kind === 'timeout' || error.kind === 'invalid-response') return { kind: 'unknown', reason: error.message };
  return { kind: 'refused', reason, status: error.status };
}
