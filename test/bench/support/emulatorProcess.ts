// The emulator in a process of its own for a benchmark, as a portal would be: the harness's CLI start.
// BENCH_PIN=1 (Linux, with taskset) gives the emulator a core of its own and this process the other:
// on a 2-core machine, a client's CPU then no longer takes time from the portal it measures, as with a
// portal on another machine. The figures of test/bench/README.md are measured without it.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PortalClient } from '../../../src/api/client';
import { clientCredentials } from '../../../src/api/oauth';
import { repoRoot } from '../../webview/support/repo';

export interface EmulatorProcess {
  info: { base_url: string; client_id: string; client_secret: string };
  child?: { pid?: number };
  stop(): Promise<void>;
}

/** Whether this run pins the emulator and this process each to a core (BENCH_PIN=1). */
export const PINNED = process.env.BENCH_PIN === '1';

/** Starts the emulator (`args` beside --quiet), pinned to core 1 and this process to core 0 when PINNED. */
export async function startEmulatorProcess(args: readonly string[] = []): Promise<EmulatorProcess> {
  const harness = (await import(pathToFileURL(join(repoRoot(), 'test', 'harness', 'emulator.mjs')).href)) as {
    startEmulator(options: { args?: string[] }): Promise<EmulatorProcess>;
  };
  const emulator = await harness.startEmulator({ args: ['--quiet', ...args] });
  if (PINNED) {
    // -a: every thread (the thread pool's and V8's too), so each side keeps to its core.
    execFileSync('taskset', ['-a', '-p', '-c', '1', String(emulator.child?.pid)], { stdio: 'ignore' });
    execFileSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
  }
  return emulator;
}

/** A portal client signed in to the emulator process with client credentials (the token is not renewed). */
export async function emulatorClient(emulator: EmulatorProcess): Promise<{ client: PortalClient; token: string }> {
  const { base_url: baseUrl, client_id: clientId, client_secret: clientSecret } = emulator.info;
  const token = (await clientCredentials({ baseUrl, clientId, clientSecret })).accessToken;
  return {
    client: new PortalClient({ baseUrl, tokens: { accessToken: async () => token, renewAfterUnauthorized: async () => undefined } }),
    token,
  };
}
