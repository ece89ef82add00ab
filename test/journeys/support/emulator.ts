// The emulator's test interface over HTTP (test/emulator/README.md): what the journeys read to check what
// reached the portal (its request log, a record's state), and the reset that gives each journey the seed.
import { emulatorControl } from '../../support/emulator';
import { world } from './world';

export interface LoggedRequest {
  seq: number;
  method: string;
  path: string;
  query: string;
  status: number;
}

export interface RecordState {
  id: string;
  draft: boolean;
  trashed: boolean;
  data: Record<string, string>;
  comments: { id: string; comment: string }[];
  attachments: { id: string; file_name: string; content_type: string; size: number }[];
}

/** This world's emulator through the one test-interface call of test/support. */
export function emulatorCall<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
  return emulatorControl<T>(world().emulator.info, method, path, body);
}

/** The seed again, and an empty request log. */
export async function resetEmulator(): Promise<void> {
  await emulatorCall('POST', 'reset');
}

/** The last request sequence number, to read only what follows. */
export async function requestMark(): Promise<number> {
  const all = await emulatorCall<LoggedRequest[]>('GET', 'requests');
  return all.at(-1)?.seq ?? 0;
}

export function requestsSince(mark: number): Promise<LoggedRequest[]> {
  return emulatorCall<LoggedRequest[]>('GET', `requests?since=${mark}`);
}

export function recordState(appId: string, recordId: string): Promise<RecordState> {
  return emulatorCall<RecordState>('GET', `records/${appId}/${recordId}`);
}

/** Polls `read` until `done` holds (a condition that the portal's side reaches), or fails with what it saw. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await read();
  while (!done(last)) {
    if (Date.now() > deadline)
      throw new Error(`${what}: not reached within ${timeoutMs} ms; last seen ${JSON.stringify(last).slice(0, 600)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    last = await read();
  }
  return last;
}

/** A token of another user of the portal (the demo client's Client Credentials). */
async function anotherUserToken(): Promise<string> {
  const { base_url, client_id, client_secret } = world().emulator.info;
  const basic = `Basic ${Buffer.from(`${client_id}:${client_secret}`).toString('base64')}`;
  const response = await fetch(`${base_url}/api/v1/oauth2/token`, {
    method: 'POST',
    headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id, client_secret }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

/** Another user changes a record through the portal's API. */
export async function changeRecordAsAnotherUser(appId: string, recordId: string, fields: Record<string, string>): Promise<void> {
  const response = await fetch(`${world().emulator.info.base_url}/api/v1/app/${appId}/record/${recordId}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${await anotherUserToken()}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
  if (!response.ok) throw new Error(`The other user's change was refused: ${response.status} ${await response.text()}`);
}

/** The rows the portal itself finds in a view with these filter parameters. */
export async function viewAsAnotherUser(
  appId: string,
  viewId: string,
  filters: Record<string, string>,
): Promise<Record<string, unknown>[]> {
  const url = `${world().emulator.info.base_url}/api/v1/app/${appId}/view/${viewId}?${new URLSearchParams(filters)}`;
  const response = await fetch(url, { headers: { authorization: `Bearer ${await anotherUserToken()}` } });
  const body = (await response.json()) as unknown;
  const rows = Array.isArray(body)
    ? body
    : ((body as { records?: unknown[]; data?: unknown[] }).records ?? (body as { data?: unknown[] }).data);
  if (!response.ok || !Array.isArray(rows)) throw new Error(`The view answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return rows as Record<string, unknown>[];
}

/** How many rows the portal itself finds in a view with these filter parameters. */
export async function viewRowsAsAnotherUser(appId: string, viewId: string, filters: Record<string, string>): Promise<number> {
  return (await viewAsAnotherUser(appId, viewId, filters)).length;
}
