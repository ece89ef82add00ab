// The portal emulator of this run, started by the harness (test/harness/emulator.mjs) and handed to the
// extension host in the environment variable PORTAL_EMULATOR: the JSON line the emulator printed.
// Its test interface (/_emulator/..., test/emulator/README.md) sets the scene: reset, faults, request log.
import { emulatorControl as controlAt, resetEmulator as resetAt } from '../../support/emulator';
import { testApi } from './extension';

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
  if (!raw)
    throw new Error('No emulator in this run: PORTAL_EMULATOR is not set (test/harness/runIntegration.mjs and runElectron.mjs set it).');
  return JSON.parse(raw) as EmulatorInfo;
}

/** This run's emulator through the one test-interface call of test/support: `emulatorControl('POST', 'faults', {...})`. */
export function emulatorControl<T = unknown>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
  return controlAt<T>(emulator(), method, path, body);
}

/**
 * Back to the seed: records, faults, request log, webhooks (the demo client's tokens stay valid). The rows
 * this window keeps of views are dropped too: one copy of a view is shared by every place showing it, and a
 * copy read before the reset would stand for the portal after it.
 */
export async function resetEmulator(): Promise<void> {
  await resetAt(emulator());
  (await testApi()).rows.drop();
}
