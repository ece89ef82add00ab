// The error a portal call ends with when the user must sign in again. It is the PortalError the client's
// contract names (kind http, status 401, code 'unauthorized') and also says which connection it is about,
// so the command wrapper's "Sign In" signs in to the right portal and retries. On the ground floor: the
// connections (auth/) throw it, the error boundary (ui/) and the Portal view (tree/) read it.
import { PortalError } from '../api/errors';

export class SignInRequiredError extends PortalError {
  constructor(
    readonly connectionId: string,
    message: string,
    cause?: unknown,
  ) {
    super({ kind: 'http', status: 401, code: 'unauthorized', message, cause });
  }
}

export function isSignInRequired(error: unknown): error is PortalError & { code: 'unauthorized' } {
  return error instanceof PortalError && error.code === 'unauthorized';
}

/** The connection a sign-in-required error is about, when it says. */
export function connectionOf(error: unknown): string | undefined {
  return error instanceof SignInRequiredError ? error.connectionId : undefined;
}
