// Not a benchmark: a harness to look at the import's own CPU per row, away from the wall-clock noise of a
// shared machine. It starts the emulator in its own process, imports IMPORT_PROFILE_RECORDS Orders (as
// import.bench.ts does) in one run, and prints the import process's CPU (process.cpuUsage) per row beside
// that of bare node:http creates of the same records. Run it under --cpu-prof to see where the time goes:
//   node esbuild.mjs && node --cpu-prof --cpu-prof-dir=/tmp/prof out/test/bench/import.profile.js
// IMPORT_PROFILE_WARM=10000 warms both sides up with that many rows first (JIT: the figures fall by a third);
// IMPORT_PROFILE_GC=1 makes a full collection before each measured part, as the bench did until it ran straight.
// IMPORT_PROFILE_ONLY=import or bare profiles one alone; =parts measures reading and planning, the journal
// and the client's creates each on its own; =client the client's creates in turns with bare ones.
// Under --trace-gc-nvp, what young collections promote (promoted=) shows objects kept alive too long: each
// request's objects were promoted until the client stopped holding them through listeners and timers.
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PortalClient } from '../../src/api/client';
import { clientCredentials } from '../../src/api/oauth';
import { dryRunImport, runImport } from '../../src/import/importRun';
import { Journal } from '../../src/import/journal';
import { proposeMapping } from '../../src/import/mapping';
import { openSource } from '../../src/import/sourceFile';
import { bareRequest } from './support/bareHttp';
import { bareOrderBody, orders } from './support/importOrders';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startEmulatorProcess } from './support/emulatorProcess';

const RECORDS = Number(process.env.IMPORT_PROFILE_RECORDS ?? 10_000);
const CONCURRENCY = Number(process.env.IMPORT_PROFILE_CONCURRENCY ?? 4);
const APP = '102';
const GROUP = Number(process.env.IMPORT_PROFILE_GROUP ?? 64);

interface Figures {
  /** This process's CPU, ms. */
  cpu: number;
  /** Of which the main thread's (Linux: /proc/thread-self/stat), ms; the rest is GC, the compiler and the thread pool. */
  main?: number;
  seconds: number;
  /** The emulator's CPU, ms. */
  emulator: number;
}

/** The emulator process's CPU so far, in ms (Linux: /proc/<pid>/stat, in clock ticks of 10 ms). */
async function emulatorCpuMs(pid: number | undefined): Promise<number> {
  if (pid === undefined) return Number.NaN;
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The main thread's CPU so far, in ms (Linux: /proc/thread-self/stat, in clock ticks of 10 ms). */
function mainThreadMs(): number {
  // Read in this thread: an asynchronous read would run in the thread pool and read a thread of it.
  let text = ') ';
  try {
    text = readFileSync('/proc/thread-self/stat', 'utf8');
  } catch {
    // not Linux: no figure
  }
  const fields = text.split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** A full collection on demand, as the bench makes one before measuring the heap (node:v8's flag, then gc from a fresh context). */
function fullCollection(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** Starts the inspector's CPU profiler in this process; the function it gives stops it and returns the profile. */
async function startCpuProfile(): Promise<() => Promise<unknown>> {
  const { Session } = await import('node:inspector');
  const session = new Session();
  session.connect();
  const post = (method: string, params: object = {}): Promise<unknown> =>
    new Promise((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 200 });
  await post('Profiler.start');
  return async () => {
    const { profile } = (await post('Profiler.stop')) as { profile: unknown };
    session.disconnect();
    return profile;
  };
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

async function main(): Promise<void> {
  const emulator = await startEmulatorProcess(['--big-view-records', '100']);
  const folder = await mkdtemp(join(tmpdir(), 'portal-import-profile-'));
  try {
    const { base_url: baseUrl, client_id: clientId, client_secret: clientSecret } = emulator.info;
    const token = (await clientCredentials({ baseUrl, clientId, clientSecret })).accessToken;
    const client = new PortalClient({ baseUrl, tokens: { accessToken: async () => token, renewAfterUnauthorized: async () => undefined } });
    const url = `${baseUrl}/api/v1/app/${APP}/record/`;
    const bare = async (count: number): Promise<Figures> => {
      let next = 0;
      const mainBefore = mainThreadMs();
      const cpu = process.cpuUsage();
      const emulatorBefore = await emulatorCpuMs(emulator.child?.pid);
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          for (; next < count;) {
            next += 1;
            const answer = await bareRequest(
              'POST',
              url,
              { Authorization: `Bearer ${token}`, 'Content-Type': 'application/x-www-form-urlencoded' },
              bareOrderBody(next),
            );
            if (answer.status !== 200) throw new Error(`bare create: ${answer.status}`);
            JSON.parse(answer.text);
          }
        }),
      );
      return {
        cpu: cpuMs(cpu),
        main: mainThreadMs() - mainBefore,
        seconds: (performance.now() - started) / 1000,
        emulator: (await emulatorCpuMs(emulator.child?.pid)) - emulatorBefore,
      };
    };
    await bare(500);
    const columns = await client.listColumns(APP);
    const importOnce = async (count: number, name: string): Promise<Figures> => {
      const path = join(folder, `${name}.csv`);
      await writeFile(path, orders(count, name));
      const source = await openSource(path);
      const mainBefore = mainThreadMs();
      const cpu = process.cpuUsage();
      const emulatorBefore = await emulatorCpuMs(emulator.child?.pid);
      const started = performance.now();
      // IMPORT_PROFILE_BLOCKS=5 cancels and resumes the import as the bench did (without its bare blocks).
      const blocks = Number(process.env.IMPORT_PROFILE_BLOCKS ?? 1);
      let result;
      for (let block = 1; ; block += 1) {
        const controller = new AbortController();
        const stopAt = Math.round((count * block) / blocks);
        result = await runImport({
          source,
          settings: { appId: APP, mode: 'create', matchField: 'f11', mapping: proposeMapping(source.columns, columns) },
          columns,
          writer: client,
          lookupViewId: '3',
          journalPath: join(folder, `${name}.journal.jsonl`),
          concurrency: CONCURRENCY,
          total: count,
          signal: controller.signal,
          onProgress: (progress) => progress.done >= stopAt && stopAt < count && controller.abort(),
        });
        if (!result.cancelled) break;
      }
      if (result.counts.created !== count) throw new Error(`created ${result.counts.created} of ${count}`);
      return {
        cpu: cpuMs(cpu),
        main: mainThreadMs() - mainBefore,
        seconds: (performance.now() - started) / 1000,
        emulator: (await emulatorCpuMs(emulator.child?.pid)) - emulatorBefore,
      };
    };
    await importOnce(Number(process.env.IMPORT_PROFILE_WARM ?? 500), 'warm');
    const parts = async (): Promise<void> => {
      const path = join(folder, 'parts.csv');
      await writeFile(path, orders(RECORDS, 'parts'));
      const source = await openSource(path);
      let cpu = process.cpuUsage();
      let started = performance.now();
      await dryRunImport({
        source,
        settings: { appId: APP, mode: 'create', matchField: 'f11', mapping: proposeMapping(source.columns, columns) },
        columns,
      });
      console.log(
        `read + plan (dry run): ${((cpuMs(cpu) / RECORDS) * 1000).toFixed(0)} µs CPU per row, ${(performance.now() - started).toFixed(0)} ms`,
      );
      const journal = await Journal.open(join(folder, 'parts.jsonl'), { kind: 'import', appId: APP, source: 'parts.csv', sourceHash: 'x' });
      cpu = process.cpuUsage();
      started = performance.now();
      for (let row = 0; row < RECORDS; row += GROUP) {
        const attempts = Array.from({ length: GROUP }, (_, index) =>
          journal.attempt(row + index, { field: 'f11', value: `parts order ${row + index}, oak` }),
        );
        await Promise.all(attempts);
        await Promise.all(
          Array.from({ length: GROUP }, (_, index) =>
            journal.record({ row: row + index, outcome: 'created', recordId: String(row + index) }),
          ),
        );
      }
      await journal.close();
      console.log(
        `journal (${GROUP} attempts synced, ${GROUP} outcomes): ${((cpuMs(cpu) / RECORDS) * 1000).toFixed(0)} µs CPU per row, ${(performance.now() - started).toFixed(0)} ms`,
      );
      const data = {
        f11: 'x',
        f15: '01-01-2026',
        f16: '01-02-2026 10:30',
        f17: '1.5',
        f18: '3',
        f19: '1',
        f20: '1,2',
        f22: 'ada@example.com',
      };
      cpu = process.cpuUsage();
      started = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          for (; next < RECORDS; next += 1)
            await client.createRecord(APP, { ...data, f11: `client ${next}` }, {}, new AbortController().signal);
        }),
      );
      console.log(
        `client.createRecord: ${((cpuMs(cpu) / RECORDS) * 1000).toFixed(0)} µs CPU per row, ${(RECORDS / ((performance.now() - started) / 1000)).toFixed(0)} rows/s`,
      );
    };
    if (process.env.IMPORT_PROFILE_ONLY === 'parts') return await parts();
    if (process.env.IMPORT_PROFILE_ONLY === 'client') {
      // The portal client's create against a bare one, in turns, CONCURRENCY at once.
      const data = {
        f11: 'x',
        f15: '01-01-2026',
        f16: '01-02-2026 10:30',
        f17: '1.5',
        f18: '3',
        f19: '1',
        f20: '1,2',
        f22: 'ada@example.com',
      };
      const signal = new AbortController().signal;
      for (let round = 0; round < 3; round += 1) {
        const bareRun = process.env.IMPORT_PROFILE_BARE === '0' ? { cpu: Number.NaN } : await bare(3000);
        const cpu = process.cpuUsage();
        let next = 0;
        await Promise.all(
          Array.from({ length: CONCURRENCY }, async () => {
            for (; next < 3000; next += 1) await client.createRecord(APP, { ...data, f11: `client ${next}` }, {}, signal);
          }),
        );
        console.log(
          `bare ${((bareRun.cpu / 3000) * 1000).toFixed(0)} µs, client ${((cpuMs(cpu) / 3000) * 1000).toFixed(0)} µs CPU per create`,
        );
      }
      return;
    }
    // IMPORT_PROFILE_ONLY=import (or bare) leaves the other out, for a profile of one alone.
    const only = process.env.IMPORT_PROFILE_ONLY;
    // IMPORT_PROFILE_GC=1: a full collection before each measured part, as the bench did. After it V8
    // optimizes about 150 functions again (--trace-opt), and both sides cost a third to a half more.
    const collect = process.env.IMPORT_PROFILE_GC === '1' ? fullCollection() : () => undefined;
    collect();
    const bareRun = only === 'import' ? undefined : await bare(RECORDS);
    collect();
    // IMPORT_PROFILE_CPU=<file>: a CPU profile of the measured import alone, without start-up and warm-up.
    const profiling = process.env.IMPORT_PROFILE_CPU ? await startCpuProfile() : undefined;
    const importRun = only === 'bare' ? undefined : await importOnce(RECORDS, 'profile');
    if (profiling) await writeFile(process.env.IMPORT_PROFILE_CPU as string, JSON.stringify(await profiling()));
    const line = (label: string, run: Figures): string =>
      `${label}: ${((run.cpu / RECORDS) * 1000).toFixed(0)} µs CPU per row (main thread ${(((run.main ?? Number.NaN) / RECORDS) * 1000).toFixed(0)}), ${(RECORDS / run.seconds).toFixed(0)} rows/s; emulator ${((run.emulator / RECORDS) * 1000).toFixed(0)} µs per row, busy ${((100 * run.emulator) / (run.seconds * 1000)).toFixed(0)} %`;
    if (bareRun) console.log(line('bare node:http', bareRun));
    if (importRun) console.log(line('import', importRun));
  } finally {
    await rm(folder, { recursive: true, force: true });
    await emulator.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
