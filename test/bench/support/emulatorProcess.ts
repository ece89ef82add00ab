// The emulator in a process of its own for a benchmark, as a portal would be: the harness's CLI start.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../../webview/support/repo';

export interface EmulatorProcess {
  info: { base_url: string; client_id: string; client_secret: string };
  stop(): Promise<void>;
}

export async function startEmulatorProcess(): Promise<EmulatorProcess> {
  const harness = (await import(pathToFileURL(join(repoRoot(), 'test', 'harness', 'emulator.mjs')).href)) as { startEmulator(options: { args?: string[] }): Promise<EmulatorProcess> };
  return harness.startEmulator({ args: ['--quiet'] });
}
