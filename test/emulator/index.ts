// The portal emulator: a real HTTP server on 127.0.0.1 that behaves like the portal of portal-api.md
// (README.md in this folder is the contract). startEmulator() runs one in this process; main.ts is the CLI.
import { Context } from './context';
import type { EmulatorOptions } from './options';
import { resolveOptions } from './options';
import { buildServer } from './server';
import { startInfo } from './startInfo';

export type { EmulatorOptions, ErrorStyle, WriteResponse } from './options';
export { OptionError } from './options';

export interface RunningEmulator {
  /** Like http://127.0.0.1:PORT, without a trailing slash; the API lives under `${baseUrl}/api/v1/...`. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  views: Array<{ app_id: string; view_id: string; name: string }>;
  close(): Promise<void>;
}

export async function startEmulator(options?: EmulatorOptions): Promise<RunningEmulator> {
  const ctx = new Context(resolveOptions(options));
  const server = await buildServer(ctx);
  await server.listen({ host: '127.0.0.1', port: ctx.options.port });
  const address = server.server.address();
  if (address === null || typeof address === 'string') throw new Error('The emulator is not listening on a TCP port.');
  ctx.baseUrl = `http://127.0.0.1:${address.port}`;
  const info = startInfo(ctx);
  let closing: Promise<void> | undefined;
  return {
    baseUrl: info.base_url,
    clientId: info.client_id,
    clientSecret: info.client_secret,
    redirectUri: info.redirect_uri,
    views: info.views,
    close: () => {
      closing ??= (async () => {
        await ctx.webhooks.close();
        await server.close();
      })();
      return closing;
    },
  };
}
