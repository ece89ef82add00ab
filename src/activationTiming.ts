// One debug line in the log about this activation's cost, split into what is the extension's own and what
// the extension host adds around it ("Developer: Startup Performance" shows only the host's sums):
// - the host's "load code": from its willLoadExtensionCode mark to didLoadExtensionCode (reading and
//   compiling the bundle, then running its top-level code); the host's own figure starts earlier, before
//   an await of its own, and so also counts other extensions loaded in that gap;
// - the bundle's top-level code, from its first module (src/loadTime.ts) to the end of src/extension.ts;
// - activate() itself, and how long after it the portals' sign-in state was read (not part of activation).
// The marks come from the extension host's performance marks (globalThis.MonacoPerformanceMarks, not an
// API: when they are missing the line says so and gives the rest).

interface PerformanceMark {
  readonly name: string;
  readonly startTime: number;
}

function hostMarks(): readonly PerformanceMark[] {
  const marks = (globalThis as { MonacoPerformanceMarks?: { getMarks?: () => unknown } }).MonacoPerformanceMarks?.getMarks?.();
  if (!Array.isArray(marks)) return [];
  return marks.filter((mark): mark is PerformanceMark => typeof mark === 'object' && mark !== null && typeof mark.name === 'string' && typeof mark.startTime === 'number');
}

function ms(value: number): string {
  return `${value.toFixed(1)} ms`;
}

export interface ActivationTimes {
  readonly extensionId: string;
  /** performance.now() at the bundle's first module, at the end of its top-level code, at activate()'s start and end. */
  readonly bundleStarted: number;
  readonly bundleEvaluated: number;
  readonly activateStarted: number;
  readonly activateEnded: number;
}

/** The line, written when the portals have been read (`now`, performance.now()). */
export function activationTimingLine(times: ActivationTimes, now: number): string {
  const marks = hostMarks();
  const at = (name: string): number | undefined => marks.find((mark) => mark.name === `code/extHost/${name}/${times.extensionId}`)?.startTime;
  const willLoad = at('willLoadExtensionCode');
  const didLoad = at('didLoadExtensionCode');
  // The marks are Date.now() values; performance.timeOrigin puts the bundle's own times on the same clock.
  const host =
    willLoad !== undefined && didLoad !== undefined
      ? `host load-code marks ${ms(didLoad - willLoad)} (${ms(performance.timeOrigin + times.bundleStarted - willLoad)} of it before the bundle's first line: reading and compiling it)`
      : 'host load-code marks unavailable';
  return [
    `activation: ${host}`,
    `top-level code ${ms(times.bundleEvaluated - times.bundleStarted)}`,
    `activate() ${ms(times.activateEnded - times.activateStarted)}`,
    `portals read ${ms(now - times.activateEnded)} after activate() returned`,
  ].join(', ');
}
