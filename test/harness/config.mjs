// The pinned versions and the folders of the integration harness, in one place. Node's own modules only:
// these scripts run before node_modules exists.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Pinned: code-server 4.139.x is VS Code 1.139 and needs Node 24 (the machine's Node 20 cannot run it). */
export const NODE_VERSION = '24.21.0';
export const CODE_SERVER_VERSION = '4.139.1';

/** Desktop VS Code for `npm run test:electron` (downloaded by @vscode/test-electron; the same 1.139 as code-server). */
export const VSCODE_VERSION = '1.139.1';

/** The git-ignored cache, like @vscode/test-electron's own `.vscode-test/`. */
export const CACHE = join(ROOT, '.vscode-test');
export const NODE_DIR = join(CACHE, `node-v${NODE_VERSION}`);
export const NODE_BIN = join(NODE_DIR, 'bin', 'node');
export const CODE_SERVER_DIR = join(CACHE, `code-server-${CODE_SERVER_VERSION}`);
/** code-server's route for the URI handler's call-back (what env.asExternalUri gives for vscode:// URIs). */
export function codeServerCallbackPath() {
  const product = JSON.parse(readFileSync(join(CODE_SERVER_DIR, 'node_modules', 'code-server', 'lib', 'vscode', 'product.json'), 'utf8'));
  return `/${product.quality}-${product.commit}/callback`;
}
export const CODE_SERVER_ENTRY = join(CODE_SERVER_DIR, 'node_modules', 'code-server', 'out', 'node', 'entry.js');

/** Screenshots and logs of test runs (git-ignored). */
export const RESULTS = join(ROOT, 'test-results');
export const SCREENSHOTS = join(RESULTS, 'screenshots');

/** Environment variables that name a Chromium or Chrome already on the machine, first wins. */
export const BROWSER_ENV_VARS = ['PORTAL_CHROMIUM', 'CHROME_PATH'];
/** Where Debian, Ubuntu and Google put their browsers. */
export const KNOWN_BROWSERS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

/** The extension's identity, as VS Code names it (publisher.name) and as its folder in an extensions dir. */
export function extensionIdentity(manifest) {
  return { id: `${manifest.publisher}.${manifest.name}`, folder: `${manifest.publisher}.${manifest.name}-${manifest.version}` };
}
