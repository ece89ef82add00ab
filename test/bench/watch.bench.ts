// A watched read of the emulator's 100,000-row view (app 201, view 6, issue 34): the CPU the comparison with
// the last read takes beyond the read itself (process CPU time, user + system, around ViewDigest.compare of
// the second read against the first's digest; someone else changed a few rows between them), and the bytes a
// watched view holds per row between reads (the digest's typed arrays).
import type { PortalClient } from '../../src/api/client';
import { ViewDigest } from '../../src/watch/rowDigest';
import { emulatorClient, startEmulatorProcess } from './support/emulatorProcess';
import { median, ms, runBenchmark } from './support/report';

const APP = '201';
const VIEW = '6';
const RUNS = 3;
const CHANGED = ['10', '5000', '99999'];
const TARGETS = { compareMs: 150, bytesPerRow: 16 };

const cpuMs = (since: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

async function read(client: PortalClient) {
  return (await client.streamView(APP, VIEW, [])).rows;
}

runBenchmark('watched read, 100,000 rows', [], async () => {
  const emulator = await startEmulatorProcess();
  try {
    const { client } = await emulatorClient(emulator);
    const first = await read(client); // the emulator generates and caches the view once
    let digest = ViewDigest.compare(undefined, first).digest;
    const rowCount = first.length;
    first.release();
    const compares: number[] = [];
    let found = 0;
    for (let run = 0; run < RUNS; run += 1) {
      for (const recordId of CHANGED) await client.updateRecord(APP, recordId, { f31: `Changed by someone else, run ${run}` });
      const rows = await read(client);
      const started = process.cpuUsage();
      const compared = ViewDigest.compare(digest, rows);
      compares.push(cpuMs(started));
      found = compared.changes.length;
      digest = compared.digest;
      rows.release();
    }
    const compareMs = median(compares);
    const bytesPerRow = digest.heldBytes / digest.length;
    return {
      rows: [
        {
          measure: `compare of a watched read (${rowCount.toLocaleString('en-US')} rows, CPU beyond the read, median of ${RUNS})`,
          value: ms(compareMs),
          target: `≤ ${TARGETS.compareMs} ms`,
          met: compareMs <= TARGETS.compareMs,
        },
        {
          measure: 'held between reads, per row',
          value: `${bytesPerRow.toFixed(1)} B`,
          target: `≤ ${TARGETS.bytesPerRow} B`,
          met: bytesPerRow <= TARGETS.bytesPerRow,
        },
        { measure: 'rows found changed per read', value: String(found), target: String(CHANGED.length), met: found === CHANGED.length },
      ],
    };
  } finally {
    await emulator.stop();
  }
});
