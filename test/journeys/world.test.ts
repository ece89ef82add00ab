// The root hooks of the journey suite: one world (emulator, code-server, Chromium) for every journey.
import { startWorld, stopWorld } from './support/world';

before(async function () {
  this.timeout(240_000);
  await startWorld();
});

after(async function () {
  this.timeout(60_000);
  await stopWorld();
});
