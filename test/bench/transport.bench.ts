// The portal client's transport decided by measurement (issue 31): the in-house one (nodeTransport.ts over
// node:http) beside undici (Node's own HTTP client: its `request` over an Agent, from the undici package
// when it can be loaded, and Node's built-in fetch, which is undici inside Node), each plugged into the same
// PortalClient (its `fetch` option), on the two jobs that send the most requests, 50 ms away: an import of
// Orders (app 102, runImport through the portal's limiter) and a grid save checking each row with a GET
// before its PUT (saveChanges, through the limiter). Rounds in turns, so that the load of a shared machine
// falls on all alike; the rate is the median, the CPU this process's per request (process.cpuUsage).
//   BENCH_TRANSPORT_LATENCY (default 50), BENCH_TRANSPORT_RECORDS (2,000), BENCH_TRANSPORT_ROWS (500).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PortalClient } from '../../src/api/client';
import type { FetchLike, FetchResponseLike } from '../../src/api/http';
import { clientCredentials } from '../../src/api/oauth';
import type { RecordData } from '../../src/api/types';
import { ChangeSet } from '../../src/grid/model/changeSet';

import { saveChanges } from '../../src/grid/model/saveRunner';
import { runImport } from '../../src/import/importRun';
import { proposeMapping } from '../../src/import/mapping';
import { openSource } from '../../src/import/sourceFile';
import { PortalLimiter } from '../../src/records/limiter';
import { appRecords } from '../../src/records/store';
import { configure } from '../support/emulator';
import { startEmulatorProcess } from './support/emulatorProcess';
import { orders } from './support/importOrders';
import { median, runBenchmark } from './support/report';

const LATENCY_MS = Number(process.env.BENCH_TRANSPORT_LATENCY ?? 50);
const RECORDS = Number(process.env.BENCH_TRANSPORT_RECORDS ?? 2_000);
const ROWS = Number(process.env.BENCH_TRANSPORT_ROWS ?? 500);
const ROUNDS = 3;
const MAX_IN_FLIGHT = 32;
const ORDERS_APP = '102';
const TICKETS_APP = '201';
const TICKETS_VIEW = '6';

/** What this bench uses of undici's API (the package is not a dependency of the project: loaded if present). */
interface Undici {
  Agent: new (options: { connections: number; pipelining: number }) => object;
  request(
    url: string,
    options: { method: string; headers: Record<string, string>; body?: unknown; signal: AbortSignal; dispatcher: object },
  ): Promise<{
    statusCode: number;
    headers: Record<string, string | string[] | undefined>;
    body: AsyncIterable<Uint8Array> & { arrayBuffer(): Promise<ArrayBuffer> };
  }>;
}

async function loadUndici(): Promise<Undici | undefined> {
  try {
    return (await import('undici')) as unknown as Undici;
  } catch {
    return undefined;
  }
}

function headersOf(raw: Record<string, string | string[] | undefined>): FetchResponseLike['headers'] {
  return {
    get: (name) => {
      const value = raw[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

/** undici.request over one Agent (keep-alive, MAX_IN_FLIGHT connections), in the client's FetchLike shape. */
function undiciFetch(undici: Undici): FetchLike {
  const dispatcher = new undici.Agent({ connections: MAX_IN_FLIGHT, pipelining: 1 });
  return async (url, init) => {
    const answer = await undici.request(url, {
      method: init.method,
      headers: init.headers,
      body: init.body,
      signal: init.signal,
      dispatcher,
    });
    return {
      status: answer.statusCode,
      statusText: '',
      headers: headersOf(answer.headers),
      arrayBuffer: () => answer.body.arrayBuffer(),
      body: answer.body,
    };
  };
}

/** Node's built-in fetch (undici inside Node), in the client's FetchLike shape. */
const nodeFetch: FetchLike = async (url, init) => {
  const response = await fetch(url, {
    method: init.method,
    headers: init.headers,
    body: init.body as string | undefined,
    signal: init.signal,
  });
  return {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
    arrayBuffer: () => response.arrayBuffer(),
    body: response.body as AsyncIterable<Uint8Array> | null,
  };
};

interface Figures {
  importRates: number[];
  importCpuUs: number[];
  saveRates: number[];
  saveCpuUs: number[];
}

function cpuUs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return used.user + used.system;
}

runBenchmark(`transport: ours beside undici, ${LATENCY_MS} ms away`, [], async () => {
  const emulator = await startEmulatorProcess();
  const folder = await mkdtemp(join(tmpdir(), 'bench-transport-'));
  try {
    const { base_url: baseUrl, client_id: clientId, client_secret: clientSecret } = emulator.info;
    const token = (await clientCredentials({ baseUrl, clientId, clientSecret })).accessToken;
    const undici = await loadUndici();
    const transports: Array<[string, FetchLike | undefined]> = [
      ['ours (nodeTransport, node:http)', undefined],
      ...(undici ? ([['undici request + Agent', undiciFetch(undici)]] as Array<[string, FetchLike]>) : []),
      ["Node's fetch (undici inside Node)", nodeFetch],
    ];
    const clientOf = (transport: FetchLike | undefined, limiter: PortalLimiter): PortalClient =>
      new PortalClient({
        baseUrl,
        tokens: { accessToken: async () => token, renewAfterUnauthorized: async () => undefined },
        gate: limiter,
        ...(transport ? { fetch: transport } : {}),
      });

    // Read next door, before the distance is set: the Tickets to save, and the Orders' columns.
    const reader = clientOf(undefined, new PortalLimiter({ maxInFlight: MAX_IN_FLIGHT }));
    const view = await reader.readView(TICKETS_APP, TICKETS_VIEW);
    const rows = new Map<string, RecordData>(view.rows.map((row) => [row.id ?? '', row.values]));
    const ticketColumns = await reader.listColumns(TICKETS_APP);
    const orderColumns = await reader.listColumns(ORDERS_APP);
    const csv = join(folder, 'orders.csv');
    await writeFile(csv, orders(RECORDS, 'Transport'));
    await configure(baseUrl, { latencyMs: LATENCY_MS });

    let nextRow = 0;
    const figures = new Map<string, Figures>(
      transports.map(([name]) => [name, { importRates: [], importCpuUs: [], saveRates: [], saveCpuUs: [] }]),
    );
    let lost = 0;
    // Round 0 warms each transport up (JIT, connections) and is not counted.
    for (let round = 0; round <= ROUNDS; round += 1) {
      for (const [name, transport] of transports) {
        const figure = figures.get(name) as Figures;
        const limiter = new PortalLimiter({ maxInFlight: MAX_IN_FLIGHT });
        const client = clientOf(transport, limiter);

        const source = await openSource(csv);
        let cpu = process.cpuUsage();
        let started = performance.now();
        const imported = await runImport({
          source,
          settings: { appId: ORDERS_APP, mode: 'create', matchField: 'f11', mapping: proposeMapping(source.columns, orderColumns) },
          columns: orderColumns,
          writer: client,
          limiter,
          lookupViewId: '3',
          journalPath: join(folder, `${round}-${figures.size}-${name.length}.journal.jsonl`),
          total: RECORDS,
        });
        const importSeconds = (performance.now() - started) / 1000;
        const importCpu = cpuUs(cpu);
        lost += RECORDS - imported.counts.created;

        const ids = view.rows.slice(nextRow, nextRow + ROWS).map((row) => row.id ?? '');
        nextRow += ROWS;
        const changeSet = new ChangeSet(ticketColumns, (recordId) => rows.get(recordId));
        changeSet.apply(ids.map((recordId) => ({ recordId, field: 'f31', value: `Transport subject ${recordId}` })));
        cpu = process.cpuUsage();
        started = performance.now();
        const report = await saveChanges(changeSet, appRecords(client, TICKETS_APP), { concurrency: MAX_IN_FLIGHT, limiter });
        const saveSeconds = (performance.now() - started) / 1000;
        const saveCpu = cpuUs(cpu);
        lost += ROWS - report.outcomes.filter((outcome) => outcome.kind === 'saved').length;
        if (round === 0) continue;
        figure.importRates.push(RECORDS / importSeconds);
        figure.importCpuUs.push(importCpu / RECORDS);
        figure.saveRates.push(ROWS / saveSeconds);
        // Two requests a row: its GET and its PUT.
        figure.saveCpuUs.push(saveCpu / (2 * ROWS));
      }
    }
    const ours = figures.get(transports[0][0]) as Figures;
    return {
      rows: [...figures].flatMap(([name, figure]) => [
        {
          measure: `${name}: import, ${RECORDS.toLocaleString('en-US')} records`,
          value: `${median(figure.importRates).toFixed(0)} records/s, ${median(figure.importCpuUs).toFixed(0)} µs CPU each (${(median(figure.importRates) / median(ours.importRates)).toFixed(2)} × ours)`,
        },
        {
          measure: `${name}: grid save, ${ROWS} rows (GET + PUT each)`,
          value: `${median(figure.saveRates).toFixed(0)} rows/s, ${median(figure.saveCpuUs).toFixed(0)} µs CPU a request (${(median(figure.saveRates) / median(ours.saveRates)).toFixed(2)} × ours)`,
        },
      ]),
      notes: [
        `${LATENCY_MS} ms away, up to ${MAX_IN_FLIGHT} requests in flight (each job's limiter); median of ${ROUNDS} rounds in turns after one warm-up round; rows lost or not saved: ${lost}.`,
        undici
          ? 'undici: the package as installed in node_modules (not a dependency of the project).'
          : 'undici: the package is not installed; only Node’s fetch stands for it.',
      ],
    };
  } finally {
    await rm(folder, { recursive: true, force: true });
    await emulator.stop();
  }
});
