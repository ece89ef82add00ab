// The one way every suite calls the portal emulator's test interface (/_emulator/..., test/emulator/README.md),
// which is not part of the portal's API: unit and webview tests hold an in-process emulator (startPortal in
// ./portal.ts), the integration and journey suites get one from the harness. No value imports: it is bundled into
// the extension host's tests as well as plain node's (a type import leaves nothing in a bundle).
import type { Fault as EmulatorFault } from '../emulator/faults';

/** Where the emulator listens: its base URL, an in-process emulator, or the harness's start line. */
export type EmulatorAddress = string | { readonly baseUrl: string } | { readonly base_url: string };

function baseUrlOf(at: EmulatorAddress): string {
  if (typeof at === 'string') return at;
  return 'baseUrl' in at ? at.baseUrl : at.base_url;
}

/** `emulatorControl(emulator, 'POST', 'faults', {...})`: the answer's JSON (undefined when empty); throws on 4xx/5xx. */
export async function emulatorControl<T = unknown>(
  at: EmulatorAddress,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<T> {
  const relative = path.replace(/^\//, '');
  const response = await fetch(`${baseUrlOf(at)}/_emulator/${relative}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`emulator ${method} /_emulator/${relative}: HTTP ${response.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The body of POST /_emulator/faults: the emulator's fault as asked for (`count` requests to hit). */
export type Fault = Omit<EmulatorFault, 'id' | 'remaining'> & { count?: number };

export function injectFault(at: EmulatorAddress, fault: Fault): Promise<unknown> {
  return emulatorControl(at, 'POST', 'faults', fault);
}

/** POST /_emulator/config: runtime options, camelCase keys (all or nothing). */
export function configure(at: EmulatorAddress, patch: Record<string, unknown>): Promise<unknown> {
  return emulatorControl(at, 'POST', 'config', patch);
}

/** Back to the seed: records, faults, request log, webhooks (the demo client's tokens stay valid). */
export async function resetEmulator(at: EmulatorAddress): Promise<void> {
  await emulatorControl(at, 'POST', 'reset');
}
