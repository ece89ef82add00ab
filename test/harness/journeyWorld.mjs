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

/** A fresh profile on `workspace` with the test settings and the development folder linked in. */
async function linkedProfile({ workspace, prefix, settings }) {
  // The webhook receiver's default port may be taken by another VS Code on this machine (npm start).
  const profile = demoProfile({ workspace, prefix, settings: { ...TEST_SETTINGS, 'portal.webhooks.port': await freePort(), ...settings } });
  try {
    linkExtension(profile);
  } catch (error) {
    removeDemoProfile(profile);
    throw error;
  }
  return profile;
}

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
    const profile = await linkedProfile({ workspace, prefix: 'portal-explorer-journeys-', settings });
    held.push(async () => removeDemoProfile(profile));
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

/**
 * A second VS Code of another person on the same machine (issue 32's teammate): a fresh profile (its own
 * user data, extensions folder, secrets) with Portal Explorer linked as above and NO portal connected,
 * its own code-server opening the same `workspace` (the one repository), and a page of its own browser
 * context in `browser`. Started only by the journey that needs it; `close` stops it and removes the profile.
 * Resolves with { server, context, page, profile, workbenchUrl, close }; `page` is the workbench, loaded.
 */
export async function startSecondProfile({ browser, logs, workspace, settings = {} }) {
  const held = [];
  const close = async () => {
    for (const stop of held.reverse()) await stop().catch(() => {});
  };
  try {
    const profile = await linkedProfile({ workspace, prefix: 'portal-explorer-journeys-second-', settings });
    held.push(async () => removeDemoProfile(profile));
    const server = await startCodeServer({
      port: await freePort(),
      profile,
      folder: profile.workspace,
      testing: false,
      logFile: join(logs, 'code-server-second.log'),
    });
    held.push(() => server.stop());
    const context = await browser.newContext({ viewport: VIEWPORT, permissions: ['clipboard-read', 'clipboard-write'] });
    held.push(() => context.close());
    const page = await context.newPage();
    const workbenchUrl = `${server.url}/?folder=${encodeURIComponent(profile.workspace)}`;
    await page.goto(workbenchUrl);
    return { server, context, page, profile, workbenchUrl, close };
  } catch (error) {
    await close();
    throw error;
  }
}
