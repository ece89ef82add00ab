// `npm test`: installs what is missing, builds, type-checks, lints and runs every suite, then prints one
// total line `N passed, N failed`. Uses only node's own modules: it runs before node_modules exists.
//
//   node test/run.mjs                 everything (what `npm test` and .ci/run do)
//   node test/run.mjs unit            one suite (unit | webview | integration | packaged | journeys | electron), after install + build
//
// A full run keeps both cores of a 2-core machine busy with two lanes side by side (LANES); installing
// Chromium and code-server needs the network more than the CPU, so it starts first, beside `npm ci`. The
// first lane's output streams; what runs beside it is printed whole when it ends, so no two interleave.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './harness/config.mjs';
import { packageVsix } from './harness/packaged.mjs';
import { build, ensureDependencies, run, step } from './harness/steps.mjs';
import { createTerminal } from './harness/terminal.mjs';

process.chdir(ROOT);

const SUITES = {
  unit: { command: ['node', 'test/runMocha.mjs', 'unit', 'out/test/unit', '--timeout', '20000'], minutes: 10, sources: 'test/unit' },
  webview: {
    command: ['node', 'test/runMocha.mjs', 'webview', 'out/test/webview', '--timeout', '30000'],
    minutes: 10,
    needs: 'webview',
    dist: true,
    sources: 'test/webview',
  },
  integration: {
    command: ['node', 'test/harness/runIntegration.mjs'],
    minutes: 25,
    needs: 'integration',
    dist: true,
    sources: 'test/integration',
  },
  packaged: {
    command: ['node', 'test/harness/runIntegration.mjs', '--packaged'],
    minutes: 10,
    needs: 'integration',
    dist: true,
    sources: 'test/integration/packaged',
  },
  journeys: {
    command: ['node', 'test/runMocha.mjs', 'journeys', 'out/test/journeys', '--timeout', '240000'],
    minutes: 20,
    needs: 'integration',
    dist: true,
    sources: 'test/journeys',
  },
  electron: { command: ['node', 'test/harness/runElectron.mjs'], minutes: 25, needs: 'electron', dist: true, sources: 'test/integration' },
};
/**
 * The suites of a full run, in two lanes that run side by side, each suite after the one before it in its
 * lane, balanced by their durations: the two long code-server suites, one in each. tsc and eslint run at
 * the end of the lane that ends first, beside a code-server suite (which mostly waits): beside the unit or
 * webview suite their CPU made timing-sensitive tests miss their limits.
 */
const LANES = [
  ['integration', 'packaged'],
  ['unit', 'webview', 'journeys'],
];
const DEFAULT_SUITES = LANES.flat();
/** setup.mjs modes, in the order they are installed: Chromium alone first, as the webview suite needs no more. */
const SETUP_ORDER = ['webview', 'integration', 'electron'];

const started = Date.now();
const elapsed = () => `${Math.round((Date.now() - started) / 1000)} s`;

/** True when `dir` holds a *.test.ts somewhere below it. */
function hasTests(dir) {
  if (!existsSync(dir)) return false;
  return readdirSync(dir).some((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? hasTests(path) : name.endsWith('.test.ts');
  });
}

const terminal = createTerminal({ out: process.stdout, err: process.stderr });

/**
 * Runs one titled command. `live`: its output streams; otherwise it is held and printed whole at its end.
 * Resolves with { code, output } (never rejects).
 */
async function task(title, command, { live, minutes }) {
  if (live) {
    terminal.block(`\n▶ ${title} (at ${elapsed()})`);
    const result = await run(command, { minutes, onOutput: (chunk, isError) => terminal.live(chunk, isError) });
    terminal.endLive();
    return result;
  }
  console.log(`\n▷ ${title}: started at ${elapsed()} beside the rest; its output follows when it ends`);
  const result = await run(command, { minutes, onOutput: () => {} });
  terminal.block(`\n▶ ${title} (ended at ${elapsed()}, exit code ${result.code})\n${result.output}`);
  return result;
}

async function main() {
  const requested = process.argv.slice(2);
  const everything = requested.length === 0;
  const suites = everything ? DEFAULT_SUITES : requested;
  for (const name of suites) if (!SUITES[name]) throw new Error(`Unknown suite "${name}". Known: ${Object.keys(SUITES).join(', ')}.`);
  const toRun = suites.filter((name) => {
    if (hasTests(SUITES[name].sources)) return true;
    // A suite whose folder has no tests yet (the webview suite before the first panel) is not an error.
    console.log(`\n▶ ${name} tests: none yet under ${SUITES[name].sources}; skipped`);
    return false;
  });
  const problems = [];
  let passed = 0;
  let failed = 0;

  // One setup.mjs at a time (apt-get holds dpkg's lock), each mode as soon as the one before is done.
  const modes = SETUP_ORDER.filter((mode) => toRun.some((name) => SUITES[name].needs === mode));
  const prepared = {};
  let chain = Promise.resolve(true);
  for (const mode of modes) {
    chain = chain.then(async (ready) => {
      if (!ready) return false;
      const { code } = await task(
        `Preparing the ${mode} suites (test/harness/setup.mjs ${mode})`,
        ['node', 'test/harness/setup.mjs', mode],
        { live: !everything, minutes: 20 },
      );
      if (code !== 0) problems.push(`preparing (setup.mjs ${mode}) failed with exit code ${code}`);
      return code === 0;
    });
    prepared[mode] = chain;
  }
  // Alone, a suite waits for its preparation; in a full run, the preparation goes on during npm ci.
  if (!everything) await chain;

  await ensureDependencies();
  const commands = Object.fromEntries(Object.entries(SUITES).map(([name, suite]) => [name, suite.command]));
  /** Resolves once dist/ holds the development build (and the .vsix is made, in a full run). */
  let distReady = Promise.resolve();
  if (everything) {
    await step('Building the tests and the emulator (esbuild)', ['node', 'esbuild.mjs', '--only', 'tests,emulator']);
    // The .vsix is packaged before the development build of dist/, so that the packaged suite runs beside
    // the others without rebuilding dist/ (for production) under them; the unit suite needs no dist/ and
    // starts at once.
    distReady = (async () => {
      if (toRun.includes('packaged')) {
        console.log('\n▶ Packaging (npm run package)');
        const vsix = await packageVsix().catch((error) => {
          console.error(`✘ Packaging failed: ${error instanceof Error ? error.message : error}`);
          process.exit(1);
        });
        commands.packaged = [...commands.packaged, `--vsix=${vsix}`];
      }
      await step('Building the extension and the panels (esbuild)', ['node', 'esbuild.mjs', '--only', 'extension,webview']);
    })();
  } else {
    await build();
  }

  async function runSuite(name, live) {
    const suite = SUITES[name];
    if (suite.dist) await distReady;
    if (suite.needs && !(await prepared[suite.needs])) {
      problems.push(`the ${name} suite did not run: its preparation failed`);
      return;
    }
    const { code, output } = await task(`${name} tests`, commands[name], { live, minutes: suite.minutes });
    const counts = [...output.matchAll(/^(?:\w+: )?(\d+) passed, (\d+) failed/gm)].pop();
    if (counts) {
      passed += Number(counts[1]);
      failed += Number(counts[2]);
    }
    if (code !== 0 && (!counts || Number(counts[2]) === 0))
      problems.push(`the ${name} suite ended with exit code ${code} before reporting its tests`);
  }

  if (everything) {
    const check = async (title, script) => {
      const { code } = await task(title, ['npm', 'run', '--silent', script], { live: false, minutes: 10 });
      if (code !== 0) problems.push(`${title} failed (exit code ${code})`);
    };
    const checks = [() => check('Type-checking (tsc)', 'check-types'), () => check('Linting (eslint)', 'lint')];
    const lane = async (names, live) => {
      for (const name of names.filter((n) => toRun.includes(n))) await runSuite(name, live);
      while (checks.length > 0) await checks.shift()();
    };
    await Promise.all([lane(LANES[0], true), lane(LANES[1], false)]);
  } else {
    for (const name of toRun) await runSuite(name, true);
  }

  for (const problem of problems) console.error(`✘ ${problem}.`);
  console.log(`\ntotal: ${passed} passed, ${failed} failed`);
  process.exit(failed > 0 || problems.length > 0 ? 1 : 0);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
