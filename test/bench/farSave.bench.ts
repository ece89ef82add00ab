// The grid's save and Set Field (bulk change) through the portal's limiter, as in the extension (issue 35):
// the emulator in its own process, on the Tickets app (201, view 6: 100,000 rows), at three distances.
// - 200 ms away, limited to 100 requests/s: saving 1,000 changed grid rows, a GET + PUT each (the save
//   without the view read: every row checked by its own GET), >= 0.8 x the limit's pairs (40/s); Set Field
//   on 5,000 rows (a PUT each), >= 0.8 x the limit (80/s).
// - 50 ms away, no limit: the same jobs >= 0.8 x a bare client (node:http, keep-alive) with the same
//   number in flight as our limiter settled on.
// - Next door: the grid save >= 0.8 x bare GET + PUT pairs, again with as many in flight as ours.
// Per row: the in flight the limiter settled on (mean of the second half), the 429s met, and the rows lost
// or updated twice (from the emulator's request log: one successful PUT per record, no more, no less).
//   BENCH_FAR_SAVE_ROWS (1,000), BENCH_FAR_SET_ROWS (5,000), BENCH_FAR_LATENCY (200), BENCH_FAR_RATE (100),
//   BENCH_MID_LATENCY (50).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PortalClient, type ViewRow } from '../../src/api/client';
import { clientCredentials } from '../../src/api/oauth';
import type { RecordData } from '../../src/api/types';
import { ChangeSet } from '../../src/grid/model/changeSet';
import { saveChanges } from '../../src/grid/model/saveRunner';
import { runBulkChange } from '../../src/import/bulkChange';
import { PortalLimiter } from '../../src/records/limiter';
import { appRecords } from '../../src/records/store';
import { bareRequest } from './support/bareHttp';
import { startEmulatorProcess, type EmulatorProcess } from './support/emulatorProcess';
import { runBenchmark, type BenchRow } from './support/report';

const SAVE_ROWS = Number(process.env.BENCH_FAR_SAVE_ROWS ?? 1_000);
const SET_ROWS = Number(process.env.BENCH_FAR_SET_ROWS ?? 5_000);
const FAR_MS = Number(process.env.BENCH_FAR_LATENCY ?? 200);
const RATE = Number(process.env.BENCH_FAR_RATE ?? 100);
const MID_MS = Number(process.env.BENCH_MID_LATENCY ?? 50);
const APP = '201';
const VIEW = '6';
const FIELD = 'f31';
const TARGET = 0.8;

interface Portal {
  readonly emulator: EmulatorProcess;
  readonly baseUrl: string;
  readonly token: string;
  readonly rows: readonly ViewRow[];
  readonly columns: Awaited<ReturnType<PortalClient['listColumns']>>;
}

interface LogEntry {
  method: string;
  path: string;
  status: number;
}

async function open(args: readonly string[]): Promise<Portal> {
  const emulator = await startEmulatorProcess(args);
  const { base_url: baseUrl, client_id: clientId, client_secret: clientSecret } = emulator.info;
  const token = (await clientCredentials({ baseUrl, clientId, clientSecret })).accessToken;
  const client = clientOf(baseUrl, token);
  const rows = (await client.readView(APP, VIEW)).rows;
  return { emulator, baseUrl, token, rows, columns: await client.listColumns(APP) };
}

function clientOf(baseUrl: string, token: string, limiter?: PortalLimiter): PortalClient {
  return new PortalClient({
    baseUrl,
    tokens: { accessToken: async () => token, renewAfterUnauthorized: async () => undefined },
    gate: limiter,
  });
}

async function clearLog(portal: Portal): Promise<void> {
  await fetch(`${portal.baseUrl}/_emulator/requests`, { method: 'DELETE' });
}

/** The 429s since the log was cleared, and the records of `ids` not updated exactly once. */
async function audit(portal: Portal, ids: readonly string[]): Promise<{ refused: number; wrong: number }> {
  const log = (await (await fetch(`${portal.baseUrl}/_emulator/requests`)).json()) as LogEntry[];
  const puts = new Map<string, number>();
  for (const entry of log) if (entry.method === 'PUT' && entry.status === 200) puts.set(entry.path, (puts.get(entry.path) ?? 0) + 1);
  const wrong = ids.filter((id) => puts.get(`/api/v1/app/${APP}/record/${id}`) !== 1).length;
  return { refused: log.filter((entry) => entry.status === 429).length, wrong };
}

/** The mean of the second half of the samples: where the limiter settled. */
function settled(samples: readonly number[]): number {
  const half = samples.slice(Math.floor(samples.length / 2));
  return half.reduce((sum, value) => sum + value, 0) / Math.max(1, half.length);
}

interface Job {
  /** Rows (records) per second. */
  readonly rate: number;
  readonly inFlight: number;
  readonly refused: number;
  readonly wrong: number;
}

/** The grid's save of `rows` (FIELD changed in each), through a limiter of the portal; a GET + PUT per row. */
async function gridSave(portal: Portal, rows: readonly ViewRow[], label: string): Promise<Job> {
  const limiter = new PortalLimiter({ maxInFlight: 32 });
  const client = clientOf(portal.baseUrl, portal.token, limiter);
  const copies = new Map<string, RecordData>(rows.map((row) => [row.id ?? '', row.values]));
  const changeSet = new ChangeSet(portal.columns, (recordId) => copies.get(recordId));
  const ids = rows.map((row) => row.id ?? '');
  changeSet.apply(ids.map((recordId) => ({ recordId, field: FIELD, value: `${label} ${recordId}` })));
  const limits: number[] = [];
  await clearLog(portal);
  const started = performance.now();
  const report = await saveChanges(changeSet, appRecords(client, APP), { limiter, onProgress: () => limits.push(limiter.state().limit) });
  const seconds = (performance.now() - started) / 1000;
  const saved = report.outcomes.filter((outcome) => outcome.kind === 'saved').length;
  const { refused, wrong } = await audit(portal, ids);
  return { rate: saved / seconds, inFlight: settled(limits), refused, wrong: wrong + (ids.length - saved) };
}

/** Set Field on `rows` (bulk change: the import's runner and journal), through a limiter of the portal. */
async function setField(portal: Portal, rows: readonly ViewRow[], label: string): Promise<Job> {
  const limiter = new PortalLimiter({ maxInFlight: 32 });
  const client = clientOf(portal.baseUrl, portal.token, limiter);
  const folder = await mkdtemp(join(tmpdir(), 'bench-far-set-'));
  try {
    const limits: number[] = [];
    await clearLog(portal);
    const started = performance.now();
    const result = await runBulkChange({
      appId: APP,
      change: { kind: 'set-field', field: FIELD, value: label },
      rows,
      writer: client,
      limiter,
      journalFolder: folder,
      onProgress: () => limits.push(limiter.state().limit),
    });
    const seconds = (performance.now() - started) / 1000;
    const ids = rows.map((row) => row.id ?? '');
    const { refused, wrong } = await audit(portal, ids);
    const { updated, failed, uncertain } = result.counts;
    return { rate: updated / seconds, inFlight: settled(limits), refused, wrong: wrong + failed + uncertain + (ids.length - updated) };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** Bare node:http requests for `ids`, `inFlight` at once (`pairs`: a GET then a PUT per record); records per second. */
async function bare(portal: Portal, ids: readonly string[], inFlight: number, pairs: boolean, label: string): Promise<number> {
  const send = async (method: 'GET' | 'PUT', recordId: string): Promise<void> => {
    const answer = await bareRequest(
      method,
      `${portal.baseUrl}/api/v1/app/${APP}/record/${recordId}`,
      { Authorization: `Bearer ${portal.token}`, ...(method === 'PUT' ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}) },
      method === 'PUT' ? new URLSearchParams({ [FIELD]: `${label} ${recordId}` }).toString() : undefined,
    );
    if (answer.status !== 200) throw new Error(`${method} ${recordId}: ${answer.status}`);
  };
  let next = 0;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    while (next < ids.length) {
      const recordId = ids[next++];
      if (pairs) await send('GET', recordId);
      await send('PUT', recordId);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.round(inFlight)) }, worker));
  return (ids.length / (performance.now() - started)) * 1000;
}

/** The rows a job reports: its rate against the target, the in flight it settled on, the 429s, the rows lost or doubled. */
function jobRows(what: string, job: Job, target: number, targetText: string): BenchRow[] {
  return [
    {
      measure: `${what}: rows/s`,
      value: `${job.rate.toFixed(1)} /s`,
      target: `>= ${targetText} = ${target.toFixed(1)} /s`,
      met: job.rate >= target,
    },
    { measure: `${what}: in flight settled on; 429s met`, value: `${job.inFlight.toFixed(1)}; ${job.refused}` },
    { measure: `${what}: rows lost or updated twice`, value: String(job.wrong), target: '0', met: job.wrong === 0 },
  ];
}

const ids = (rows: readonly ViewRow[]): string[] => rows.map((row) => row.id ?? '');

runBenchmark(
  `Grid save and Set Field through the portal's limiter (${FAR_MS} ms / ${RATE} req/s, ${MID_MS} ms, next door)`,
  [],
  async () => {
    const rows: BenchRow[] = [];
    const notes: string[] = [];
    // Disjoint slices of the 100,000 rows: every job changes records no other job touched.
    let from = 0;
    const take = (portal: Portal, count: number): ViewRow[] => {
      const slice = portal.rows.slice(from, from + count);
      from += count;
      return slice;
    };

    const far = await open(['--latency', String(FAR_MS), '--rate-limit', String(RATE)]);
    try {
      const save = await gridSave(far, take(far, SAVE_ROWS), 'Far save');
      rows.push(
        ...jobRows(
          `${FAR_MS} ms, ${RATE} req/s: grid save of ${SAVE_ROWS} rows (GET + PUT)`,
          save,
          (TARGET * RATE) / 2,
          `${TARGET} x ${RATE / 2} pairs/s`,
        ),
      );
      const set = await setField(far, take(far, SET_ROWS), 'Far set');
      rows.push(
        ...jobRows(`${FAR_MS} ms, ${RATE} req/s: Set Field on ${SET_ROWS} rows (PUT)`, set, TARGET * RATE, `${TARGET} x ${RATE} /s`),
      );
    } finally {
      await far.emulator.stop();
    }

    const mid = await open(['--latency', String(MID_MS)]);
    try {
      const save = await gridSave(mid, take(mid, SAVE_ROWS), 'Mid save');
      const bareSave = await bare(mid, ids(take(mid, SAVE_ROWS)), save.inFlight, true, 'Mid bare');
      rows.push(
        ...jobRows(
          `${MID_MS} ms: grid save of ${SAVE_ROWS} rows`,
          save,
          TARGET * bareSave,
          `${TARGET} x bare GET + PUT (${bareSave.toFixed(1)} /s)`,
        ),
      );
      const set = await setField(mid, take(mid, SET_ROWS), 'Mid set');
      const bareSet = await bare(mid, ids(take(mid, SET_ROWS)), set.inFlight, false, 'Mid bare');
      rows.push(
        ...jobRows(`${MID_MS} ms: Set Field on ${SET_ROWS} rows`, set, TARGET * bareSet, `${TARGET} x bare PUT (${bareSet.toFixed(1)} /s)`),
      );
      notes.push(
        `${MID_MS} ms: the bare clients ran with ${Math.round(save.inFlight)} (save) and ${Math.round(set.inFlight)} (Set Field) in flight`,
      );
    } finally {
      await mid.emulator.stop();
    }

    const near = await open([]);
    try {
      // A warm-up each way: JIT and connections on both sides.
      await bare(near, ids(take(near, SAVE_ROWS)), 8, true, 'Warm bare');
      await gridSave(near, take(near, SAVE_ROWS), 'Warm save');
      const save = await gridSave(near, take(near, SAVE_ROWS), 'Near save');
      const bareSave = await bare(near, ids(take(near, SAVE_ROWS)), save.inFlight, true, 'Near bare');
      rows.push(
        ...jobRows(
          `next door: grid save of ${SAVE_ROWS} rows`,
          save,
          TARGET * bareSave,
          `${TARGET} x bare GET + PUT (${bareSave.toFixed(1)} /s)`,
        ),
      );
      notes.push(`next door: the bare client ran with ${Math.round(save.inFlight)} in flight`);
    } finally {
      await near.emulator.stop();
    }
    return { rows, notes };
  },
);
