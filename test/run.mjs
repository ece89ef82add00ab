// `npm test`: installs what is missing, builds, type-checks, lints and runs every suite, then prints one
// total line `N passed, N failed`. Uses only node's own modules: it runs before node_modules exists.
//
//   node test/run.mjs                 everything (what `npm test` and .ci/run do)
//   node test/run.mjs unit            one suite (unit | webview | integration | electron), after install + build
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

const SUITES = {
  unit: { command: ['node', 'test/runMocha.mjs', 'unit', 'out/test/unit', '--timeout', '20000'], minutes: 10 },
  webview: { command: ['node', 'test/runMocha.mjs', 'webview', 'out/test/webview', '--timeout', '30000'], minutes: 10, needs: 'webview' },
  integration: { command: ['node', 'test/harness/runIntegration.mjs'], minutes: 25, needs: 'integration' },
  electron: { command: ['node', 'test/harness/runElectron.mjs'], minutes: 25, needs: 'electron' },
};
const DEFAULT_SUITES = ['unit'];

/** Runs a command with inherited stdin, copying its output through; resolves with exit code and output. */
function run(command, { minutes = 10, env = {} } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const copy = (stream, target) =>
      stream.on('data', (chunk) => {
        output += chunk;
        target.write(chunk);
      });
    copy(child.stdout, process.stdout);
    copy(child.stderr, process.stderr);
    const timer = setTimeout(() => {
      console.error(`\n✘ ${command.join(' ')} did not finish within ${minutes} minutes; stopping it.`);
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    }, minutes * 60_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 1 : 0), output });
    });
  });
}

async function step(title, command, options) {
  console.log(`\n▶ ${title}`);
  const result = await run(command, options);
  if (result.code !== 0) {
    console.error(`✘ ${title} failed (exit code ${result.code}).`);
    process.exit(result.code || 1);
  }
  return result;
}

/** `npm ci` when node_modules is missing or was installed from another package-lock.json. */
async function ensureDependencies() {
  const lock = readFileSync('package-lock.json');
  const wanted = createHash('sha256').update(lock).digest('hex');
  const stamp = join('node_modules', '.portal-explorer-lock-hash');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) return;
  await step('Installing dependencies (npm ci)', ['npm', 'ci', '--no-audit', '--no-fund'], { minutes: 15 });
  writeFileSync(stamp, wanted);
}

async function main() {
  const requested = process.argv.slice(2);
  const suites = requested.length > 0 ? requested : DEFAULT_SUITES;
  for (const name of suites) if (!SUITES[name]) throw new Error(`Unknown suite "${name}". Known: ${Object.keys(SUITES).join(', ')}.`);

  await ensureDependencies();
  await step('Building (esbuild)', ['node', 'esbuild.mjs']);
  if (requested.length === 0) {
    await step('Type-checking (tsc)', ['npm', 'run', '--silent', 'check-types']);
    await step('Linting (eslint)', ['npm', 'run', '--silent', 'lint']);
  }

  let passed = 0;
  let failed = 0;
  let broken = false;
  for (const name of suites) {
    const suite = SUITES[name];
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
