// The portal emulator of this run, started by the harness (test/harness/emulator.mjs) and handed to the
// extension host in the environment variable PORTAL_EMULATOR: the JSON line the emulator printed.
// Its test interface (/_emulator/..., test/emulator/README.md) sets the scene: reset, faults, request log.

export interface EmulatorInfo {
  /** http://127.0.0.1:<port> */
  base_url: string;
  client_id: string;
  client_secret: string;
  redirect_uri: string;
  views: Array<{ app_id: string; view_id: string; name: string }>;
}

/** This run's emulator; throws a clear error when the harness started none. */
export function emulator(): EmulatorInfo {
  const raw = process.env.PORTAL_EMULATOR;
  if (!raw) throw new Error('No emulator in this run: PORTAL_EMULATOR is not set (test/harness/runIntegration.mjs and runElectron.mjs set it).');
  return JSON.parse(raw) as EmulatorInfo;
}

/** A call to the emulator's test interface: `emulatorControl('POST', 'faults', {...})`. Throws on 4xx/5xx. */
export async function emulatorControl<T = unknown>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${emulator().base_url}/_emulator/${path.replace(/^\//, '')}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`emulator ${method} /_emulator/${path}: HTTP ${response.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Back to the seed: records, faults, request log, webhooks (the demo client's tokens stay valid). */
export async function resetEmulator(): Promise<void> {
  await emulatorControl('POST', 'reset');
}
