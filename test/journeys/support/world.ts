// One world for the whole journey suite: the emulator, one code-server with Portal Explorer installed as
// `npm start` installs it (the demo's Client Credentials portal pre-connected), one Chromium showing the
// workbench (test/harness/journeyWorld.mjs). Each journey starts fresh: the emulator's seed again, no
// editor open, no notification, and a folder of screenshots of its own.
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';

// The bundles run from out/test/journeys/.
export const ROOT = join(__dirname, '..', '..', '..');
export const RESULTS = join(ROOT, 'test-results', 'journeys');

export interface EmulatorInfo {
  base_url: string;
  client_id: string;
  client_secret: string;
}

export interface World {
  emulator: { info: EmulatorInfo };
  server: { url: string; port: number };
  browser: Browser;
  context: BrowserContext;
  page: Page;
  profile: { dir: string; userData: string; workspace: string; home: string };
  workbenchUrl: string;
  close(): Promise<void>;
}

/** Another person's VS Code on the same repository: its own code-server, profile and page (startSecondProfile). */
export type SecondProfile = Pick<World, 'server' | 'context' | 'page' | 'profile' | 'workbenchUrl' | 'close'>;

interface HarnessModules {
  journeyWorld: {
    startJourneyWorld(options: { chromium: string; logs: string; workspace: string; settings?: Record<string, unknown> }): Promise<World>;
    startSecondProfile(options: {
      browser: Browser;
      logs: string;
      workspace: string;
      settings?: Record<string, unknown>;
    }): Promise<SecondProfile>;
  };
  setup: { findChromium(): string | undefined };
}

/** The harness's .mjs modules, loaded at run time (they are node scripts, not part of the bundle). */
export async function harness<K extends keyof HarnessModules>(name: K): Promise<HarnessModules[K]> {
  const file = { journeyWorld: 'journeyWorld.mjs', setup: 'setup.mjs' }[name];
  return (await import(pathToFileURL(join(ROOT, 'test', 'harness', file)).href)) as HarnessModules[K];
}

// Every test file is its own bundle with its own copy of this module: the world lives on globalThis.
const KEY = Symbol.for('portal-explorer.journeys.world');
type Holder = { [KEY]?: World };

export function world(): World {
  const current = (globalThis as Holder)[KEY];
  if (!current) throw new Error('The journey world is not started (the root before hook in world.test.ts failed?).');
  return current;
}

export function page(): Page {
  return world().page;
}

/** Makes `started` the world the helpers drive (a benchmark that starts its own, test/bench/workbench.bench.ts). */
export function useWorld(started: World | undefined): void {
  (globalThis as Holder)[KEY] = started;
}

/** Starts the world (the root before hook of world.test.ts). */
export async function startWorld(): Promise<void> {
  rmSync(RESULTS, { recursive: true, force: true });
  mkdirSync(RESULTS, { recursive: true });
  const chromium = (await harness('setup')).findChromium();
  if (!chromium) throw new Error('No Chromium: run `node test/harness/setup.mjs integration`.');
  useWorld(
    await (
      await harness('journeyWorld')
    ).startJourneyWorld({ chromium, logs: join(RESULTS, 'logs'), workspace: join(RESULTS, 'workspace') }),
  );
}

/**
 * Starts a second VS Code, of a teammate with a fresh profile and no portal, on the world's workspace (the
 * same repository), shown in a page of its own; only the journey that needs one pays for it.
 */
export async function startSecondProfile(settings: Record<string, unknown> = {}): Promise<SecondProfile> {
  const first = world();
  return (await harness('journeyWorld')).startSecondProfile({
    browser: first.browser,
    logs: join(RESULTS, 'logs'),
    workspace: first.profile.workspace,
    settings,
  });
}

/** Runs `steps` with the helpers (page(), screenshots, the tree) driving `second`'s page; the world's again after. */
export async function asSecondProfile<T>(second: SecondProfile, steps: () => Promise<T>): Promise<T> {
  const first = world();
  useWorld({ ...first, ...second, close: first.close });
  try {
    return await steps();
  } finally {
    useWorld(first);
  }
}

export async function stopWorld(): Promise<void> {
  await (globalThis as Holder)[KEY]?.close();
  useWorld(undefined);
}

const KEPT = Symbol.for('portal-explorer.journeys.kept');
type KeptHolder = { [KEPT]?: string[] };

/** A file a person saved in the workspace: the root after hook checks it is still there once VS Code stopped. */
export function expectKeptAfterStop(path: string): void {
  ((globalThis as KeptHolder)[KEPT] ??= []).push(path);
}

/** The files named by expectKeptAfterStop, each with whether it is on disk now. */
export function keptFiles(): { path: string; there: boolean }[] {
  return ((globalThis as KeptHolder)[KEPT] ?? []).map((path) => ({ path, there: existsSync(path) }));
}

/** The screenshots of one journey: `await shot('typed a bad date')` saves <journey>/<nn>-<step>.png. */
export function screenshots(journey: string): (step: string) => Promise<string> {
  const slug = (text: string): string =>
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 70);
  const dir = join(RESULTS, slug(journey));
  let count = 0;
  return async (step) => {
    mkdirSync(dir, { recursive: true });
    count += 1;
    const path = join(dir, `${String(count).padStart(2, '0')}-${slug(step)}.png`);
    await page().screenshot({ path });
    return path;
  };
}
