// No duplicate, no loss: 2,000 rows imported while the emulator answers 429 with Retry-After, 503, 500
// and 502, drops connections and loses answers of creates it carried out; and an import whose process is
// killed mid-run (SIGKILL, requests in flight) resumed from its journal. Counted in the emulator.
//
// Run as a plain node script with PORTAL_IMPORT_CHILD set, this file is the process that gets killed.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PortalClient } from '../../../src/api/client';
import { clientCredentials } from '../../../src/api/oauth';
import { clientFor, injectFault, type Fault } from '../api/portal';
import { appliedCreates, fieldValues, importFile, requestLog } from './portalImport';
import { customersCsv, useImportPortal } from './support';

interface ChildTask {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  path: string;
  journalPath: string;
}

/** The import that gets killed: a separate process, signed in on its own. */
async function child(task: ChildTask): Promise<void> {
  const token = (await clientCredentials({ baseUrl: task.baseUrl, clientId: task.clientId, clientSecret: task.clientSecret })).accessToken;
  const client = new PortalClient({
    baseUrl: task.baseUrl,
    tokens: { accessToken: async () => token, renewAfterUnauthorized: async () => undefined },
  });
  const columns = await client.listColumns('101');
  await importFile(task.path, client, columns, { matchField: 'f2', journalPath: task.journalPath });
}

const FAULTS: Fault[] = [
  { status: 429, headers: { 'Retry-After': '1' } },
  { status: 503 },
  { lose_answer: true },
  { drop: true },
  { status: 500 },
  { status: 502, body: '<html><body>Bad gateway</body></html>' },
];

function distinct(values: readonly string[]): number {
  return new Set(values).size;
}

if (process.env.PORTAL_IMPORT_CHILD) {
  child(JSON.parse(process.env.PORTAL_IMPORT_CHILD) as ChildTask).then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
} else {
  describe('import: no duplicate and no loss under faults', function () {
    this.timeout(180_000);
    const portal = useImportPortal();

    it('imports 2,000 rows through 429s, 5xx, dropped connections and lost answers: each created exactly once', async () => {
      const { client } = clientFor(portal.emulator);
      const path = join(portal.folder, 'customers-2000.csv');
      await writeFile(path, customersCsv(2000));
      const injected: Array<Promise<unknown>> = [];
      let next = 100;
      const result = await importFile(path, client, portal.customers, {
        matchField: 'f2', // Name is unique: a lost create is looked for by it
        concurrency: 6,
        onProgress: (progress) => {
          if (progress.done < next) return;
          const fault = FAULTS[(next / 100 - 1) % FAULTS.length];
          next += 100;
          injected.push(injectFault(portal.emulator, { path: '/record/$', method: 'POST', count: 3, ...fault }));
        },
      });
      await Promise.all(injected);
      assert.deepEqual([result.counts.created, result.counts.failed, result.counts.uncertain], [2000, 0, 0]);
      const log = await requestLog(portal.emulator);
      const seen = (test: (entry: (typeof log)[number]) => boolean): number => log.filter(test).length;
      assert.ok(
        seen((entry) => entry.status === 429) > 0 && seen((entry) => entry.status === 503) > 0 && seen((entry) => entry.status === 500) > 0,
        'status faults were met',
      );
      assert.ok(
        seen((entry) => entry.fault === 'lose_answer') > 0 && seen((entry) => entry.fault === 'drop') > 0,
        'lost answers and dropped connections were met',
      );
      assert.equal(await appliedCreates(portal.emulator, '101'), 2000, 'the portal carried out 2,000 creates, no more');
      const names = await fieldValues(client, '101', '1', 'f2');
      assert.equal(names.length, 12 + 2000);
      assert.equal(distinct(names), names.length);
      const ids = new Set(result.counts.created === 2000 ? (await readFile(result.journalPath, 'utf8')).match(/"recordId":"\d+"/g) : []);
      assert.equal(ids.size, 2000, 'every row has its own record id in the journal');
    });

    it('resumes an import killed mid-run (SIGKILL, creates in flight) without creating a record twice', async () => {
      const path = join(portal.folder, 'customers-killed.csv');
      const journalPath = `${path}.portal-journal.jsonl`;
      await writeFile(path, customersCsv(400, 1, 'Killed'));
      // Slow creates: when the process dies, some are on their way and are carried out with nobody to answer.
      await injectFault(portal.emulator, { path: '/record/$', method: 'POST', latency_ms: 40, count: -1 });
      const task: ChildTask = {
        baseUrl: portal.emulator.baseUrl,
        clientId: portal.emulator.clientId,
        clientSecret: portal.emulator.clientSecret,
        path,
        journalPath,
      };
      const killed = spawn(process.execPath, [__filename], {
        env: { ...process.env, PORTAL_IMPORT_CHILD: JSON.stringify(task) },
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      const exited = new Promise<NodeJS.Signals | null>((resolve) => killed.on('exit', (_code, signal) => resolve(signal)));
      while ((await appliedCreates(portal.emulator, '101')) < 150) {
        assert.equal(killed.exitCode, null, 'the import ended before it could be killed');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      killed.kill('SIGKILL');
      assert.equal(await exited, 'SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 200)); // the creates in flight are carried out
      const lines = (await readFile(journalPath, 'utf8'))
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { type: string; row: number });
      const answered = new Set(lines.filter((line) => line.type === 'outcome').map((line) => line.row));
      const inFlight = lines.filter((line) => line.type === 'attempt' && !answered.has(line.row)).length;
      assert.ok(inFlight > 0, 'creates were in flight when the process died');

      const { client } = clientFor(portal.emulator);
      const resumed = await importFile(path, client, portal.customers, { matchField: 'f2', journalPath });
      assert.equal(resumed.resumed, true);
      assert.deepEqual([resumed.counts.created, resumed.counts.failed, resumed.counts.uncertain], [400, 0, 0]);
      assert.equal(await appliedCreates(portal.emulator, '101'), 400, 'no create was carried out twice');
      const names = (await fieldValues(client, '101', '1', 'f2')).filter((name) => name.startsWith('Killed'));
      assert.equal(names.length, 400);
      assert.equal(distinct(names), 400);
    });
  });
}
