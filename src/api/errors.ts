// The one error type of the portal client. Everything that can go wrong on the way to the portal and back
// (HTTP status, network failure, timeout, cancellation, a body that is not what was promised) becomes a
// PortalError, so callers handle one shape. Messages never carry a token, a secret or a header.

export type PortalErrorKind =
  /** The portal answered with a non-2xx status. */
  | 'http'
  /** Connection refused, reset, dropped, DNS failure. */
  | 'network'
  /** No answer within the client's time limit. */
  | 'timeout'
  /** The caller aborted (AbortSignal) or the user cancelled. */
  | 'cancelled'
  /** The portal answered 2xx with a body the client cannot use. */
  | 'invalid-response'
  /** Refused locally before anything was sent (a value the formats table rejects, a bad filter). */
  | 'invalid-input';

export interface PortalErrorInit {
  kind: PortalErrorKind;
  /** One sentence for the user. */
  message: string;
  status?: number;
  /** The portal's own message, when it sent one. */
  portalMessage?: string;
  /** The portal's own error code (e.g. OAuth's invalid_grant), when it sent one. */
  code?: string;
  /** The field_id_in_data the error is about, when known. */
  field?: string;
  /** How long the portal asked the client to wait before trying again (a 429's or 503's Retry-After). */
  retryAfterMs?: number;
  cause?: unknown;
}

export class PortalError extends Error {
  readonly kind: PortalErrorKind;
  readonly status: number | undefined;
  readonly portalMessage: string | undefined;
  readonly code: string | undefined;
  readonly field: string | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(init: PortalErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'PortalError';
    this.kind = init.kind;
    this.status = init.status;
    this.portalMessage = init.portalMessage;
    this.code = init.code;
    this.field = init.field;
    this.retryAfterMs = init.retryAfterMs;
  }
}

/**
 * The one way to say "the user gave up": a question dismissed, an action cancelled, a read nobody waits for.
 * The error boundary shows nothing for it (ui/failures.ts).
 */
export function cancelled(what: string): PortalError {
  return new PortalError({ kind: 'cancelled', message: `${what} was cancelled.` });
}

export function isPortalError(value: unknown): value is PortalError {
  return value instanceof PortalError;
}

/** True for an aborted or cancelled action, however it was signalled. */
export function isCancellation(value: unknown): boolean {
  if (value instanceof PortalError) return value.kind === 'cancelled';
  if (value instanceof Error) return value.name === 'AbortError' || value.name === 'Canceled' || value.name === 'CancellationError';
  return false;
}
