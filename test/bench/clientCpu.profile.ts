// Not a benchmark: what a client's extra CPU per request costs in rate, on a machine where the client and the
// emulator share the cores. Bare node:http creates (as import.bench.ts sends them, 4 at once) with an extra
// spin of SPINS µs before each request, in turns, after a warm-up of both sides; prints each one's rate
// beside the plain bare client's, and the CPU per request. On two shared cores each extra µs costs more than
// itself: the emulator has time to sleep between requests, and each socket write wakes it.
//   node esbuild.mjs && node out/test/bench/clientCpu.profile.js
import { clientCredentials } from '../../src/api/oauth';
import { bareRequest } from './support/bareHttp';
import { startEmulatorProcess } from './support/emulatorProcess';
import { bareOrderBody } from './support/importOrders';

const SPINS = [0, 20, 30, 40];
const ROUNDS = Number(process.env.CLIENT_CPU_ROUNDS ?? 3);
const RECORDS = 5_000;
const CONCURRENCY = 4;
const WARM = 10_000;

function spin(microseconds: number): void {
  const end = performance.now() + microseconds / 1000;
  while (performance.now() < end) {
    // the client's own work, stood in for
  }
}

async function main(): Promise<void> {
  const emulator = await startEmulatorProcess(['--big-view-records', '100']);
  try {
    const { base_url: baseUrl, client_id: clientId, client_secret: clientSecret } = emulator.info;
    const token = (await clientCredentials({ baseUrl, clientId, clientSecret })).accessToken;
    const url = `${baseUrl}/api/v1/app/102/record/`;
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/x-www-form-urlencoded' };
    let sent = 0;
    const creates = async (count: number, extra: number): Promise<{ rate: number; cpu: number }> => {
      let next = 0;
      const started = performance.now();
      const cpu = process.cpuUsage();
      const worker = async (): Promise<void> => {
        for (; next < count; next += 1) {
          spin(extra);
          const answer = await bareRequest('POST', url, headers, bareOrderBody((sent += 1)));
          if (answer.status !== 200) throw new Error(`A create answered ${answer.status}: ${answer.text}`);
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      const used = process.cpuUsage(cpu);
      return { rate: count / ((performance.now() - started) / 1000), cpu: (used.user + used.system) / count };
    };
    await creates(WARM, 0);
    for (let round = 1; round <= ROUNDS; round += 1) {
      const figures = [];
      for (const extra of SPINS) figures.push({ extra, ...(await creates(RECORDS, extra)) });
      const plain = figures[0].rate;
      console.log(
        `round ${round}: ${figures.map(({ extra, rate, cpu }) => `+${extra} µs: ${rate.toFixed(0)} /s (${(rate / plain).toFixed(2)} ×), ${cpu.toFixed(0)} µs CPU`).join('; ')}`,
      );
    }
  } finally {
    await emulator.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
