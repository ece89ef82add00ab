// The import panel's messages for a small customers file with bad rows, computed by the host's own code
// from a real file and the emulator's columns: what the panel is opened with, and its dry run's report.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Column } from '../../../src/api/types';
import { dryRunImport } from '../../../src/import/importRun';
import { proposeMapping } from '../../../src/import/mapping';
import {
  defaultOptions,
  importSettings,
  keyOptions,
  mappingRows,
  optionProblems,
  optionWarnings,
  previewOf,
  problemRow,
  sampleRows,
  targetOptions,
} from '../../../src/import/panelState';
import { openSource } from '../../../src/import/sourceFile';
import type { ImportDryRunMessage, ImportInitMessage } from '../../../src/shared/protocol';
import type { PortalClient } from '../../../src/api/client';

export const CUSTOMERS_CSV = [
  'Name,Email,Tier,Customer since,Remarks,Customer no',
  'Acme,acme@example.com,Gold,2026-01-05,first,',
  'Bad date Ltd,bad@example.com,Gold,31-02-2026,,',
  'Bad tier Ltd,tier@example.com,Platinum,2026-01-05,,',
  ',noname@example.com,Silver,2026-01-06,,',
  'Globex,globex@example.com,Silver,06-01-2026,,',
].join('\n');

export interface ImportFixture {
  columns: Column[];
  init: ImportInitMessage;
  dryRun: ImportDryRunMessage;
}

/** The messages for CUSTOMERS_CSV imported into Customers (101); the file is written to a folder removed after. */
export async function importFixture(client: PortalClient): Promise<ImportFixture> {
  const folder = await mkdtemp(join(tmpdir(), 'portal-import-panel-'));
  try {
    const path = join(folder, 'customers.csv');
    await writeFile(path, `${CUSTOMERS_CSV}\n`);
    const columns = await client.listColumns('101');
    const source = await openSource(path);
    const mapping = proposeMapping(source.columns, columns);
    const sample = await sampleRows(source);
    const options = defaultOptions(sample, mapping, columns, 'Europe/Paris', '1');
    const init: ImportInitMessage = {
      type: 'import/init',
      appName: 'Customers',
      portalLabel: 'Demo portal',
      fileName: 'customers.csv',
      formatLabel: 'CSV (delimiter ,)',
      targets: targetOptions(columns),
      uniqueColumns: keyOptions(columns),
      views: [{ value: '1', label: 'All customers (view 1)' }],
      offerDraft: false,
      state: {
        type: 'import/state',
        mapping: mappingRows(mapping),
        preview: previewOf(sample, mapping, columns, options),
        problems: optionProblems(mapping, columns, options),
        warnings: optionWarnings(options, 'customers.uncertain.csv'),
        options,
      },
    };
    const result = await dryRunImport({ source, settings: importSettings('101', mapping, options), columns });
    const dryRun: ImportDryRunMessage = {
      type: 'import/dryRunResult',
      ...result,
      problems: result.problems.map(problemRow),
      totalProblems: result.problems.length,
    };
    return { columns, init, dryRun };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
