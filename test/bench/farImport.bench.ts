// An import from a portal far away that limits its clients (issue 35): the emulator in its own process,
// 200 ms away, 100 requests per second. The import goes through the portal's limiter, as in the extension
// (PortalService gives every client its portal's limiter), and should reach 0.8 x the limit with no row
// lost or created twice. Prints the requests in flight the limiter settled on and the 429s it met.
//   BENCH_FAR_RECORDS (default 10,000), BENCH_FAR_LATENCY (200), BENCH_FAR_RATE (100).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PortalClient } from '../../src/api/client';
import { clientCredentials } from '../../src/api/oauth';
import { runImport } from '../../src/import/importRun';
import { proposeMapping } from '../../src/import/mapping';
import { openSource } from '../../src/import/sourceFile';
import { PortalLimiter } from '../../src/records/limiter';
import { startEmulatorProcess } from './support/emulatorProcess';
import { orders } from './support/importOrders';
import { runBenchmark } from './support/report';

const RECORDS = Number(process.env.BENCH_FAR_RECORDS ?? 10_000);
const LATENCY_MS = Number(process.env.BENCH_FAR_LATENCY ?? 200);
const RATE = Number(process.env.BENCH_FAR_RATE ?? 100);
const APP = '102';
const TARGET = 0.8;

runBenchmark(`Import from a portal ${LATENCY_MS} ms away, limited to ${RATE} requests/s`, [], async () => {
  const emulator = await startEmulatorProcess(['--latency', String(LATENCY_MS), '--rate-limit', String(RATE)]);
  const folder = await mkdtemp(join(tmpdir(), 'bench-far-import-'));
  try {
    const { base_url: baseUrl, client_id: clientId, client_secret: clientSecret } = emulator.info;
    const token = (await clientCredentials({ baseUrl, clientId, clientSecret })).accessToken;
    const limiter = new PortalLimiter({ maxInFlight: 32 });
    const client = new PortalClient({
      baseUrl,
      tokens: { accessToken: async () => token, renewAfterUnauthorized: async () => undefined },
      gate: limiter,
    });
    const path = join(folder, 'far.csv');
    await writeFile(path, orders(RECORDS, 'Far order'));
    const columns = await client.listColumns(APP);
    await fetch(`${baseUrl}/_emulator/requests`, { method: 'DELETE' });
    const source = await openSource(path);
    const limits: number[] = [];
    const started = performance.now();
    const result = await runImport({
      source,
      settings: { appId: APP, mode: 'create', matchField: 'f11', mapping: proposeMapping(source.columns, columns) },
      columns,
      writer: client,
      limiter,
      lookupViewId: '3',
      journalPath: join(folder, 'far.journal.jsonl'),
      total: RECORDS,
      onProgress: () => limits.push(limiter.state().limit),
    });
    const seconds = (performance.now() - started) / 1000;
    const log = (await (await fetch(`${baseUrl}/_emulator/requests`)).json()) as Array<{ method: string; path: string; status: number }>;
    const applied = log.filter(
      (entry) => entry.method === 'POST' && entry.path === `/api/v1/app/${APP}/record/` && entry.status === 200,
    ).length;
    const refused = log.filter((entry) => entry.status === 429).length;
    const rate = RECORDS / seconds;
    const settled = limits.slice(Math.floor(limits.length / 2));
    const meanLimit = settled.reduce((sum, limit) => sum + limit, 0) / Math.max(1, settled.length);
    return {
      rows: [
        {
          measure: `records/s importing ${RECORDS.toLocaleString('en-US')}`,
          value: rate.toFixed(1),
          target: `>= ${TARGET} x ${RATE} = ${TARGET * RATE}`,
          met: rate >= TARGET * RATE,
        },
        { measure: 'in flight settled on (mean of the second half)', value: meanLimit.toFixed(1) },
        { measure: '429s met (each honoured: one pause for the portal)', value: String(refused) },
        {
          measure: 'rows lost or created twice',
          value: String(Math.abs(applied - RECORDS) + result.counts.failed + result.counts.uncertain),
          target: '0',
          met: applied === RECORDS && result.counts.created === RECORDS,
        },
      ],
      notes: [
        `created ${result.counts.created}, failed ${result.counts.failed}, uncertain ${result.counts.uncertain}; ${seconds.toFixed(1)} s`,
      ],
    };
  } finally {
    await rm(folder, { recursive: true, force: true });
    await emulator.stop();
  }
});
