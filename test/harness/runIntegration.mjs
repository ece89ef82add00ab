// `npm run test:integration` (after setup.mjs and the build): starts the emulator, the driver and an
// isolated code-server on free 127.0.0.1 ports, opens the workbench in headless Chromium with the extension
// under development and the mocha suite of test/integration running in its extension host, and ends with
// `integration: N passed, N failed`. Exit code 0 only when every test passed. A time limit
// (PORTAL_TEST_TIMEOUT_MINUTES, 15 by default) stops a run that hangs; every process started is stopped.
//
// `--packaged` tests the artifact instead (the "packaged" suite): builds the .vsix with `npm run package`,
// installs it into the profile with `code-server --install-extension`, opens the workbench without
// extensionDevelopmentPath, with the emulator connected through PORTAL_EXPLORER_CONNECTION_FILE (as
// `npm start` does), and runs test/integration/packaged (its own entry point) in the extension host;
// ends with `packaged: N passed, N failed`. `--vsix=<file>` tests a .vsix that `npm run package` made
// before (npm test makes it before the development build, so that no suite sees dist/ rebuilt under it).
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CODE_SERVER_ENTRY, RESULTS, ROOT, SCREENSHOTS } from './config.mjs';
import { launchBrowser, newWorkbenchPage } from './browser.mjs';
import { createProfile, installExtension, removeProfile, startCodeServer, TEST_SETTINGS, workbenchUrl } from './codeServer.mjs';
import { startDriver } from './driver.mjs';
import { EMULATOR_MAIN, startEmulator } from './emulator.mjs';
import { freePort, stillRunning, stopAll, stopAllOnSignals } from './processes.mjs';
import { packageVsix, writeConnectionFile, writeRunnerExtension } from './packaged.mjs';
import { findChromium } from './setup.mjs';

const LIMIT_MINUTES = Number(process.env.PORTAL_TEST_TIMEOUT_MINUTES ?? 15);
const VERBOSE = process.env.PORTAL_TEST_VERBOSE === '1';
const PACKAGED = process.argv.includes('--packaged');
const PREBUILT_VSIX = process.argv.find((arg) => arg.startsWith('--vsix='))?.slice('--vsix='.length);
const SUITE = PACKAGED ? 'packaged' : 'integration';
const LOGS = join(RESULTS, 'logs', ...(PACKAGED ? ['packaged'] : []));
const SHOTS = PACKAGED ? join(SCREENSHOTS, 'packaged') : SCREENSHOTS;
const START_LIMIT_SECONDS = 180;
const TESTS_INDEX = join(ROOT, 'out', 'test', 'integration', ...(PACKAGED ? ['packaged'] : []), 'index.js');
/** The workbench's own chatter that arrives among the tests' lines; it stays in workbench.log. */
const WORKBENCH_NOISE =
  /^(Ignoring fetching additional builtin extensions|Updating additional builtin extensions cache|Resolving connection token|Resolved connection token|Creating a socket|\[(AccountPolicyGate|AgentHost[^\]]*|Service Worker|reconnection-grace-time)\])/;
/** The first line test/integration/index.ts prints; the workbench's own info lines before it are noise. */
const START_MARKER = 'Portal Explorer integration tests:';

const started = Date.now();
const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
const say = (message) => console.log(`[harness ${seconds()} s] ${message}`);

/** Everything this run holds open; closed by cleanup() whatever happens. */
const held = { browser: undefined, driver: undefined, profile: undefined };

async function cleanup() {
  await held.browser?.close().catch(() => {});
  held.browser = undefined;
  await held.driver?.close().catch(() => {});
  held.driver = undefined;
  await stopAll();
  removeProfile(held.profile);
  held.profile = undefined;
}

function preconditions() {
  const problems = [];
  if (!existsSync(CODE_SERVER_ENTRY))
    problems.push('code-server is not installed: run `node test/harness/setup.mjs integration` (npm run test:integration does).');
  if (!PACKAGED && !existsSync(join(ROOT, 'dist', 'extension.js'))) problems.push('the extension is not built: run `npm run build`.');
  if (!existsSync(TESTS_INDEX)) problems.push('the integration tests are not built: run `npm run build`.');
  if (!existsSync(EMULATOR_MAIN)) problems.push('the emulator is not built: run `npm run build`.');
  const chromium = findChromium();
  if (!chromium) problems.push('no Chromium found: run `node test/harness/setup.mjs integration`, or set PORTAL_CHROMIUM.');
  if (problems.length > 0) throw new Error(`Cannot run the integration suite:\n  - ${problems.join('\n  - ')}`);
  return chromium;
}

/** The last `N passed, N failed` line the suite printed. */
function countsFrom(lines) {
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const match = /^(\d+) passed, (\d+) failed/m.exec(lines[index]);
    if (match) return { passed: Number(match[1]), failed: Number(match[2]) };
  }
  return undefined;
}

async function main() {
  const chromium = preconditions();
  // The packaged suite's folder sits inside the integration suite's, and npm test runs the two side by side.
  if (PACKAGED) rmSync(SHOTS, { recursive: true, force: true });
  else
    for (const name of existsSync(SHOTS) ? readdirSync(SHOTS) : [])
      if (name !== 'packaged') rmSync(join(SHOTS, name), { recursive: true, force: true });
  mkdirSync(LOGS, { recursive: true });
  if (PREBUILT_VSIX && !existsSync(PREBUILT_VSIX)) throw new Error(`--vsix=${PREBUILT_VSIX}: no such file.`);
  if (PACKAGED && !PREBUILT_VSIX) say('packaging the extension (npm run package)');
  const vsix = PACKAGED ? (PREBUILT_VSIX ?? (await packageVsix())) : undefined;

  const emulator = await startEmulator({ logFile: join(LOGS, 'emulator.log') });
  const env = { PORTAL_EMULATOR: JSON.stringify(emulator.info) };
  say(`emulator at ${emulator.info.base_url}`);

  let page;
  held.driver = await startDriver({ page: () => page, screenshotDir: SHOTS, log: (line) => VERBOSE && say(line) });
  // PORTAL_NO_DRIVER=1 runs the suite as desktop VS Code (test:electron) would: without the browser driver.
  env.PORTAL_DRIVER_URL = process.env.PORTAL_NO_DRIVER === '1' ? '' : held.driver.url;

  held.profile = createProfile({ settings: TEST_SETTINGS });
  if (vsix) {
    await installExtension(held.profile, vsix);
    say(`installed ${vsix} into the profile's extensions folder`);
    env.PORTAL_PACKAGED_EXTENSIONS_DIR = held.profile.extensions;
    env.PORTAL_PACKAGED_VSIX = vsix;
    env.PORTAL_EXPLORER_CONNECTION_FILE = writeConnectionFile(held.profile, emulator.info);
  }
  // The workbench runs extensionTestsPath only for an extension under development: in packaged mode that
  // is an empty stand-in (another id, no code), so Portal Explorer itself is the installed copy.
  const developmentPath = vsix ? writeRunnerExtension(held.profile) : ROOT;
  const server = await startCodeServer({ port: await freePort(), profile: held.profile, env, logFile: join(LOGS, 'code-server.log') });
  say(`code-server at ${server.url}`);

  const output = [];
  const logFile = [];
  let suiteStarted = false;
  let resolveExit;
  const exited = new Promise((resolve) => (resolveExit = resolve));
  held.browser = await launchBrowser(chromium);
  page = await newWorkbenchPage(held.browser, {
    onLog: (level, message) => {
      logFile.push(`${level}: ${message}`);
      if (message.startsWith(START_MARKER)) suiteStarted = true;
      if (VERBOSE) console.log(`[${level}] ${message}`);
      else if (suiteStarted && !(level === 'info' && WORKBENCH_NOISE.test(message)))
        console.log(level === 'info' ? message : `[${level}] ${message}`);
      else if (level === 'error') console.log(`[workbench ${level}] ${message.split('\n')[0]}`);
      output.push(message);
    },
    onExit: (code) => resolveExit(code),
  });
  page.on('crash', () => resolveExit('the browser page crashed'));
  held.browser.on('disconnected', () => resolveExit('the browser went away'));
  server.child.once('exit', (code, signal) =>
    resolveExit(`code-server exited (${signal ?? `code ${code}`}); see ${join(LOGS, 'code-server.log')}`),
  );
  emulator.child.once('exit', (code, signal) =>
    resolveExit(`the emulator exited (${signal ?? `code ${code}`}); see ${join(LOGS, 'emulator.log')}`),
  );
  // A workbench that never starts the tests should not wait for the whole time limit.
  const startLimit = setTimeout(() => {
    if (!suiteStarted)
      resolveExit(`the tests did not start within ${START_LIMIT_SECONDS} s of opening the workbench; see ${join(LOGS, 'workbench.log')}`);
  }, START_LIMIT_SECONDS * 1000);
  page.on('pageerror', (error) => logFile.push(`pageerror: ${error.message}`));
  await page.goto(
    workbenchUrl(server, { folder: held.profile.workspace, extensionDevelopmentPath: developmentPath, extensionTestsPath: TESTS_INDEX }),
  );
  say('workbench opened; the tests run in its extension host');

  const code = await exited;
  clearTimeout(startLimit);
  writeFileSync(join(LOGS, 'workbench.log'), `${logFile.join('\n')}\n`);
  if (typeof code !== 'number') throw new Error(`The run broke off: ${code}.`);
  const counts = countsFrom(output);
  if (!counts)
    throw new Error(
      `The extension host exited (code ${code}) without reporting its tests; see ${join(LOGS, 'workbench.log')} and code-server.log.`,
    );
  say(`extension host exited with code ${code}`);
  return { code, counts };
}

stopAllOnSignals(cleanup);
const limit = setTimeout(async () => {
  console.error(
    `\n✘ ${SUITE}: the run did not finish within ${LIMIT_MINUTES} minutes (PORTAL_TEST_TIMEOUT_MINUTES); stopping code-server, the browser and the emulator.`,
  );
  await cleanup();
  process.exit(1);
}, LIMIT_MINUTES * 60_000);

let exitCode = 1;
try {
  const { code, counts } = await main();
  console.log(`${SUITE}: ${counts.passed} passed, ${counts.failed} failed`);
  exitCode = code === 0 && counts.failed === 0 ? 0 : 1;
} catch (error) {
  console.error(`\n✘ ${error instanceof Error ? error.message : error}`);
} finally {
  clearTimeout(limit);
  await cleanup();
  const left = stillRunning();
  if (left.length > 0) console.error(`✘ still running after cleanup: ${left.join(', ')}`);
}
process.exit(exitCode);
