// Where an import keeps its journal and writes its failures: beside the source, or, when the source's
// folder cannot be written, in the extension's storage folder; an import of a file in a read-only folder
// runs to its end and writes nothing beside the file. The import runs in a child process as another user
// when the tests run as root (root may write anywhere, so only another user meets a read-only folder).
//
// Run as a plain node script with PORTAL_PLACES_CHILD set, this file is that child.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmod, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { PortalClient } from '../../../src/api/client';
import { clientCredentials } from '../../../src/api/oauth';
import { journalPathFor } from '../../../src/import/journal';
import { importPlaces, type ImportPlaces } from '../../../src/import/places';
import { importFile, requestLog } from './portalImport';
import { customersCsv, useImportPortal } from './support';

interface ChildTask {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  path: string;
  storage: string;
}

interface ChildResult {
  places: ImportPlaces;
  created: number;
  failed: number;
  failuresPath: string | undefined;
}

/** The import of the file in the read-only folder, placed as the command places it. */
async function child(task: ChildTask): Promise<ChildResult> {
  const token = (await clientCredentials({ baseUrl: task.baseUrl, clientId: task.clientId, clientSecret: task.clientSecret })).accessToken;
  const client = new PortalClient({
    baseUrl: task.baseUrl,
    tokens: { accessToken: async () => token, renewAfterUnauthorized: async () => undefined },
  });
  const places = await importPlaces(task.path, task.storage);
  const result = await importFile(task.path, client, await client.listColumns('101'), {
    matchField: 'f2',
    journalPath: places.journalPath,
    failuresFolder: places.outputFolder,
  });
  return { places, created: result.counts.created, failed: result.counts.failed, failuresPath: result.failuresPath };
}

const NOBODY = 65_534;

/** Runs the child (as nobody when this process is root) and resolves with what it printed. */
function runChild(task: ChildTask): Promise<ChildResult> {
  const asNobody = process.getuid?.() === 0 ? { uid: NOBODY, gid: NOBODY } : {};
  const running = spawn(process.execPath, [__filename], {
    env: { ...process.env, PORTAL_PLACES_CHILD: JSON.stringify(task) },
    stdio: ['ignore', 'pipe', 'inherit'],
    ...asNobody,
  });
  let out = '';
  running.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) =>
    running.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split('\n').pop() ?? '') as ChildResult)
        : reject(new Error(`the import as another user exited with ${code}: ${out}`)),
    ),
  );
}

if (process.env.PORTAL_PLACES_CHILD) {
  child(JSON.parse(process.env.PORTAL_PLACES_CHILD) as ChildTask).then(
    (result) => {
      console.log(JSON.stringify(result));
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
} else {
  describe('import: where the journal and the failures go', function () {
    this.timeout(60_000);
    const portal = useImportPortal({ reset: 'none' });

    it('beside the source when its folder can be written', async () => {
      const path = join(portal.folder, 'beside.csv');
      await writeFile(path, customersCsv(1));
      assert.deepEqual(await importPlaces(path, join(portal.folder, 'unused-storage')), {
        journalPath: `${path}.portal-journal.jsonl`,
        outputFolder: undefined,
      });
    });

    it("in the extension's storage when the source's folder is read-only: the import runs and writes nothing beside the file", async () => {
      // Every folder on the way open to the other user; the source's own folder read-only.
      await chmod(portal.folder, 0o777);
      const readOnly = join(portal.folder, 'read-only');
      await mkdir(readOnly);
      const path = join(readOnly, 'customers.csv');
      await writeFile(path, `${customersCsv(5, 1, 'Stored').trimEnd()}\nBad tier Ltd,bad@example.com,Platinum,2026-01-05\n`);
      await chmod(path, 0o444);
      await chmod(readOnly, 0o555);
      const storage = join(portal.folder, 'storage', 'import');
      await mkdir(dirname(storage), { mode: 0o777 });
      await chmod(dirname(storage), 0o777);

      const result = await runChild({
        baseUrl: portal.emulator.baseUrl,
        clientId: portal.emulator.clientId,
        clientSecret: portal.emulator.clientSecret,
        path,
        storage,
      });
      assert.deepEqual(result.places, { journalPath: journalPathFor(path, storage), outputFolder: storage });
      assert.equal(dirname(result.places.journalPath), storage, 'the journal is in the storage folder');
      assert.match(
        basename(result.places.journalPath),
        /^customers\.csv-[0-9a-f]{12}\.portal-journal\.jsonl$/,
        'under a name unique to the source path',
      );
      assert.deepEqual([result.created, result.failed], [5, 1]);
      assert.equal(result.failuresPath, join(storage, 'customers.failures.csv'), 'the failures file is in the storage folder too');
      const journal = (await readFile(result.places.journalPath, 'utf8')).trim().split('\n');
      assert.equal(journal.filter((line) => line.includes('"outcome":"created"')).length, 5, 'the journal records each row');
      assert.deepEqual(await readdir(readOnly), ['customers.csv'], 'nothing written beside the file');
      const creates = (await requestLog(portal.emulator)).filter(
        (entry) => entry.method === 'POST' && entry.path === '/api/v1/app/101/record/' && entry.status === 200,
      );
      assert.equal(creates.length, 5);
    });
  });
}
