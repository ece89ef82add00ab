// An isolated code-server: its own user data, extensions, XDG and home folders in a temporary profile, so
// nothing reaches the user's VS Code, home directory or settings. Bound to 127.0.0.1 only, no auth.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CODE_SERVER_ENTRY, NODE_BIN, NODE_DIR } from './config.mjs';
import { runCommand, startProcess, stopProcess, waitForHttp } from './processes.mjs';

/** Settings of the isolated profile: no tours, tips, update checks or telemetry; nothing waits on a network. */
const QUIET_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.enableExperiments': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'security.workspace.trust.enabled': false,
  'chat.disableAIFeatures': true,
  'files.autoSave': 'off',
  // npm start's workspace is a folder of the checkout: without this, VS Code offers to open the checkout's
  // repository the moment the demo opens.
  'git.openRepositoryInParentFolders': 'never',
};

/** Settings for test runs only: fewer background processes on a 2-core machine. */
export const TEST_SETTINGS = { 'git.enabled': false };

/**
 * A fresh profile folder: user-data/ (with User/settings.json), extensions/, home/, xdg/ and workspace/.
 * `settings` are merged over the quiet defaults.
 */
export function createProfile({ prefix = 'portal-explorer-vscode-', settings = {}, parent = tmpdir() } = {}) {
  const dir = mkdtempSync(join(parent, prefix));
  const profile = {
    dir,
    userData: join(dir, 'user-data'),
    extensions: join(dir, 'extensions'),
    home: join(dir, 'home'),
    xdg: join(dir, 'xdg'),
    workspace: join(dir, 'workspace'),
  };
  for (const path of [
    profile.extensions,
    profile.home,
    profile.workspace,
    join(profile.userData, 'User'),
    ...['config', 'data', 'cache', 'state'].map((name) => join(profile.xdg, name)),
  ]) {
    mkdirSync(path, { recursive: true });
  }
  writeFileSync(join(profile.userData, 'User', 'settings.json'), `${JSON.stringify({ ...QUIET_SETTINGS, ...settings }, null, 2)}\n`);
  return profile;
}

export function removeProfile(profile) {
  if (profile) rmSync(profile.dir, { recursive: true, force: true, maxRetries: 3 });
}

/** The environment of code-server and so of its extension host: isolated, with `extra` added. */
function isolatedEnv(profile, extra) {
  const env = {};
  for (const [name, value] of Object.entries(process.env)) {
    // A run started from a VS Code terminal must not hand that VS Code's hooks to this one; npm's own
    // variables (the machine's nodedir among them) are not for code-server either.
    if (/^(VSCODE_|ELECTRON_|npm_)/i.test(name)) continue;
    env[name] = value;
  }
  return {
    ...env,
    PATH: `${join(NODE_DIR, 'bin')}:${process.env.PATH}`,
    HOME: profile.home,
    XDG_CONFIG_HOME: join(profile.xdg, 'config'),
    XDG_DATA_HOME: join(profile.xdg, 'data'),
    XDG_CACHE_HOME: join(profile.xdg, 'cache'),
    XDG_STATE_HOME: join(profile.xdg, 'state'),
    // No extension gallery: the workbench would otherwise look up open-vsx.org, which is not ours to reach.
    EXTENSIONS_GALLERY: '{}',
    ...extra,
  };
}

/**
 * Starts code-server on 127.0.0.1:`port` with `profile` (and `folder` opened by default), and waits for /healthz.
 * `testing` turns on VS Code's smoke-test driver (test runs); `env` reaches the extension host (the tests read the driver's and emulator's addresses from it).
 */
export async function startCodeServer({ port, profile, folder, env = {}, logFile, testing = true, timeoutMs = 90_000 }) {
  const args = [
    CODE_SERVER_ENTRY,
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--user-data-dir',
    profile.userData,
    '--extensions-dir',
    profile.extensions,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    // Without it the released build silently ignores extensionDevelopmentPath and extensionTestsPath. It
    // also hides notification toasts and refuses dialogs, so it is for test runs only.
    ...(testing ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
    // With a folder, the plain address opens it (npm start); without, each test run's URL names its own.
    ...(folder ? [folder] : ['--ignore-last-opened']),
  ];
  const child = startProcess('code-server', NODE_BIN, args, { env: isolatedEnv(profile, env), cwd: profile.home, logFile });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${url}/healthz`, { timeoutMs, child, what: 'code-server' });
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
  return { url, port, child, stop: () => stopProcess(child) };
}

/**
 * Installs a .vsix into `profile`'s extensions folder as a user would (`code-server --install-extension`),
 * with the same isolated environment; resolves with what code-server printed.
 */
export function installExtension(profile, vsix) {
  const args = [
    CODE_SERVER_ENTRY,
    '--user-data-dir',
    profile.userData,
    '--extensions-dir',
    profile.extensions,
    '--install-extension',
    vsix,
  ];
  return runCommand(NODE_BIN, args, { env: isolatedEnv(profile, {}), cwd: profile.home, minutes: 3, quiet: true });
}

/** The workbench address that opens `folder` and, when given, loads the extension and its test runner. */
export function workbenchUrl(server, { folder, extensionDevelopmentPath, extensionTestsPath }) {
  const remote = (path) => `vscode-remote://127.0.0.1:${server.port}${path}`;
  const payload = [];
  if (extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', remote(extensionDevelopmentPath)]);
  if (extensionTestsPath) payload.push(['extensionTestsPath', remote(extensionTestsPath)]);
  payload.push(['skipWelcome', 'true']);
  const query = new URLSearchParams({ folder, payload: JSON.stringify(payload) });
  return `${server.url}/?${query}`;
}
