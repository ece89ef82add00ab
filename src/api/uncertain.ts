// Whether a failed request may have been carried out by the portal all the same: the answer was lost
// (dropped connection, time limit), the portal failed after it may have acted (5xx), or a 2xx came back
// unreadable (the portal did it). A create failed this way must not be sent again blindly: it may
// create a second record.
import { isPortalError } from './errors';

export function mayHaveBeenDone(error: unknown): boolean {
  if (!isPortalError(error)) return false;
  if (error.kind === 'network' || error.kind === 'timeout' || error.kind === 'invalid-response') return true;
  return error.kind === 'http' && error.status !== undefined && error.status >= 500;
}
