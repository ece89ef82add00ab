// Where the repository is, from a built test in out/test/webview, and the harness's own helpers (plain
// .mjs modules, loaded at run time so the bundle does not inline them).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

export function repoRoot(): string {
  let dir = __dirname;
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'portal-explorer') return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`No portal-explorer package.json above ${__dirname}.`);
    dir = parent;
  }
}

interface HarnessSetup {
  findChromium(): string | undefined;
}

interface HarnessBrowser {
  BROWSER_ARGS: string[];
}

/** The Chromium the harness uses (test/harness/setup.mjs installs it: `node test/harness/setup.mjs webview`). */
export async function chromiumLaunchOptions(): Promise<{ executablePath: string; args: string[] }> {
  const root = repoRoot();
  const setup = (await import(pathToFileURL(join(root, 'test', 'harness', 'setup.mjs')).href)) as HarnessSetup;
  const browser = (await import(pathToFileURL(join(root, 'test', 'harness', 'browser.mjs')).href)) as HarnessBrowser;
  const executablePath = setup.findChromium();
  if (!executablePath) throw new Error('No Chromium found: run `node test/harness/setup.mjs webview` (npm run test:webview does).');
  return { executablePath, args: browser.BROWSER_ARGS };
}
