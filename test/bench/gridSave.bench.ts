// The grid's save against the emulator's Tickets app (201, view 6: 100,000 rows), the emulator in its own
// process as a portal would be: the memory a change set holds for 1,000 pending edits, and saving 1,000
// changed rows (a conflict check and one update each) beside the emulator's own sustained update rate,
// measured in the same run with bare PUTs (node:http, the least a client can do) at the same number of
// requests at once. The grid's save checks its rows as the grid does (viewCheck.ts: a GET per row, or one
// read of the view when that is cheaper); the same save with the view read forced shows what the read
// costs next door. Then the same, fewer rows, against the emulator answering 200 ms late (a portal 200 ms
// away), where the check's GETs cost a round trip each.
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { PortalClient } from '../../src/api/client';
import { clientCredentials } from '../../src/api/oauth';
import type { RecordData } from '../../src/api/types';
import { ChangeSet } from '../../src/grid/model/changeSet';
import { EditHistory } from '../../src/grid/model/editHistory';
import { appRecords } from '../../src/records/store';
import { saveChanges } from '../../src/grid/model/saveRunner';
import { CHECK_BATCHES, readViewCopies, type ViewCheckSource } from '../../src/grid/model/viewCheck';
import { PINNED, startEmulatorProcess } from './support/emulatorProcess';
import { bareRequest } from './support/bareHttp';
import { mb, median, runBenchmark } from './support/report';
import { configure } from '../support/emulator';

const APP = '201';
const VIEW = '6';
const ROWS = 1000;
const CONCURRENCY = 4;
const ROUNDS = 5;
/** The emulator's latency for a portal far away, and the rows saved there (each round trip costs 200 ms). */
const FAR_MS = 200;
const FAR_ROWS = 100;
const TARGETS = { rateFactor: 0.8, memoryBytes: 5 * 1024 * 1024 };

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

function heapUsed(): number {
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}

function rate(ms: number, rows = ROWS): number {
  return (rows / ms) * 1000;
}

/** Runs `count` jobs, `CONCURRENCY` at a time; the time it took in ms. */
async function timed(count: number, job: (index: number) => Promise<void>): Promise<number> {
  const started = performance.now();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) await job(next++);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return performance.now() - started;
}

runBenchmark('grid save, 1,000 changed rows', [], async () => {
  const emulator = await startEmulatorProcess();
  try {
    const { base_url: baseUrl, client_id: clientId, client_secret: clientSecret } = emulator.info;
    const token = (await clientCredentials({ baseUrl, clientId, clientSecret })).accessToken;
    const client = new PortalClient({ baseUrl, tokens: { accessToken: async () => token, renewAfterUnauthorized: async () => undefined } });
    const view = await client.readView(APP, VIEW);
    const rows = new Map<string, RecordData>(view.rows.map((row) => [row.id ?? '', row.values]));
    const columns = await client.listColumns(APP);

    // Memory: what the change set holds beyond the rows the grid already has.
    const before = heapUsed();
    const measured = new ChangeSet(columns, (recordId) => rows.get(recordId));
    const history = new EditHistory(measured);
    const ids = view.rows.slice(3 * ROWS, 4 * ROWS).map((row) => row.id ?? '');
    for (const recordId of ids) history.edit('edit', 'Edit', [{ recordId, field: 'f31', value: `Bench subject ${recordId}` }]);
    const held = heapUsed() - before;

    // Rounds of: bare PUTs (the emulator's own update rate), bare GET + PUT (the same requests a checked
    // save sends), the grid's save (its check as the grid chooses it), the grid's save with the view read
    // forced; each on 1,000 records changed for the first time. Medians of the rounds, interleaved so that
    // the load of a shared machine falls on all alike.
    const KINDS = 4;
    const fresh = (round: number, kind: number, count = ROWS): string[] =>
      view.rows.slice((round * KINDS + kind + 1) * ROWS, (round * KINDS + kind + 1) * ROWS + count).map((row) => row.id ?? '');
    const send = async (method: 'GET' | 'PUT', recordId: string): Promise<void> => {
      const answer = await bareRequest(
        method,
        `${baseUrl}/api/v1/app/${APP}/record/${recordId}`,
        { Authorization: `Bearer ${token}`, ...(method === 'PUT' ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}) },
        method === 'PUT' ? new URLSearchParams({ f31: `Bare subject ${recordId}` }).toString() : undefined,
      );
      if (answer.status !== 200) throw new Error(`${method} ${recordId}: ${answer.status}`);
    };
    // Warm-up: JIT and connections on both sides, for both kinds of request.
    const warm = view.rows.slice(view.rows.length - ROWS).map((row) => row.id ?? '');
    await timed(warm.length, async (index) => {
      await send('GET', warm[index]);
      await send('PUT', warm[index]);
    });

    // The client's warm-up too: a grid's client has read from its portal before the save (its round trip is timed).
    for (const recordId of warm.slice(0, 20)) await client.readRecord(APP, recordId);

    let viewReads = 0;
    /** The grid's view as the grid's save reads it; `force`: as if the portal were far (the read always chosen). */
    const viewCheck = (force: boolean): ViewCheckSource => ({
      viewRows: view.rows.length,
      roundTripMs: () => (force ? 60_000 : client.roundTripMs),
      read: (wanted, signal, onRows, onCopy) => {
        viewReads += 1;
        return readViewCopies(client, { appId: APP, viewId: VIEW, filters: [] }, wanted, signal, onRows, {
          onCopy,
          batches: CHECK_BATCHES,
        });
      },
    });
    const store = appRecords(client, APP);
    /** The grid's save of `ids` (f31 changed in each); its rate. */
    const gridSave = async (
      ids: readonly string[],
      check: ViewCheckSource | undefined,
      changeSet = new ChangeSet(columns, (recordId) => rows.get(recordId)),
    ): Promise<number> => {
      if (changeSet.size === 0) changeSet.apply(ids.map((recordId) => ({ recordId, field: 'f31', value: `Bench subject ${recordId}` })));
      const started = performance.now();
      const report = await saveChanges(changeSet, store, { concurrency: CONCURRENCY, viewCheck: check });
      const took = performance.now() - started;
      const saved = report.outcomes.filter((outcome) => outcome.kind === 'saved').length;
      if (saved !== ids.length) throw new Error(`Only ${saved} of ${ids.length} rows were saved.`);
      return rate(took, ids.length);
    };

    // The grid's save warmed up as the bare client was (JIT, its connections), each way it can check, on
    // records no round uses: the target is the sustained rate, and cold first rounds would weigh on the median.
    await gridSave(fresh(ROUNDS + 1, 0), undefined);
    await gridSave(fresh(ROUNDS + 1, 1), viewCheck(true));

    const putRates: number[] = [];
    const checkedRates: number[] = [];
    const gridRates: number[] = [];
    const forcedRates: number[] = [];
    const gridViewReads: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const puts = fresh(round, 0);
      putRates.push(rate(await timed(ROWS, (index) => send('PUT', puts[index]))));
      const checked = fresh(round, 1);
      checkedRates.push(
        rate(
          await timed(ROWS, async (index) => {
            await send('GET', checked[index]);
            await send('PUT', checked[index]);
          }),
        ),
      );
      const reads = viewReads;
      gridRates.push(await gridSave(fresh(round, 2), viewCheck(false), round === 0 ? measured : undefined));
      gridViewReads.push(viewReads - reads);
      forcedRates.push(await gridSave(fresh(round, 3), viewCheck(true)));
    }
    const nearRoundTrip = client.roundTripMs;

    // One read of the view's 100,000 rows for the check, alone: what VIEW_ROW_MS in viewCheck.ts stands for.
    const readTimes: number[] = [];
    const wanted = new Set(fresh(0, 3));
    for (let round = 0; round < ROUNDS; round += 1) {
      const started = performance.now();
      await readViewCopies(client, { appId: APP, viewId: VIEW, filters: [] }, wanted, undefined, () => undefined);
      readTimes.push(performance.now() - started);
    }

    // Far away: the emulator answers every request 200 ms late; one round of each, fewer rows.
    await configure(baseUrl, { latencyMs: FAR_MS });
    const far = (kind: number): string[] => fresh(ROUNDS, kind, FAR_ROWS);
    const farPut = rate(await timed(FAR_ROWS, (index) => send('PUT', far(0)[index])), FAR_ROWS);
    const farChecked = rate(
      await timed(FAR_ROWS, async (index) => {
        await send('GET', far(1)[index]);
        await send('PUT', far(1)[index]);
      }),
      FAR_ROWS,
    );
    const farGets = await gridSave(far(2), undefined);
    const farReads = viewReads;
    const farGrid = await gridSave(far(3), viewCheck(false));
    const farGridReads = viewReads - farReads;

    const bareRate = median(putRates);
    const checkedRate = median(checkedRates);
    const gridRate = median(gridRates);
    const forcedRate = median(forcedRates);
    const readMs = median(readTimes);
    return {
      rows: [
        {
          measure: `change set of ${ROWS.toLocaleString('en-US')} pending edits (heap)`,
          value: `${(held / 1024 / 1024).toFixed(1)} MB`,
          target: `≤ ${mb(TARGETS.memoryBytes)}`,
          met: held <= TARGETS.memoryBytes,
        },
        { measure: 'emulator: bare updates (PUT)', value: `${bareRate.toFixed(0)} /s` },
        { measure: 'emulator: bare check + update (GET + PUT)', value: `${checkedRate.toFixed(0)} /s` },
        {
          measure: 'grid save: rows checked and updated',
          value: `${gridRate.toFixed(0)} /s`,
          // Issue 35 settled it: a save that checks each row cannot beat a bare client sending the same
          // GET + PUT pairs, so next door its target is a share of those, not of PUTs alone.
          target: `≥ ${(TARGETS.rateFactor * checkedRate).toFixed(0)} /s (0.8 × bare GET + PUT)`,
          met: gridRate >= TARGETS.rateFactor * checkedRate,
        },
        {
          measure: 'grid save ÷ bare updates; ÷ bare check + update',
          value: `${(gridRate / bareRate).toFixed(2)} ×; ${(gridRate / checkedRate).toFixed(2)} ×`,
        },
        { measure: 'grid save, checked by one view read (forced)', value: `${forcedRate.toFixed(0)} /s` },
        {
          measure: `one read of the view's ${view.rows.length.toLocaleString('en-US')} rows for the check`,
          value: `${readMs.toFixed(0)} ms`,
        },
        {
          measure: `${FAR_MS} ms away, ${FAR_ROWS} rows: bare PUT; bare GET + PUT`,
          value: `${farPut.toFixed(1)} /s; ${farChecked.toFixed(1)} /s`,
        },
        { measure: `${FAR_MS} ms away: grid save, a GET per row`, value: `${farGets.toFixed(1)} /s` },
        // Shown, not held: issue 35 settled the save's target far away as a share of a rate-limited
        // portal's pairs with the adaptive limiter (farSave.bench.ts); here 4 at once, one round of 100.
        { measure: `${FAR_MS} ms away: grid save, rows checked and updated`, value: `${farGrid.toFixed(1)} /s` },
      ],
      notes: [
        `${CONCURRENCY} requests at once everywhere; median of ${ROUNDS} rounds of ${ROWS.toLocaleString('en-US')} records each; far away one round of ${FAR_ROWS}.`,
        ...(PINNED
          ? ['BENCH_PIN=1: the emulator on core 1, this process on core 0 (each side its own core, as with a portal on another machine).']
          : []),
        `rounds: bare PUT ${putRates.map((value) => value.toFixed(0)).join(', ')}; bare GET + PUT ${checkedRates.map((value) => value.toFixed(0)).join(', ')}; grid ${gridRates.map((value) => value.toFixed(0)).join(', ')}; grid, view read forced ${forcedRates.map((value) => value.toFixed(0)).join(', ')} /s.`,
        `The grid's save chose the view read in ${gridViewReads.filter((count) => count > 0).length} of ${ROUNDS} rounds next door (client round trip ${nearRoundTrip?.toFixed(1) ?? '?'} ms after them), and ${farGridReads} read${farGridReads === 1 ? '' : 's'} ${FAR_MS} ms away.`,
        `Next door a GET costs about what a PUT does and a read of the view's ${view.rows.length.toLocaleString('en-US')} rows about ${readMs.toFixed(0)} ms (${((readMs / view.rows.length) * 1000).toFixed(1)} µs a row; viewCheck.ts counts 20): for ${ROWS.toLocaleString('en-US')} rows the GETs are cheaper, so the checked save stays near the bare GET + PUT rate and cannot reach 0.8 × PUT-only. Far away each round of GETs costs a round trip, and one view read replaces them all.`,
      ],
    };
  } finally {
    await emulator.stop();
  }
});
