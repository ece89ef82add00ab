// `npm test`: installs what is missing, builds, type-checks, lints and runs every suite, then prints one
// total line `N passed, N failed`. Uses only node's own modules: it runs before node_modules exists.
//
//   node test/run.mjs                 everything (what `npm test` and .ci/run do)
//   node test/run.mjs unit            one suite (unit | webview | integration | packaged | journeys | electron), after install + build
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './harness/config.mjs';
import { build, ensureDependencies, run, step } from './harness/steps.mjs';

process.chdir(ROOT);

const SUITES = {
  unit: { command: ['node', 'test/runMocha.mjs', 'unit', 'out/test/unit', '--timeout', '20000'], minutes: 10, sources: 'test/unit' },
  webview: { command: ['node', 'test/runMocha.mjs', 'webview', 'out/test/webview', '--timeout', '30000'], minutes: 10, needs: 'webview', sources: 'test/webview' },
  integration: { command: ['node', 'test/harness/runIntegration.mjs'], minutes: 25, needs: 'integration', sources: 'test/integration' },
  packaged: { command: ['node', 'test/harness/runIntegration.mjs', '--packaged'], minutes: 10, needs: 'integration', sources: 'test/integration/packaged' },
  journeys: { command: ['node', 'test/runMocha.mjs', 'journeys', 'out/test/journeys', '--timeout', '240000'], minutes: 20, needs: 'integration', sources: 'test/journeys' },
  electron: { command: ['node', 'test/harness/runElectron.mjs'], minutes: 25, needs: 'electron', sources: 'test/integration' },
};
const DEFAULT_SUITES = ['unit', 'webview', 'integration', 'packaged', 'journeys'];

/** True when `dir` holds a *.test.ts somewhere below it. */
function hasTests(dir) {
  if (!existsSync(dir)) return false;
  return readdirSync(dir).some((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? hasTests(path) : name.endsWith('.test.ts');
  });
}

async function main() {
  const requested = process.argv.slice(2);
  const suites = requested.length > 0 ? requested : DEFAULT_SUITES;
  for (const name of suites) if (!SUITES[name]) throw new Error(`Unknown suite "${name}". Known: ${Object.keys(SUITES).join(', ')}.`);

  await ensureDependencies();
  await build();
  if (requested.length === 0) {
    await step('Type-checking (tsc)', ['npm', 'run', '--silent', 'check-types']);
    await step('Linting (eslint)', ['npm', 'run', '--silent', 'lint']);
  }

  let passed = 0;
  let failed = 0;
  let broken = false;
  for (const name of suites) {
    const suite = SUITES[name];
    if (!hasTests(suite.sources)) {
      // A suite whose folder has no tests yet (the webview suite before the first panel) is not an error.
      console.log(`\n▶ ${name} tests: none yet under ${suite.sources}; skipped`);
      continue;
    }
    if (suite.needs) await step(`Preparing the ${name} suite`, ['node', 'test/harness/setup.mjs', suite.needs], { minutes: 20 });
    console.log(`\n▶ ${name} tests`);
    const { code, output } = await run(suite.command, { minutes: suite.minutes });
    const counts = [...output.matchAll(/^(?:\w+: )?(\d+) passed, (\d+) failed/gm)].pop();
    if (counts) {
      passed += Number(counts[1]);
      failed += Number(counts[2]);
    }
    if (code !== 0 && (!counts || Number(counts[2]) === 0)) {
      console.error(`✘ the ${name} suite ended with exit code ${code} before reporting its tests.`);
      broken = true;
    }
  }
  console.log(`\ntotal: ${passed} passed, ${failed} failed`);
  process.exit(failed > 0 || broken ? 1 : 0);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
