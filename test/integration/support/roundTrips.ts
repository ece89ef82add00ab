// The emulator's request log of an action, for counting its sequential round trips
// (sequentialRoundTrips in test/emulator/requestLog.ts).
import type { LoggedRequest } from '../../emulator/requestLog';
import { emulatorControl } from './emulator';

export { sequentialRoundTrips } from '../../emulator/requestLog';

export async function requestLogSince(mark: number): Promise<LoggedRequest[]> {
  return emulatorControl<LoggedRequest[]>('GET', `requests?since=${mark}`);
}

/** Lines for an assertion message: what was asked, when, for how long. */
export function describeRequests(requests: readonly LoggedRequest[]): string {
  return requests
    .map((request) => `${request.method} ${request.path} ${request.duration_ms} ms, ended ${request.time.slice(11, 23)}`)
    .join('; ');
}
