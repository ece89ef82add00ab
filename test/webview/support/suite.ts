// The environment of a webview test file: the emulator (with a signed-in client), the static server of
// the built panels, and one Chromium, started before the file's tests and stopped after them.
import type { Browser } from 'playwright-core';
import type { PortalClient } from '../../../src/api/client';
import { launchChromium, PanelServer } from './panelPage';
import { clientFor, startPortal, type Emulator } from '../../support/portal';

export interface PanelEnvironment {
  browser: Browser;
  server: PanelServer;
  emulator: Emulator;
  client: PortalClient;
}

export function usePanelEnvironment(options: { bigViewRecords?: number } = {}): () => PanelEnvironment {
  let environment: PanelEnvironment | undefined;
  let parts: Partial<PanelEnvironment> = {};
  before(async () => {
    const emulator = await startPortal({ bigViewRecords: options.bigViewRecords ?? 500 });
    const { client } = clientFor(emulator);
    parts = { emulator, client };
    const server = new PanelServer();
    parts.server = server;
    await server.start();
    const browser = await launchChromium();
    environment = { browser, server, emulator, client };
  });
  after(async () => {
    await environment?.browser.close();
    await parts.server?.stop();
    await parts.emulator?.close();
  });
  return () => {
    if (!environment) throw new Error('The panel environment exists only while the tests of the file run.');
    return environment;
  };
}
