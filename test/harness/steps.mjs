// Steps shared by `npm test` (test/run.mjs), the harness runners and `npm start`: run a command with its
// output copied through, install dependencies when the lock file changed, build. Node's own modules
// only: they run before node_modules exists.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './config.mjs';

/**
 * Runs a command, copying its output through (or handing each chunk to `onOutput(chunk, isError)`);
 * resolves with its exit code and output (never rejects).
 */
export function run(command, { minutes = 10, env = {}, cwd = ROOT, onOutput } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const copy = (stream, target) =>
      stream.on('data', (chunk) => {
        output += chunk;
        if (onOutput) onOutput(String(chunk), target === process.stderr);
        else target.write(chunk);
      });
    copy(child.stdout, process.stdout);
    copy(child.stderr, process.stderr);
    const timer = setTimeout(() => {
      console.error(`\n✘ ${command.join(' ')} did not finish within ${minutes} minutes; stopping it.`);
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 20_000).unref();
    }, minutes * 60_000);
    child.on('error', (error) => {
      output += error.message;
      console.error(`✘ could not run ${command[0]}: ${error.message}`);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 1 : 0), output });
    });
  });
}

/** Runs one titled step; exits the process with the step's code when it fails. */
export async function step(title, command, options) {
  console.log(`\n▶ ${title}`);
  const result = await run(command, options);
  if (result.code !== 0) {
    console.error(`✘ ${title} failed (exit code ${result.code}).`);
    process.exit(result.code || 1);
  }
  return result;
}

/** `npm ci` when node_modules is missing or was installed from another package-lock.json. */
export async function ensureDependencies() {
  const wanted = createHash('sha256')
    .update(readFileSync(join(ROOT, 'package-lock.json')))
    .digest('hex');
  const stamp = join(ROOT, 'node_modules', '.portal-explorer-lock-hash');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) return;
  await step('Installing dependencies (npm ci)', ['npm', 'ci', '--no-audit', '--no-fund'], { minutes: 15 });
  writeFileSync(stamp, wanted);
}

/** Builds the extension, webviews, tests and emulator (development build, with source maps). */
export async function build() {
  await step('Building (esbuild)', ['node', 'esbuild.mjs']);
}
