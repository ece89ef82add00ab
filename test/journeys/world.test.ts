// The root hooks of the journey suite: one world (emulator, code-server, Chromium) for every journey,
// a screenshot of the moment a journey failed, and the files a person saved, looked for after it stopped.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { keptFiles, page, RESULTS, startWorld, stopWorld } from './support/world';

before(async function () {
  this.timeout(240_000);
  await startWorld();
});

afterEach(async function () {
  const test = this.currentTest;
  if (test?.state !== 'failed') return;
  const name = test
    .fullTitle()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 90);
  await page()
    .screenshot({ path: join(RESULTS, `failed-${name}.png`) })
    .catch(() => undefined);
});

after(async function () {
  this.timeout(60_000);
  await stopWorld();
  // What a person saved in the workspace (journey (e)'s export) is still there after stopping, as in npm start.
  const lost = keptFiles().filter((file) => !file.there);
  assert.deepEqual(lost, [], 'the files saved in the workspace survive stopping VS Code');
});
