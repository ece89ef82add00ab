// The world of the journey suite (test/journeys): the emulator, one isolated code-server with Portal
// Explorer installed as `npm start` installs it, and one headless Chromium showing the workbench, all on
// 127.0.0.1 and free ports. Nothing here acts for the user: the journeys drive the page themselves.
//
// The extension is the development folder linked into the profile's extensions folder (as `npm start`
// does), not a .vsix: no packaging step in every run (the packaged suite tests the artifact), and code-server
// runs WITHOUT the smoke-test driver, which would hide notification toasts and refuse dialogs, i.e. exactly
// what a person sees and answers.
import { join } from 'node:path';
import { launchBrowser, VIEWPORT } from './browser.mjs';
import { startCodeServer, TEST_SETTINGS } from './codeServer.mjs';
import { demoEmulatorArgs, demoProfile, linkExtension, removeDemoProfile, writeDemoConnection } from './demo.mjs';
import { startEmulator } from './emulator.mjs';
import { freePort } from './processes.mjs';

/**
 * Starts the emulator, code-server and Chromium. `settings` go into the profile's user settings; `logs`
 * is the folder of the processes' logs; `workspace` the folder VS Code opens, kept when the world stops,
 * as the demo's is (Export and Download propose it). Resolves with { emulator, server, browser, context, page,
 * profile, workbenchUrl, close }; `page` is the workbench, already loaded.
 */
export async function startJourneyWorld({ chromium, logs, workspace, settings = {}, emulatorArgs = [] }) {
  const held = [];
  const close = async () => {
    for (const stop of held.reverse()) await stop().catch(() => {});
  };
  try {
    const emulator = await startEmulator({ args: [...demoEmulatorArgs(), ...emulatorArgs], logFile: join(logs, 'emulator.log') });
    held.push(() => emulator.stop());
    // The webhook receiver's default port may be taken by another VS Code on this machine (npm start).
    const profile = demoProfile({
      workspace,
      prefix: 'portal-explorer-journeys-',
      settings: { ...TEST_SETTINGS, 'portal.webhooks.port': await freePort(), ...settings },
    });
    held.push(async () => removeDemoProfile(profile));
    linkExtension(profile);
    // The journeys add the views they use as a person does (Add View…, by id, named "View <id>"), which
    // is what they test: their portal comes without the demo's named views.
    const connectionFile = writeDemoConnection(profile, emulator.info, { withViews: false });
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
