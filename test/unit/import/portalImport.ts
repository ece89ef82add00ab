// What the import tests against the emulator share: a client, the records of an app counted over HTTP,
// the requests the emulator applied, and an import of a file with the defaults of these tests.
import type { PortalClient } from '../../../src/api/client';
import type { Column } from '../../../src/api/types';
import { runImport, type ImportJob, type ImportResult } from '../../../src/import/importRun';
import { proposeMapping } from '../../../src/import/mapping';
import type { ImportSettings } from '../../../src/import/plan';
import type { RecordWriter } from '../../../src/import/runner';
import { openSource } from '../../../src/import/sourceFile';
import { testInterface, type Emulator } from '../api/portal';

export interface Logged {
  method: string;
  path: string;
  status: number;
  fault?: string;
}

export async function requestLog(emulator: Emulator): Promise<Logged[]> {
  return (await testInterface(emulator, 'GET', 'requests')) as Logged[];
}

/** Creates the portal carried out: answered 200, or carried out with the answer lost. */
export async function appliedCreates(emulator: Emulator, appId: string): Promise<number> {
  return (await requestLog(emulator)).filter(
    (entry) =>
      entry.method === 'POST' && entry.path === `/api/v1/app/${appId}/record/` && (entry.status === 200 || entry.fault === 'lose_answer'),
  ).length;
}

/** The values of `field` of every live record, read through a view that shows them all. */
export async function fieldValues(client: PortalClient, appId: string, viewId: string, field: string): Promise<string[]> {
  return (await client.readView(appId, viewId)).rows.map((row) => row.values[field] ?? '');
}

export async function importFile(
  path: string,
  client: RecordWriter,
  columns: readonly Column[],
  options: Partial<ImportSettings> &
    Partial<
      Pick<
        ImportJob,
        | 'signal'
        | 'onProgress'
        | 'onRecordChanged'
        | 'lookupViewId'
        | 'existing'
        | 'concurrency'
        | 'journalPath'
        | 'total'
        | 'failuresFolder'
        | 'retry'
        | 'limiter'
        | 'history'
      >
    > = {},
): Promise<ImportResult> {
  const source = await openSource(path);
  const {
    signal,
    onProgress,
    onRecordChanged,
    lookupViewId,
    existing,
    concurrency,
    journalPath,
    total,
    failuresFolder,
    retry,
    limiter,
    history,
    ...settings
  } = options;
  return runImport({
    source,
    settings: { appId: '101', mode: 'create', mapping: proposeMapping(source.columns, columns), ...settings },
    columns,
    writer: client,
    existing,
    lookupViewId: lookupViewId ?? '1',
    journalPath: journalPath ?? `${path}.portal-journal.jsonl`,
    failuresFolder,
    concurrency: concurrency ?? 4,
    signal,
    onProgress,
    onRecordChanged,
    total,
    retry: { baseDelayMs: 20, ...retry },
    limiter,
    history,
  });
}
