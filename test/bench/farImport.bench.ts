// An import from a portal far away that limits its clients (issue 35): the emulator in its own process,
// 200 ms away, 100 requests per second. The import goes through the portal's limiter, as in the extension
// (PortalService gives every client its portal's limiter), and should reach 0.8 x the limit with no row
// lost or created twice. Prints the requests in flight the limiter settled on and the 429s it met.
// Meanwhile the user opens a record now and then (a GET on the interactive client, as Open Record): it
// should wait about one round trip for its permit at most, not for the import's queue; beside it the
// same GET queued as one of the job's requests (how every request waited before the limiter served the
// user's first). Then the same with the portal limited to 20 requests/s, where the limiter settles on a few
// in flight and most of the import's requests queue.
//   BENCH_FAR_RECORDS (default 10,000), BENCH_FAR_LATENCY (200), BENCH_FAR_RATE (100).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PortalClient } from '../../src/api/client';
import type { RequestGate } from '../../src/api/gate';
import { clientCredentials } from '../../src/api/oauth';
import { runImport } from '../../src/import/importRun';
import { proposeMapping } from '../../src/import/mapping';
import { openSource } from '../../src/import/sourceFile';
import { PortalLimiter } from '../../src/records/limiter';
import { sleep } from '../../src/records/retry';
import { startEmulatorProcess } from './support/emulatorProcess';
import { orders } from './support/importOrders';
import { median, ms, runBenchmark, type BenchRow } from './support/report';

const RECORDS = Number(process.env.BENCH_FAR_RECORDS ?? 10_000);
const LATENCY_MS = Number(process.env.BENCH_FAR_LATENCY ?? 200);
const RATE = Number(process.env.BENCH_FAR_RATE ?? 100);
const APP = '102';
const TARGET = 0.8;
/**
 * An Open Record during the import waits for its permit at most this many round trips of a record read
 * alone (the pause a 429's Retry-After asks for holds every request, the user's too: those are counted apart).
 */
const OPEN_TARGET = 1;
/** The opens begin once the import has settled, one every few seconds. */
const OPEN_AFTER_MS = 15_000;
const OPEN_EVERY_MS = 2_000;
/** The second run: a tighter limit, and as many records as take about as long. */
const TIGHT_RATE = 20;
const TIGHT_RECORDS = Math.round(RECORDS / 10);

interface Open {
  took: number;
  waited: number;
  paused: boolean;
}

runBenchmark(`Import from a portal ${LATENCY_MS} ms away, limited to ${RATE} requests/s`, [], async () => {
  const emulator = await startEmulatorProcess(['--latency', String(LATENCY_MS), '--rate-limit', String(RATE)]);
  const folder = await mkdtemp(join(tmpdir(), 'bench-far-import-'));
  try {
    const { base_url: baseUrl, client_id: clientId, client_secret: clientSecret } = emulator.info;
    const token = (await clientCredentials({ baseUrl, clientId, clientSecret })).accessToken;
    const tokens = { accessToken: async () => token, renewAfterUnauthorized: async () => undefined };
    const plain = new PortalClient({ baseUrl, tokens });
    const columns = await plain.listColumns(APP);
    const recordIds = (await plain.readView(APP, '3')).rows.flatMap((row) => (row.id === undefined ? [] : [row.id])).slice(0, 20);
    const timeOpen = async (through: PortalClient, recordId: string): Promise<number> => {
      const start = performance.now();
      await through.readRecord(APP, recordId);
      return performance.now() - start;
    };
    const alone: number[] = [];
    for (const recordId of recordIds.slice(0, 5)) alone.push(await timeOpen(plain, recordId));
    const roundTrip = median(alone);

    /** An import of `records` through a fresh limiter, with the user's opens meanwhile. */
    const importWithOpens = async (records: number, rate: number, openAfterMs: number, label: string): Promise<BenchRow[]> => {
      const limiter = new PortalLimiter({ maxInFlight: 32 });
      // As PortalService gives them: the job's client passes the limiter's bulk gate, the user's the limiter.
      const client = new PortalClient({ baseUrl, tokens, gate: limiter.bulk });
      // The opens' wait for their permit, and whether the portal's pause (a Retry-After) held it.
      let waited = { ms: 0, paused: false };
      const timed = (gate: RequestGate): RequestGate => ({
        acquire: async (signal) => {
          const start = performance.now();
          const paused = limiter.pausedMs() > 0;
          const permit = await gate.acquire(signal);
          waited = { ms: performance.now() - start, paused };
          return permit;
        },
      });
      const interactive = new PortalClient({ baseUrl, tokens, gate: timed(limiter) });
      const queuedClient = new PortalClient({ baseUrl, tokens, gate: timed(limiter.bulk) });
      const path = join(folder, `far-${records}.csv`);
      await writeFile(path, orders(records, 'Far order'));
      await fetch(`${baseUrl}/_emulator/requests`, { method: 'DELETE' });
      const source = await openSource(path);
      const limits: number[] = [];
      const started = performance.now();
      let importing = true;
      const opens = { interactive: [] as Open[], queued: [] as Open[], failed: 0 };
      const opening = (async () => {
        await sleep(openAfterMs);
        for (let index = 0; importing; index += 1) {
          // In no fixed turn nor period, so as not to fall in step with the limiter's rounds.
          const queued = Math.random() < 0.5;
          try {
            const took = await timeOpen(queued ? queuedClient : interactive, recordIds[index % recordIds.length]);
            // Only those that began and ended while the import ran.
            if (importing) (queued ? opens.queued : opens.interactive).push({ took, waited: waited.ms, paused: waited.paused });
          } catch {
            opens.failed += 1;
          }
          await sleep(OPEN_EVERY_MS * (0.5 + Math.random()));
        }
      })();
      const result = await runImport({
        source,
        settings: { appId: APP, mode: 'create', matchField: 'f11', mapping: proposeMapping(source.columns, columns) },
        columns,
        writer: client,
        limiter,
        lookupViewId: '3',
        journalPath: join(folder, `far-${records}.journal.jsonl`),
        total: records,
        onProgress: () => limits.push(limiter.state().limit),
      });
      const seconds = (performance.now() - started) / 1000;
      importing = false;
      await opening;
      const summary = (list: readonly Open[]): { took: number; waited: number; paused: number } => ({
        took: median(list.map((open) => open.took)),
        waited: median(list.filter((open) => !open.paused).map((open) => open.waited)),
        paused: list.filter((open) => open.paused).length,
      });
      const mine = summary(opens.interactive);
      const theirs = summary(opens.queued);
      const log = (await (await fetch(`${baseUrl}/_emulator/requests`)).json()) as Array<{ method: string; path: string; status: number }>;
      const applied = log.filter(
        (entry) => entry.method === 'POST' && entry.path === `/api/v1/app/${APP}/record/` && entry.status === 200,
      ).length;
      const refused = log.filter((entry) => entry.status === 429).length;
      const settled = limits.slice(Math.floor(limits.length / 2));
      const meanLimit = settled.reduce((sum, limit) => sum + limit, 0) / Math.max(1, settled.length);
      const list = (of: readonly Open[]): string =>
        of.map((open) => `${Math.round(open.took)}/${Math.round(open.waited)}${open.paused ? 'p' : ''}`).join(', ');
      console.log(
        `${label}: created ${result.counts.created}, failed ${result.counts.failed}, uncertain ${result.counts.uncertain}; ${seconds.toFixed(1)} s. ` +
          `Opens (took/waited ms, p: held by a pause): ${list(opens.interactive)}; queued as the job's: ${list(opens.queued)}; ${opens.failed} failed (a 429)`,
      );
      const rows: BenchRow[] = [
        { measure: `${label}: in flight settled on (mean of the second half)`, value: meanLimit.toFixed(1) },
        { measure: `${label}: 429s met (each honoured: one pause for the portal)`, value: String(refused) },
        {
          measure: `${label}: Open Record meanwhile, its wait for a permit (median of those no pause held)`,
          value: `${ms(mine.waited)} (${(mine.waited / roundTrip).toFixed(2)} x)`,
          target: `<= ${OPEN_TARGET} x the round trip`,
          met: opens.interactive.length > mine.paused && mine.waited <= OPEN_TARGET * roundTrip,
        },
        {
          measure: `${label}: Open Record, answered (median of ${opens.interactive.length}; held by the portal's pause)`,
          value: `${ms(mine.took)} (${(mine.took / roundTrip).toFixed(2)} x); ${mine.paused}`,
        },
        {
          measure: `${label}: the same queued as the job's: its wait; answered (median of ${opens.queued.length}; held)`,
          value: `${ms(theirs.waited)} (${(theirs.waited / roundTrip).toFixed(2)} x); ${ms(theirs.took)}; ${theirs.paused}`,
        },
        {
          measure: `${label}: rows lost or created twice`,
          value: String(Math.abs(applied - records) + result.counts.failed + result.counts.uncertain),
          target: '0',
          met: applied === records && result.counts.created === records,
        },
      ];
      if (rate === RATE) {
        const perSecond = records / seconds;
        rows.unshift({
          measure: `records/s importing ${records.toLocaleString('en-US')}`,
          value: perSecond.toFixed(1),
          target: `>= ${TARGET} x ${RATE} = ${TARGET * RATE}`,
          met: perSecond >= TARGET * RATE,
        });
      }
      return rows;
    };

    const rows = await importWithOpens(RECORDS, RATE, OPEN_AFTER_MS, `${RATE}/s`);
    await fetch(`${baseUrl}/_emulator/config`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ rateLimit: TIGHT_RATE }),
    });
    rows.push(...(await importWithOpens(TIGHT_RECORDS, TIGHT_RATE, 5_000, `${TIGHT_RATE}/s`)));
    return {
      rows: [{ measure: 'a record read alone (the round trip)', value: ms(roundTrip) }, ...rows],
      notes: [],
    };
  } finally {
    await rm(folder, { recursive: true, force: true });
    await emulator.stop();
  }
});
