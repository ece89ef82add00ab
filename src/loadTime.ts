// The moment the bundle's own code starts to run: the first module src/extension.ts imports, so the
// bundle evaluates it before any other (src/activationTiming.ts reports the time from here).
export const bundleStarted = performance.now();
