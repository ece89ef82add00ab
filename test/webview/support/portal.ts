// The emulator and a signed-in portal client for the webview tests: the panels get real columns and rows
// from the emulator over HTTP, as the host would hand them over.
import { PortalClient } from '../../../src/api/client';
import { clientCredentials } from '../../../src/api/oauth';
import { startEmulator } from '../../emulator';

export type Emulator = Awaited<ReturnType<typeof startEmulator>>;

export async function startPortal(options: { bigViewRecords?: number } = {}): Promise<{ emulator: Emulator; client: PortalClient }> {
  const emulator = await startEmulator({ port: 0, quiet: true, bigViewRecords: options.bigViewRecords ?? 500 });
  let token: string | undefined;
  const signIn = async (): Promise<string> => (await clientCredentials({ baseUrl: emulator.baseUrl, clientId: emulator.clientId, clientSecret: emulator.clientSecret })).accessToken;
  const client = new PortalClient({
    baseUrl: emulator.baseUrl,
    tokens: {
      accessToken: async () => (token ??= await signIn()),
      renewAfterUnauthorized: async () => (token = await signIn()),
    },
  });
  return { emulator, client };
}
