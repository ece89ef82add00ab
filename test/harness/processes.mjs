// Processes the harness starts, each in its own process group so that stopping it also stops what it
// spawned (code-server forks an extension host, file watchers and a pty host). Every group started here
// is stopped by stopAll(), on success, failure, time limit and Ctrl+C alike.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname } from 'node:path';

/** @type {Map<number, { name: string, child: import('node:child_process').ChildProcess }>} */
const groups = new Map();

/**
 * Starts a long-running process in its own group. Its output goes to `logFile` (when given) and, line by
 * line, to `onLine`. Resolves nothing: callers wait for readiness their own way (a port, a first line).
 */
export function startProcess(name, command, args, { env = process.env, cwd, logFile, onLine } = {}) {
  const child = spawn(command, args, { env, cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  groups.set(child.pid, { name, child });
  let log;
  if (logFile) {
    mkdirSync(dirname(logFile), { recursive: true });
    log = createWriteStream(logFile);
  }
  for (const stream of [child.stdout, child.stderr]) {
    let pending = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      log?.write(chunk);
      if (!onLine) return;
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop();
      for (const line of lines) onLine(line);
    });
  }
  child.on('close', () => log?.end());
  child.on('error', (error) => log?.write(`\n[harness] could not start ${command}: ${error.message}\n`));
  return child;
}

function signalGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false; // the group is gone
  }
}

function groupAlive(pid) {
  return signalGroup(pid, 0);
}

/** Stops one started process and everything in its group: SIGTERM, then SIGKILL after `graceMs`. */
export async function stopProcess(child, graceMs = 5000) {
  if (!child?.pid || !groups.has(child.pid)) return;
  signalGroup(child.pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (groupAlive(child.pid) && Date.now() < deadline) await sleep(100);
  if (groupAlive(child.pid)) signalGroup(child.pid, 'SIGKILL');
  groups.delete(child.pid);
}

/** Stops every process group this harness started. */
export async function stopAll(graceMs = 5000) {
  await Promise.all([...groups.values()].map(({ child }) => stopProcess(child, graceMs)));
}

/** Names of the started processes whose group still has a live member (for the closing check). */
export function stillRunning() {
  return [...groups.entries()].filter(([pid]) => groupAlive(pid)).map(([, { name }]) => name);
}

let cleaningUp = false;
/** True once a signal started the shutdown: processes ending now are expected to. */
export function stopping() {
  return cleaningUp;
}

/**
 * On Ctrl+C, SIGTERM (the time limit of test/run.mjs) or SIGHUP: run `cleanup`, stop every group, exit
 * (130/143 unless `exitCode` is given). Also stops every group, with SIGKILL, when the process exits for
 * any other reason.
 */
export function stopAllOnSignals(cleanup = async () => {}, { message, exitCode } = {}) {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      if (cleaningUp) return;
      cleaningUp = true;
      console.error(`\n${message ?? `[harness] ${signal} received: stopping everything this run started.`}`);
      const code = exitCode ?? (signal === 'SIGINT' ? 130 : 143);
      const forced = setTimeout(() => process.exit(code || 1), 15_000);
      forced.unref();
      Promise.resolve()
        .then(cleanup)
        .catch(() => {})
        .then(() => stopAll())
        .finally(() => process.exit(code));
    });
  }
  process.on('exit', () => {
    for (const pid of groups.keys()) signalGroup(pid, 'SIGKILL');
  });
}

/** Runs a command to completion with output passed through; rejects on a non-zero exit or time limit. */
export function runCommand(command, args, { env = process.env, cwd, minutes = 10, quiet = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env,
      cwd,
      detached: true,
      stdio: ['ignore', quiet ? 'pipe' : 'inherit', quiet ? 'pipe' : 'inherit'],
    });
    groups.set(child.pid, { name: command, child });
    let output = '';
    if (quiet) for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => {
      signalGroup(child.pid, 'SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} did not finish within ${minutes} minutes.`));
    }, minutes * 60_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`could not run ${command}: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      groups.delete(child.pid);
      if (code === 0) resolve(output);
      else
        reject(
          Object.assign(
            new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit code ${code}`}).${quiet ? `\n${output.slice(-4000)}` : ''}`),
            { output },
          ),
        );
    });
  });
}

/** Every live process below `pid` (Linux: from /proc), deepest first. */
export function descendants(pid = process.pid) {
  const children = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The command name (field 2) may hold spaces and parentheses: read the fields after its last ')'.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  const found = [];
  const visit = (parent) => {
    for (const child of children.get(parent) ?? []) {
      visit(child);
      found.push(child);
    }
  };
  visit(pid);
  return found;
}

/** SIGKILLs every process below this one: for children started by libraries that give no handle. */
export function killDescendants() {
  for (const pid of descendants()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A TCP port on 127.0.0.1 that nobody listens on now; `preferred` when it is free. */
export function freePort(preferred = 0) {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', (error) => {
      if (preferred !== 0 && error.code === 'EADDRINUSE') resolve(freePort(0));
      else reject(error);
    });
    server.listen(preferred, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** True when `port` on 127.0.0.1 can be listened on. */
export async function portIsFree(port) {
  return (await freePort(port)) === port;
}

/** Polls `url` until it answers 2xx; fails early when `child` exits, and after `timeoutMs`. */
export async function waitForHttp(url, { timeoutMs = 60_000, child, what = url } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`${what} exited (code ${child.exitCode}) before answering ${url}.`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = error.cause?.code ?? error.message;
    }
    await sleep(200);
  }
  throw new Error(`${what} did not answer ${url} within ${Math.round(timeoutMs / 1000)} s (last: ${last}).`);
}
