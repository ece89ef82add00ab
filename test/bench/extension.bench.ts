// The extension as it ships: the size of its code (the production build in dist/) and of the .vsix, both as `npm run package` makes them, and its activation time as VS Code's extension host
// measures it. For that the .vsix is installed into an isolated code-server (as a user installs it, with
// the emulator as its pre-configured portal, so activation reads a real connection's secrets), and the
// workbench is loaded several times in a fresh window (a new extension host each time); each time
// "Developer: Startup Performance" is opened and Portal Explorer's row of its "Extension Activation Stats"
// read: the extension host's own ActivationTimes, codeLoadingTime (require of the bundle),
// activateCallTime (activate() until it returns its promise) and activateResolvedTime (until that promise
// resolves). The figure held to the target is their sum: the whole activation. (The Running Extensions
// view shows only the first two, which for an async activate() leaves out what follows its first await.)
//
// The extension activates when it is first needed (its view, a record, a command, a sign-in), not in the
// host's startup pass: the bench opens the Portal view as a user does. The bundle's figure is what
// activation loads: dist/extension.js and the ES modules it imports statically (dist/esm/; the chunks
// loaded later by import() are listed beside it, with the whole).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { repoRoot } from '../webview/support/repo';
import { median, ms, runBenchmark } from './support/report';

const LOADS = 5;
/** How long after the workbench appears the bench opens the Portal view (a user's first click comes later still). */
const STARTUP_SETTLE_MS = 5_000;
const TARGETS = { activationMs: 20, bundleBytes: 200 * 1024, vsixBytes: 1024 * 1024 };

interface Profile {
  dir: string;
  userData: string;
  extensions: string;
  workspace: string;
}

interface Harness {
  packaged: { packageVsix(): Promise<string>; writeConnectionFile(profile: Profile, info: unknown): string };
  codeServer: {
    createProfile(options?: { prefix?: string }): Profile;
    removeProfile(profile: Profile): void;
    installExtension(profile: Profile, vsix: string): Promise<string>;
    startCodeServer(options: {
      port: number;
      profile: Profile;
      folder?: string;
      env?: Record<string, string>;
      testing?: boolean;
    }): Promise<{ url: string; port: number; stop(): Promise<void> }>;
    workbenchUrl(server: { url: string; port: number }, options: { folder: string }): string;
  };
  emulator: { startEmulator(options: { args?: string[] }): Promise<{ info: unknown; stop(): Promise<void> }> };
  processes: { freePort(): Promise<number> };
  browser: { launchBrowser(executablePath: string): Promise<Browser>; newWorkbenchPage(browser: Browser, hooks: object): Promise<Page> };
  setup: { findChromium(): string | undefined };
}

async function harness(): Promise<Harness> {
  const load = async <T>(name: string): Promise<T> =>
    (await import(pathToFileURL(join(repoRoot(), 'test', 'harness', `${name}.mjs`)).href)) as T;
  return {
    packaged: await load('packaged'),
    codeServer: await load('codeServer'),
    emulator: await load('emulator'),
    processes: await load('processes'),
    browser: await load('browser'),
    setup: await load('setup'),
  };
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(0)} KB`;
}

interface ActivationTimes {
  codeLoadingMs: number;
  activateCallMs: number;
  activateResolvedMs: number;
}

const EXTENSION_ID = 'portal-labs.portal-explorer';

/** The extension's code files and which of them activation loads (the static imports from dist/extension.js). */
function codeFiles(): { all: Map<string, number>; atActivation: Set<string> } {
  const dist = join(repoRoot(), 'dist');
  const all = new Map<string, number>([['extension.js', statSync(join(dist, 'extension.js')).size]]);
  for (const name of readdirSync(join(dist, 'esm')))
    if (name.endsWith('.mjs')) all.set(`esm/${name}`, statSync(join(dist, 'esm', name)).size);
  const atActivation = new Set(['extension.js']);
  const pending = ['esm/extension.mjs'];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (atActivation.has(file)) continue;
    atActivation.add(file);
    // Static imports only: `from"./x.mjs"` and a bare `import"./x.mjs"` (spaces or not); import("./x.mjs") waits
    // for first use.
    for (const match of readFileSync(join(dist, file), 'utf8').matchAll(/(?:from|import)\s*"\.\/([^"]+\.mjs)"/g))
      pending.push(`esm/${match[1]}`);
  }
  return { all, atActivation };
}

async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget input').waitFor({ timeout: 10_000 });
  await page.keyboard.type(title);
  await page
    .locator(`.quick-input-widget .monaco-list-row:has-text("${title.replace(/^[^:]*: /, '')}")`)
    .first()
    .waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
}

/**
 * Portal Explorer's row of "Extension Activation Stats" in "Developer: Startup Performance": the
 * extension host's own ActivationTimes (Load Code, Call Activate, Finish Activate, in ms).
 */
async function activationTimes(page: Page): Promise<ActivationTimes> {
  // The extension activates when it is first needed: here, as a user starts, by opening its view from the
  // activity bar once the window has loaded (each load is a new browser context, so the window opens on
  // the Explorer). The pause lets the host finish its startup pass (the onStartupFinished extensions),
  // which would otherwise run inside the extension's timed load and be counted as its own.
  const portalView = page.locator('.activitybar .action-item a[aria-label^="Portal"]').first();
  await portalView.waitFor({ timeout: 60_000 });
  await page.waitForTimeout(STARTUP_SETTLE_MS);
  await portalView.click();
  await page.locator('.pane-header:has-text("Explorer")').first().waitFor({ timeout: 30_000 });
  for (let tries = 0; tries < 20; tries += 1) {
    await runCommand(page, 'Developer: Startup Performance');
    const editor = page.locator('.editor-instance .monaco-editor').first();
    await editor.waitFor({ timeout: 30_000 });
    await editor.click();
    // Find the row (the editor renders only the lines in sight), then read the line the cursor is on.
    await page.keyboard.press('Control+F');
    await page.keyboard.type(`${EXTENSION_ID}|`);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    const lines = await page.locator('.editor-instance .monaco-editor .view-line').allTextContents();
    const row = lines.map((line) => line.replace(/\u00a0/g, ' ')).find((line) => /portal-labs\.portal-explorer\s*\|/.test(line));
    const cells = row?.split('|').map((cell) => cell.trim());
    const at = cells?.findIndex((cell) => cell === EXTENSION_ID) ?? -1;
    if (cells && at >= 0) {
      const [codeLoadingMs, activateCallMs, activateResolvedMs] = cells.slice(at + 2, at + 5).map(Number);
      if ([codeLoadingMs, activateCallMs, activateResolvedMs].every(Number.isFinite))
        return { codeLoadingMs, activateCallMs, activateResolvedMs };
    }
    // Not activated yet when the report was made: close it and ask again.
    await page.keyboard.press('Control+W');
    await page.waitForTimeout(500);
  }
  throw new Error('"Developer: Startup Performance" never listed the activation of Portal Explorer.');
}

runBenchmark('extension package', ['integration'], async () => {
  const h = await harness();
  const vsix = await h.packaged.packageVsix();
  const code = codeFiles();
  const sum = (names: Iterable<string>): number => [...names].reduce((total, name) => total + (code.all.get(name) ?? 0), 0);
  const bundleBytes = sum(code.atActivation);
  const allBytes = sum(code.all.keys());
  const vsixBytes = statSync(vsix).size;

  const chromium = h.setup.findChromium();
  if (!chromium) throw new Error('No Chromium: run `node test/harness/setup.mjs integration`.');
  const emulator = await h.emulator.startEmulator({ args: ['--quiet'] });
  const profile = h.codeServer.createProfile({ prefix: 'portal-explorer-bench-' });
  let server: Awaited<ReturnType<Harness['codeServer']['startCodeServer']>> | undefined;
  let browser: Browser | undefined;
  const loads: ActivationTimes[] = [];
  try {
    await h.codeServer.installExtension(profile, vsix);
    const connectionFile = h.packaged.writeConnectionFile(profile, emulator.info);
    server = await h.codeServer.startCodeServer({
      port: await h.processes.freePort(),
      profile,
      folder: profile.workspace,
      testing: false,
      env: { PORTAL_EXPLORER_CONNECTION_FILE: connectionFile },
    });
    browser = await h.browser.launchBrowser(chromium);
    for (let load = 0; load < LOADS; load += 1) {
      // A fresh page each time: a new window, so a new extension host that activates the extension again.
      const page = await h.browser.newWorkbenchPage(browser, {});
      await page.goto(h.codeServer.workbenchUrl(server, { folder: profile.workspace }));
      loads.push(await activationTimes(page));
      await page.context().close();
    }
  } finally {
    await browser?.close().catch(() => undefined);
    await server?.stop();
    await emulator.stop();
    h.codeServer.removeProfile(profile);
  }
  const total = (times: ActivationTimes): number => times.codeLoadingMs + times.activateCallMs + times.activateResolvedMs;
  const activation = median(loads.map(total));
  const part = (pick: (times: ActivationTimes) => number): string => ms(median(loads.map(pick)));
  return {
    rows: [
      {
        measure: `activation, load to resolved (median of ${LOADS})`,
        value: ms(activation),
        target: `≤ ${TARGETS.activationMs} ms`,
        met: activation <= TARGETS.activationMs,
      },
      // On a machine shared with other work the median follows the load; the fastest load shows the code's own cost.
      { measure: `  fastest of the ${LOADS} loads`, value: ms(Math.min(...loads.map(total))) },
      { measure: '  of which loading the bundle', value: part((times) => times.codeLoadingMs) },
      { measure: '  of which activate() until it returns', value: part((times) => times.activateCallMs) },
      { measure: '  of which until its promise resolves', value: part((times) => times.activateResolvedMs) },
      {
        measure: 'bundle loaded at activation (minified)',
        value: kb(bundleBytes),
        target: `≤ ${kb(TARGETS.bundleBytes)}`,
        met: bundleBytes <= TARGETS.bundleBytes,
      },
      { measure: '  all of the extension’s code, chunks loaded on use included', value: kb(allBytes) },
      { measure: '.vsix', value: kb(vsixBytes), target: `≤ ${kb(TARGETS.vsixBytes)}`, met: vsixBytes <= TARGETS.vsixBytes },
    ],
    notes: [
      `activation per load (load + call + resolve): ${loads.map((times) => `${times.codeLoadingMs}+${times.activateCallMs}+${times.activateResolvedMs}`).join(', ')} ms — the extension host's ActivationTimes from "Developer: Startup Performance", the .vsix installed in code-server, a portal connected`,
      `loaded at activation: ${[...code.atActivation].map((name) => `${name} ${code.all.get(name)}`).join(', ')} bytes; on first use: ${[
        ...code.all.keys(),
      ]
        .filter((name) => !code.atActivation.has(name))
        .map((name) => `${name} ${code.all.get(name)}`)
        .join(', ')} bytes; .vsix ${vsixBytes} bytes (npm run package)`,
    ],
  };
});
