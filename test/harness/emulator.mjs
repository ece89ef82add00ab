// Starts the portal emulator's CLI (out/test/emulator/main.js, built by esbuild.mjs) on a free 127.0.0.1
// port and reads its first stdout line: {"base_url", "client_id", "client_secret", "redirect_uri", "views"}.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './config.mjs';
import { freePort, startProcess, stopProcess } from './processes.mjs';

export const EMULATOR_MAIN = join(ROOT, 'out', 'test', 'emulator', 'main.js');

/** Resolves with { info, child, stop } once the emulator has printed its first line. */
export async function startEmulator({ port, args = [], logFile, timeoutMs = 30_000 } = {}) {
  if (!existsSync(EMULATOR_MAIN)) throw new Error(`The emulator is not built (${EMULATOR_MAIN} is missing); run npm run build.`);
  const chosen = port ?? (await freePort());
  let resolveLine;
  const firstLine = new Promise((resolve) => (resolveLine = resolve));
  const child = startProcess('emulator', process.execPath, [EMULATOR_MAIN, '--port', String(chosen), ...args], {
    cwd: ROOT,
    logFile,
    onLine: (line) => resolveLine(line),
  });
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  const timeout = new Promise((resolve) => setTimeout(() => resolve('timeout'), timeoutMs).unref());
  const outcome = await Promise.race([
    firstLine.then((line) => ({ line })),
    exited.then((code) => ({ code })),
    timeout.then(() => ({ timeout: true })),
  ]);
  const fail = async (message) => {
    await stopProcess(child);
    throw new Error(`${message}${logFile ? ` (log: ${logFile})` : ''}`);
  };
  if (outcome.timeout) return fail(`The emulator printed nothing within ${timeoutMs / 1000} s.`);
  if (outcome.code !== undefined) return fail(`The emulator exited (code ${outcome.code}) before printing its address.`);
  let info;
  try {
    info = JSON.parse(outcome.line);
  } catch {
    return fail(`The emulator's first line is not JSON: ${outcome.line.slice(0, 200)}`);
  }
  if (typeof info.base_url !== 'string' || !info.base_url.startsWith('http://127.0.0.1:')) {
    return fail(`The emulator's first line has no loopback base_url: ${outcome.line.slice(0, 200)}`);
  }
  return { info, child, stop: () => stopProcess(child) };
}
