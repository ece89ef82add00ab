// Bulk import of 10,000 records against the emulator in its own process, as a portal would run, beside
// the emulator's own sustained create rate measured in the same run: creates sent by bare clients with
// the same number of requests at once, the same bodies, keep-alive, nothing else done. Three bare clients:
// node:http (the least a client can do per request; the portal client's transport is built on it),
// node-fetch (the client's transport until it proved 3 × as costly per request) and Node's own fetch; the
// best of them is the emulator's rate the import is held to. The machine is shared (other suites, other
// people's work), so the import and the best client are measured in alternating rounds of 10,000 records
// each, their order turning, and the medians compared: load that comes and goes weighs on both alike.
// The slower clients are measured once, to show which is best.
// Then what a Cancel costs: the same import cancelled halfway and resumed from its journal (reported
// beside the target, not held to it). And the memory the import holds while it reads files of two sizes:
// streaming keeps it from growing with the file. The app is Orders (102): no unique column, so the
// emulator's create time does not grow with its record count (Customers' unique Name makes each create
// scan every record); the Title, unique in the file, is the look-up for the creates a cancel leaves
// without an answer.
// And the import with Record History kept as in the extension (every record written offered to it,
// gathered and written in batches to a folder of its own): in the same rounds, its order turning with the
// import without, its rate held to the import's; and how long the history's files take once it ended.
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { PortalClient } from '../../src/api/client';
import nodeFetch from 'node-fetch';
import { clientCredentials } from '../../src/api/oauth';
import { runImport } from '../../src/import/importRun';
import { proposeMapping } from '../../src/import/mapping';
import { openSource } from '../../src/import/sourceFile';
import { bareRequest } from './support/bareHttp';
import { PINNED, startEmulatorProcess } from './support/emulatorProcess';
import { bareOrderBody, orders } from './support/importOrders';
import { resetEmulator } from '../support/emulator';
import { recordText } from '../../src/fs/recordText';
import { VersionBatches, versionToKeep } from '../../src/history/versionBatches';
import { VersionLog } from '../../src/history/versionLog';
import type { Column } from '../../src/api/types';
import { mb, median, runBenchmark } from './support/report';

// BENCH_IMPORT_RECORDS runs a smaller one while working on the import; the table's figures are for 10,000.
const RECORDS = Number(process.env.BENCH_IMPORT_RECORDS ?? 10_000);
const SMALL = Math.round(RECORDS / 4);
/** Rounds of the import and of the best bare client; creates by each slower bare client (measured once). */
const ROUNDS = 5;
const OTHERS = 2_000;
const CONCURRENCY = 4;
const TARGETS = { rateFactor: 0.8, historyFactor: 0.9 };
const APP = '102';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let bareSent = 0;

/** The fields of the next bare create: the import's orders as the portal takes them. */
function bareBody(): string {
  bareSent += 1;
  return bareOrderBody(bareSent);
}

type BareCreate = (url: string, token: string, body: string) => Promise<void>;

function check(status: number, text: string): void {
  if (status !== 200) throw new Error(`A bare create answered ${status}: ${text}`);
  JSON.parse(text);
}

const FORM = 'application/x-www-form-urlencoded';

/** The clients of the emulator's rate, each with keep-alive (node-fetch and fetch by default on Node ≥ 19). */
const BARE_CLIENTS: Record<string, BareCreate> = {
  'node:http': async (url, token, body) => {
    const answer = await bareRequest('POST', url, { Authorization: `Bearer ${token}`, 'Content-Type': FORM }, body);
    check(answer.status, answer.text);
  },
  'node-fetch': async (url, token, body) => {
    const response = await nodeFetch(url, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': FORM }, body });
    check(response.status, await response.text());
  },
  fetch: async (url, token, body) => {
    const response = await fetch(url, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': FORM }, body });
    check(response.status, await response.text());
  },
};

interface BareFigures {
  /** Records per second. */
  rate: number;
  /** This process's CPU per record, in ms. */
  cpuPerRecord: number;
}

/** `count` creates by one bare client, CONCURRENCY at once. */
async function bareCreates(client: BareCreate, baseUrl: string, token: string, count: number): Promise<BareFigures> {
  const url = `${baseUrl}/api/v1/app/${APP}/record/`;
  let next = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  const worker = async (): Promise<void> => {
    for (; next < count;) {
      next += 1;
      await client(url, token, bareBody());
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const used = cpuMs(cpu);
  return { rate: count / ((performance.now() - started) / 1000), cpuPerRecord: used / count };
}

/** This process's CPU (all its threads, user and system) since `since`, in ms. */
function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

interface ImportRunFigures extends BareFigures {
  fileBytes: number;
  /** Highest heap in use during the import above the heap before it (NaN unless measured). */
  heapGrowth: number;
  resumes: number;
  /** With a history: ms from the import's end until its versions were written, and how many files it holds. */
  historyMs?: number;
  historyFiles?: number;
}

/** Record History as the extension keeps it, over its own folder: the versions as the records' documents. */
function historyIn(folder: string, columns: readonly Column[]): { batches: VersionBatches; log: VersionLog } {
  const log = new VersionLog(folder, () => ({ maxVersionsPerRecord: 50, maxTotalBytes: 20 * 1024 * 1024 }));
  const batches = new VersionBatches({
    log,
    prepare: async (batch) =>
      batch.map((seen) => versionToKeep(seen, (data) => recordText(data, columns, 'portal://bench/102.schema.json'))),
    warn: (line) => {
      throw new Error(line);
    },
  });
  return { batches, log };
}

/**
 * Imports `count` orders (titles starting with `prefix`), timed from the start of each run to its end.
 * With `stops`, the run is cancelled that many times at even steps and resumed from its journal at once.
 * With `heap`, the heap held is measured: after a full collection, which the timed runs go without (a
 * forced collection makes V8 optimize a hundred functions again, on both sides, in the part after it).
 */
async function timedImport(
  client: PortalClient,
  folder: string,
  count: number,
  prefix: string,
  { stops = 0, heap = false, history = false } = {},
): Promise<ImportRunFigures> {
  const path = join(folder, `${prefix.replaceAll(' ', '-')}.csv`);
  await writeFile(path, orders(count, prefix));
  const columns = await client.listColumns(APP);
  const source = await openSource(path);
  const kept = history ? historyIn(join(folder, `${prefix.replaceAll(' ', '-')}.history`), columns) : undefined;
  if (heap) gc();
  const before = process.memoryUsage().heapUsed;
  let peak = before;
  const sampler = heap ? setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 20) : undefined;
  let importSeconds = 0;
  let importCpu = 0;
  let resumes = 0;
  try {
    for (let part = 1; ; part += 1) {
      const controller = new AbortController();
      const stopAt = Math.round((count * part) / (stops + 1));
      const started = performance.now();
      const cpu = process.cpuUsage();
      const result = await runImport({
        source,
        settings: { appId: APP, mode: 'create', matchField: 'f11', mapping: proposeMapping(source.columns, columns) },
        columns,
        writer: client,
        lookupViewId: '3',
        journalPath: join(folder, `${prefix.replaceAll(' ', '-')}.journal.jsonl`),
        concurrency: CONCURRENCY,
        total: count,
        signal: controller.signal,
        onProgress: (progress) => {
          if (progress.done >= stopAt && stopAt < count) controller.abort();
        },
        history: kept && { versions: kept.batches, portalId: 'bench', cause: 'import' },
      });
      importSeconds += (performance.now() - started) / 1000;
      importCpu += cpuMs(cpu);
      if (heap) peak = Math.max(peak, process.memoryUsage().heapUsed);
      if (!result.cancelled) {
        if (result.counts.created !== count)
          throw new Error(
            `The import created ${result.counts.created} of ${count} records (${result.counts.failed} failed, ${result.counts.uncertain} uncertain).`,
          );
        break;
      }
      resumes += 1;
    }
    const ended = performance.now();
    await kept?.batches.flush();
    const historyFiles = kept && (await readdir(join(folder, `${prefix.replaceAll(' ', '-')}.history`, 'bench'))).length;
    return {
      rate: count / importSeconds,
      cpuPerRecord: importCpu / count,
      fileBytes: (await stat(path)).size,
      heapGrowth: heap ? peak - before : Number.NaN,
      resumes,
      ...(kept ? { historyMs: performance.now() - ended, historyFiles } : {}),
    };
  } finally {
    clearInterval(sampler);
  }
}

/** CPU ms per record as µs. */
function micro(ms: number): string {
  return `${(ms * 1000).toFixed(0)} µs`;
}

runBenchmark('bulk import, 10,000 records', [], async () => {
  const emulator = await startEmulatorProcess(['--big-view-records', '100']);
  const folder = await mkdtemp(join(tmpdir(), 'portal-import-bench-'));
  try {
    const { base_url: baseUrl, client_id: clientId, client_secret: clientSecret } = emulator.info;
    const token = (await clientCredentials({ baseUrl, clientId, clientSecret })).accessToken;
    const client = new PortalClient({ baseUrl, tokens: { accessToken: async () => token, renewAfterUnauthorized: async () => undefined } });

    // The emulator warmed up, and the bare clients with it: after 6,000 creates its rate still rose by a
    // third over the rounds. The first import below warms the import up.
    for (const name of Object.keys(BARE_CLIENTS))
      await bareCreates(BARE_CLIENTS[name], baseUrl, token, name === 'node:http' ? RECORDS : 500);
    await resetEmulator(baseUrl);
    // The first import, of a smaller file, warms the import up as the creates above warmed the bare clients.
    const small = await timedImport(client, folder, SMALL, `Import ${SMALL}`, { heap: true });

    // Rounds of the import and the best bare client, each on an emulator reset before the round.
    const imports: ImportRunFigures[] = [];
    const withHistory: ImportRunFigures[] = [];
    const bares: BareFigures[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      await resetEmulator(baseUrl);
      const importFirst = round % 2 === 1;
      const kept = (): Promise<ImportRunFigures> =>
        timedImport(client, folder, RECORDS, `Import ${RECORDS} history round ${round + 1}`, { history: true });
      if (!importFirst) bares.push(await bareCreates(BARE_CLIENTS['node:http'], baseUrl, token, RECORDS));
      if (importFirst) withHistory.push(await kept());
      imports.push(await timedImport(client, folder, RECORDS, `Import ${RECORDS} round ${round + 1}`));
      if (!importFirst) withHistory.push(await kept());
      if (importFirst) bares.push(await bareCreates(BARE_CLIENTS['node:http'], baseUrl, token, RECORDS));
    }
    const historyRate = median(withHistory.map((run) => run.rate));
    const bareRates: (BareFigures & { name: string })[] = [
      { name: 'node:http', rate: median(bares.map((bare) => bare.rate)), cpuPerRecord: median(bares.map((bare) => bare.cpuPerRecord)) },
    ];
    for (const name of Object.keys(BARE_CLIENTS).filter((other) => other !== 'node:http'))
      bareRates.push({ name, ...(await bareCreates(BARE_CLIENTS[name], baseUrl, token, OTHERS)) });
    bareRates.sort((a, b) => b.rate - a.rate);
    await resetEmulator(baseUrl);
    const resumed = await timedImport(client, folder, RECORDS, `Import ${RECORDS} resumed`, { stops: 1 });
    if (resumed.resumes !== 1) throw new Error(`The import to cancel halfway was resumed ${resumed.resumes} times, not once.`);
    await resetEmulator(baseUrl);
    const held = await timedImport(client, folder, RECORDS, `Import ${RECORDS} memory`, { heap: true });

    const large = {
      rate: median(imports.map((run) => run.rate)),
      cpuPerRecord: median(imports.map((run) => run.cpuPerRecord)),
      fileBytes: held.fileBytes,
      heapGrowth: held.heapGrowth,
    };
    const best = bareRates[0];
    const ratio = large.rate / best.rate;
    const sameTransport = large.rate / (bareRates.find((bare) => bare.name === 'node:http')?.rate ?? Number.NaN);
    const fileFactor = large.fileBytes / small.fileBytes;
    const memoryFactor = large.heapGrowth / Math.max(1, small.heapGrowth);
    return {
      rows: [
        ...bareRates.map(({ name, rate, cpuPerRecord }) => ({
          measure: `bare creates, ${name}, ${CONCURRENCY} at once`,
          value: `${rate.toFixed(0)} records/s, ${micro(cpuPerRecord)} CPU each`,
        })),
        { measure: `emulator's own create rate (the best bare client)`, value: `${best.rate.toFixed(0)} records/s (${best.name})` },
        {
          measure: `import rate, ${RECORDS.toLocaleString('en-US')} records`,
          value: `${large.rate.toFixed(0)} records/s (${ratio.toFixed(2)} ×)`,
          target: `≥ ${TARGETS.rateFactor} × the emulator's`,
          met: ratio >= TARGETS.rateFactor,
        },
        { measure: `  against bare node:http (what the client's transport is built on)`, value: `${sameTransport.toFixed(2)} ×` },
        { measure: `import's CPU per record (this process, all threads)`, value: micro(large.cpuPerRecord) },
        {
          measure: `import with Record History kept (a version per record, written in batches)`,
          value: `${historyRate.toFixed(0)} records/s (${(historyRate / large.rate).toFixed(2)} × the import without)`,
          target: `≥ ${TARGETS.historyFactor} × the import without`,
          met: historyRate / large.rate >= TARGETS.historyFactor,
        },
        {
          measure: `  its versions written after the import ended`,
          value: `${(median(withHistory.map((run) => run.historyMs ?? Number.NaN)) / 1000).toFixed(1)} s, ${withHistory[0]?.historyFiles ?? 0} files`,
        },
        {
          measure: `import cancelled halfway and resumed from its journal`,
          value: `${resumed.rate.toFixed(0)} records/s (${(resumed.rate / best.rate).toFixed(2)} ×), ${micro(resumed.cpuPerRecord)} CPU each`,
        },
        {
          measure: `heap held while importing ${SMALL.toLocaleString('en-US')} rows`,
          value: `${mb(small.heapGrowth)} (file ${mb(small.fileBytes)})`,
        },
        {
          measure: `heap held while importing ${RECORDS.toLocaleString('en-US')} rows`,
          value: `${mb(large.heapGrowth)} (file ${mb(large.fileBytes)})`,
        },
        {
          measure: 'memory growth vs file growth',
          value: `${memoryFactor.toFixed(2)} × for a ${fileFactor.toFixed(2)} × file`,
          target: '≤ the file growth',
          met: memoryFactor <= fileFactor,
        },
      ],
      notes: [
        `The import reads CSV (ISO dates and date-times, choices by name, decimals), converts and checks every value, and journals each row (attempt lines synced in groups before their creates go out); ${CONCURRENCY} requests at once.`,
        `rounds of ${RECORDS.toLocaleString('en-US')} records, alternating: import ${imports.map((run) => run.rate.toFixed(0)).join(', ')}; with Record History ${withHistory.map((run) => run.rate.toFixed(0)).join(', ')}; bare node:http ${bares.map((bare) => bare.rate.toFixed(0)).join(', ')} records/s (medians compared); node-fetch and fetch measured once on ${OTHERS.toLocaleString('en-US')} records.`,
        `the first import, ${SMALL.toLocaleString('en-US')} rows (it warms the import up): ${small.rate.toFixed(0)} records/s.`,
        ...(PINNED
          ? ['BENCH_PIN=1: the emulator on core 1, this process on core 0 (each side its own core, as with a portal on another machine).']
          : []),
      ],
    };
  } finally {
    await rm(folder, { recursive: true, force: true });
    await emulator.stop();
  }
});
