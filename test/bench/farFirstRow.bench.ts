// The first rows of a 100,000-row view from a portal far away on a slow link (issue 35): the emulator in its
// own process answers 200 ms late and sends at 5 MB/s. Beside the extension's read, in the same run, what
// the link itself allows: a bare node:http GET of the view to its first body bytes, and a bare round trip
// (the app's columns, a small answer). The target: the first rows within one round trip + 1.2 × the first
// bytes' time, which leaves room for the columns a grid opened cold reads before its view.
//
// Ours is the path every view read takes (PortalClient.streamView, its first batch of rows parsed and handed
// over), through the portal's limiter as in the extension, alone and after the columns (the grid's order
// when the catalog does not hold them yet). Each read is stopped after its first rows, as Cancel does (the
// whole 26 MB would take over 5 s at this rate). Median of ROUNDS, the three in turns.
//   BENCH_FAR_LATENCY (default 200), BENCH_FAR_BYTES_PER_SECOND (5,000,000).
import { request as httpRequest } from 'node:http';
import { PortalClient } from '../../src/api/client';
import { clientCredentials } from '../../src/api/oauth';
import { PortalLimiter } from '../../src/records/limiter';
import { bareRequest } from './support/bareHttp';
import { startEmulatorProcess } from './support/emulatorProcess';
import { median, ms, runBenchmark } from './support/report';

const LATENCY_MS = Number(process.env.BENCH_FAR_LATENCY ?? 200);
const BYTES_PER_SECOND = Number(process.env.BENCH_FAR_BYTES_PER_SECOND ?? 5_000_000);
const APP = '201';
const VIEW = '6';
const ROUNDS = 5;

/** Milliseconds from sending a bare GET to the first bytes of its body; the rest is not read. */
function bareFirstBytes(url: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    // A connection of its own, closed after the first bytes (the rest of the body is left unread).
    const request = httpRequest(url, { headers: { Authorization: `Bearer ${token}` }, agent: false }, (response) => {
      response.once('data', () => {
        const elapsed = performance.now() - started;
        request.destroy();
        resolve(elapsed);
      });
      response.once('error', reject);
    });
    request.once('error', (error) => {
      if (!request.destroyed) reject(error);
    });
    request.end();
  });
}

/** Milliseconds from the start of the read to its first batch of rows, then the read is stopped. */
async function firstRows(client: PortalClient, before?: () => Promise<unknown>): Promise<{ ms: number; rows: number }> {
  const stop = new AbortController();
  let first: { ms: number; rows: number } | undefined;
  const started = performance.now();
  await before?.();
  await client.streamView(APP, VIEW, [], {
    stop: stop.signal,
    onBatch: (batch) => {
      if (first) return;
      first = { ms: performance.now() - started, rows: batch.to - batch.from };
      stop.abort();
    },
  });
  if (!first) throw new Error('The view read ended without a batch of rows.');
  return first;
}

runBenchmark(`First rows of a 100,000-row view, ${LATENCY_MS} ms away at ${BYTES_PER_SECOND / 1e6} MB/s`, [], async () => {
  const emulator = await startEmulatorProcess(['--latency', String(LATENCY_MS), '--bytes-per-second', String(BYTES_PER_SECOND)]);
  try {
    const { base_url: baseUrl, client_id: clientId, client_secret: clientSecret } = emulator.info;
    const token = (await clientCredentials({ baseUrl, clientId, clientSecret })).accessToken;
    const limiter = new PortalLimiter({ maxInFlight: 32 });
    const client = new PortalClient({
      baseUrl,
      tokens: { accessToken: async () => token, renewAfterUnauthorized: async () => undefined },
      gate: limiter,
    });
    const viewUrl = `${baseUrl}/api/v1/app/${APP}/view/${VIEW}`;
    const columnsUrl = `${baseUrl}/api/v1/app/${APP}/columns`;
    const auth = { Authorization: `Bearer ${token}` };
    // Warm-up: the emulator generates its big view on first use, and both clients open their connections.
    await bareRequest('GET', columnsUrl, auth);
    await bareFirstBytes(viewUrl, token);
    await firstRows(client, () => client.listColumns(APP));

    const roundTrips: number[] = [];
    const firstBytes: number[] = [];
    const alone: number[] = [];
    const afterColumns: number[] = [];
    let batchRows = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      const started = performance.now();
      await bareRequest('GET', columnsUrl, auth);
      roundTrips.push(performance.now() - started);
      firstBytes.push(await bareFirstBytes(viewUrl, token));
      const read = await firstRows(client);
      alone.push(read.ms);
      batchRows = read.rows;
      afterColumns.push((await firstRows(client, () => client.listColumns(APP))).ms);
    }
    const roundTrip = median(roundTrips);
    const bytes = median(firstBytes);
    const target = roundTrip + 1.2 * bytes;
    const cold = median(afterColumns);
    const warm = median(alone);
    return {
      rows: [
        { measure: 'bare round trip (the columns, node:http)', value: ms(roundTrip) },
        { measure: "bare GET of the view to its body's first bytes", value: ms(bytes) },
        { measure: `first rows, the view read alone (${batchRows} rows)`, value: ms(warm), target: `≤ ${ms(target)}`, met: warm <= target },
        {
          measure: 'first rows, columns read first (a grid opened cold)',
          value: ms(cold),
          target: `≤ ${ms(target)} (1 round trip + 1.2 × first bytes)`,
          met: cold <= target,
        },
      ],
      notes: [
        `per round (round trip, first bytes, alone, after columns): ${roundTrips
          .map(
            (trip, index) =>
              `${Math.round(trip)}/${Math.round(firstBytes[index])}/${Math.round(alone[index])}/${Math.round(afterColumns[index])}`,
          )
          .join(', ')} ms; in flight ${limiter.state().limit}`,
      ],
    };
  } finally {
    await emulator.stop();
  }
});
