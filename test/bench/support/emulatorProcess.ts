// The emulator in a process of its own for a benchmark, as a portal would be: the harness's CLI start.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PortalClient } from '../../../src/api/client';
import { clientCredentials } from '../../../src/api/oauth';
import { repoRoot } from '../../webview/support/repo';

export interface EmulatorProcess {
  info: { base_url: string; client_id: string; client_secret: string };
  stop(): Promise<void>;
}

export async function startEmulatorProcess(): Promise<EmulatorProcess> {
  const harness = (await import(pathToFileURL(join(repoRoot(), 'test', 'harness', 'emulator.mjs')).href)) as { startEmulator(options: { args?: string[] }): Promise<EmulatorProcess> };
  return harness.startEmulator({ args: ['--quiet'] });
}

/** A portal client signed in to the emulator process with client credentials (the token is not renewed). */
export async function emulatorClient(emulator: EmulatorProcess): Promise<{ client: PortalClient; token: string }> {
  const { base_url: baseUrl, client_id: clientId, client_secret: clientSecret } = emulator.info;
  const token = (await clientCredentials({ baseUrl, clientId, clientSecret })).accessToken;
  return { client: new PortalClient({ baseUrl, tokens: { accessToken: async () => token, renewAfterUnauthorized: async () => undefined } }), token };
}
