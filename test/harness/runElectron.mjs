// `npm run test:electron`: the same mocha suite (test/integration) in desktop VS Code through
// @vscode/test-electron, for machines that can download VS Code (these cannot: there it stops at once
// with a clear message; use npm run test:integration). PORTAL_VSCODE_EXECUTABLE names a desktop VS Code
// already installed instead of downloading one. Isolated like the code-server run: own user data and
// extensions folders, other extensions disabled, the emulator started the same way. There is no browser
// driver here: tests tagged [browser] are left out (and said so) and screenshots are skipped.
// On a Linux machine without a display, run it under xvfb-run.
import { downloadAndUnzipVSCode, runTests } from '@vscode/test-electron';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CACHE, RESULTS, ROOT, VSCODE_VERSION } from './config.mjs';
import { createProfile, removeProfile } from './codeServer.mjs';
import { EMULATOR_MAIN, startEmulator } from './emulator.mjs';
import { killDescendants, stopAll, stopAllOnSignals } from './processes.mjs';

const LIMIT_MINUTES = Number(process.env.PORTAL_TEST_TIMEOUT_MINUTES ?? 15);
const TESTS_INDEX = join(ROOT, 'out', 'test', 'integration', 'index.js');
const LOGS = join(RESULTS, 'logs');

let profile;
async function cleanup() {
  killDescendants(); // VS Code, started by runTests, which hands out no handle to stop it
  await stopAll();
  removeProfile(profile);
  profile = undefined;
}

/** The desktop VS Code to run: named, cached, or downloaded (with a short idle timeout). */
async function vscodeExecutable() {
  const named = process.env.PORTAL_VSCODE_EXECUTABLE;
  if (named) {
    if (!existsSync(named)) throw new Error(`PORTAL_VSCODE_EXECUTABLE=${named} does not exist.`);
    return named;
  }
  const version = process.env.PORTAL_VSCODE_VERSION ?? VSCODE_VERSION;
  try {
    return await downloadAndUnzipVSCode({ version, cachePath: CACHE, extensionDevelopmentPath: ROOT, timeout: 15_000 });
  } catch (error) {
    throw new Error(
      `@vscode/test-electron could not download VS Code ${version}: ${error instanceof Error ? error.message : error}\n` +
        "  This machine cannot reach VS Code's download server. Run the same suite in code-server with\n" +
        '  npm run test:integration, or set PORTAL_VSCODE_EXECUTABLE to a desktop VS Code that is installed.',
    );
  }
}

/** Copies what VS Code prints through, and keeps it to read the suite's closing line. */
function captureStdout() {
  let captured = '';
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = (chunk, ...rest) => {
    captured += chunk;
    return write(chunk, ...rest);
  };
  return () => captured;
}

async function main() {
  for (const [path, advice] of [
    [TESTS_INDEX, 'npm run build'],
    [EMULATOR_MAIN, 'npm run build'],
  ]) {
    if (!existsSync(path)) throw new Error(`${path} is missing: run ${advice}.`);
  }
  const executable = await vscodeExecutable();
  mkdirSync(LOGS, { recursive: true });
  const emulator = await startEmulator({ logFile: join(LOGS, 'emulator-electron.log') });
  profile = createProfile({ prefix: 'portal-explorer-electron-', settings: { 'git.enabled': false } });
  const output = captureStdout();
  let code;
  try {
    code = await runTests({
      vscodeExecutablePath: executable,
      extensionDevelopmentPath: ROOT,
      extensionTestsPath: TESTS_INDEX,
      launchArgs: [
        profile.workspace,
        '--user-data-dir',
        profile.userData,
        '--extensions-dir',
        profile.extensions,
        '--disable-extensions',
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
      ],
      // An empty PORTAL_DRIVER_URL: no browser driver under Electron.
      extensionTestsEnv: { PORTAL_EMULATOR: JSON.stringify(emulator.info), PORTAL_DRIVER_URL: '' },
    });
  } catch (error) {
    code = typeof error?.code === 'number' ? error.code : 1;
  }
  const counts = [...output().matchAll(/^(\d+) passed, (\d+) failed/gm)].pop();
  if (!counts) throw new Error(`VS Code exited (code ${code}) without reporting the suite's tests.`);
  return { code, passed: Number(counts[1]), failed: Number(counts[2]) };
}

stopAllOnSignals(cleanup);
const limit = setTimeout(async () => {
  console.error(
    `\n✘ electron: the run did not finish within ${LIMIT_MINUTES} minutes (PORTAL_TEST_TIMEOUT_MINUTES); stopping VS Code and the emulator.`,
  );
  await cleanup();
  process.exit(1);
}, LIMIT_MINUTES * 60_000);

let exitCode = 1;
try {
  const { code, passed, failed } = await main();
  console.log(`electron: ${passed} passed, ${failed} failed`);
  exitCode = code === 0 && failed === 0 ? 0 : 1;
} catch (error) {
  console.error(`\n✘ ${error instanceof Error ? error.message : error}`);
} finally {
  clearTimeout(limit);
  await cleanup();
}
process.exit(exitCode);
