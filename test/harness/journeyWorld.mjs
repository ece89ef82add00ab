// The world of the journey suite (test/journeys): the emulator, one isolated code-server with Portal
// Explorer installed as `npm start` installs it, and one headless Chromium showing the workbench, all on
// 127.0.0.1 and free ports. Nothing here acts for the user: the journeys drive the page themselves.
//
// The extension is the development folder linked into the profile's extensions folder (as `npm start`
// does), not a .vsix: no packaging step in every run (the packaged suite tests the artifact), and code-server
// runs WITHOUT the smoke-test driver, which would hide notification toasts and refuse dialogs, i.e. exactly
// what a person sees and answers.
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser, VIEWPORT } from './browser.mjs';
import { createProfile, removeProfile, startCodeServer, TEST_SETTINGS } from './codeServer.mjs';
import { codeServerCallbackPath, extensionIdentity, ROOT } from './config.mjs';
import { startEmulator } from './emulator.mjs';
import { freePort } from './processes.mjs';

/** The connection file of `npm start`: the demo's pre-connected Client Credentials portal. */
export function writeDemoConnection(profile, info, label = 'Demo portal') {
  const file = join(profile.userData, 'portal-connection.json');
  const connection = { label, baseUrl: info.base_url, clientId: info.client_id, clientSecret: info.client_secret, flow: 'clientCredentials' };
  writeFileSync(file, `${JSON.stringify(connection, null, 2)}\n`, { mode: 0o600 });
  return file;
}

/** Installs the development folder into `profile` as `npm start` does: a link in its extensions folder. */
export function linkExtension(profile) {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  symlinkSync(ROOT, join(profile.extensions, extensionIdentity(manifest).folder), 'dir');
}

/** The emulator arguments of `npm start`: code-server's own call-back registered with the demo client. */
export function demoEmulatorArgs() {
  return ['--redirect-uri', `http://127.0.0.1${codeServerCallbackPath()}`];
}

/**
 * Starts the emulator, code-server and Chromium. `settings` go into the profile's user settings; `logs`
 * is the folder of the processes' logs. Resolves with { emulator, server, browser, context, page,
 * profile, workbenchUrl, close }; `page` is the workbench, already loaded.
 */
export async function startJourneyWorld({ chromium, logs, settings = {}, emulatorArgs = [] }) {
  const held = [];
  const close = async () => {
    for (const stop of held.reverse()) await stop().catch(() => {});
  };
  try {
    const emulator = await startEmulator({ args: [...demoEmulatorArgs(), ...emulatorArgs], logFile: join(logs, 'emulator.log') });
    held.push(() => emulator.stop());
    // The webhook receiver's default port may be taken by another VS Code on this machine (npm start).
    const profile = createProfile({ prefix: 'portal-explorer-journeys-', settings: { ...TEST_SETTINGS, 'portal.webhooks.port': await freePort(), ...settings } });
    held.push(async () => removeProfile(profile));
    linkExtension(profile);
    const connectionFile = writeDemoConnection(profile, emulator.info);
    const server = await startCodeServer({
      port: await freePort(),
      profile,
      folder: profile.workspace,
      testing: false,
      logFile: join(logs, 'code-server.log'),
      env: { PORTAL_EXPLORER_CONNECTION_FILE: connectionFile },
    });
    held.push(() => server.stop());
    const browser = await launchBrowser(chromium);
    held.push(() => browser.close());
    const context = await browser.newContext({ viewport: VIEWPORT, permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await context.newPage();
    const workbenchUrl = `${server.url}/?folder=${encodeURIComponent(profile.workspace)}`;
    await page.goto(workbenchUrl);
    return { emulator, server, browser, context, page, profile, workbenchUrl, close };
  } catch (error) {
    await close();
    throw error;
  }
}
