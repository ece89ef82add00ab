// The root hooks of the journey suite: one world (emulator, code-server, Chromium) for every journey,
// and a screenshot of the moment a journey failed.
import { join } from 'node:path';
import { page, RESULTS, startWorld, stopWorld } from './support/world';

before(async function () {
  this.timeout(240_000);
  await startWorld();
});

afterEach(async function () {
  const test = this.currentTest;
  if (test?.state !== 'failed') return;
  const name = test.fullTitle().toLowerCase().replace(/[^a-z0-9]+/g, '-').slice(0, 90);
  await page().screenshot({ path: join(RESULTS, `failed-${name}.png`) }).catch(() => undefined);
});

after(async function () {
  this.timeout(60_000);
  await stopWorld();
});
