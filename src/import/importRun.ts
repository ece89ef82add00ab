// One import from start (or resumption) to summary: the journal tied to the source's content, the rows
// planned as they are read, the runner, and the failures file. What the command and the panel call.
import { basename } from 'node:path';
import type { Column } from '../api/types';
import { Journal, type JournalSettings, type OutcomeEntry } from './journal';
import type { JournalLock } from './journalLock';
import { fieldSources, recordIdSource } from './mapping';
import { PlannedRows, RowPlanner, dryRun, indexExisting, type DryRunResult, type ExistingRecords, type ImportSettings } from './plan';
import { failuresPathFor, uncertainPathFor, writeFailuresFile } from './report';
import { runnerOptionsOf, runOperations, type RecordWriter, type RunnerOptions, type RunSummary } from './runner';
import { hashFile, type ImportSource } from './sourceFile';

export interface ImportJob extends RunnerOptions {
  source: ImportSource;
  settings: ImportSettings;
  /** The app's columns (PortalClient.listColumns). */
  columns: readonly Column[];
  writer: RecordWriter;
  /** Upsert: the existing records (readExisting()). */
  existing?: ExistingRecords;
  /**
   * A view of the app that shows every record (no conditions): where a create whose answer was lost is
   * looked for. Without it, such a create is reported uncertain.
   */
  lookupViewId?: string;
  journalPath: string;
  /** The journal's lock when the caller holds it (and releases it); else the run takes it. */
  lock?: JournalLock;
  /** Where the failures file (and the uncertain rows' file) goes; default beside the source. */
  failuresFolder?: string;
  /** Rows in the file, for progress (the command counts them in a pass of its own before the run). */
  total?: number;
}

export interface ImportResult extends RunSummary {
  journalPath: string;
  /** True when an earlier run of the same journal was continued. */
  resumed: boolean;
  /** The failures file, when rows failed and the run was not cancelled. */
  failuresPath: string | undefined;
  /** Rows that may have been created although their answer was lost: a person must check them. */
  uncertain: OutcomeEntry[];
  /** The file of those rows (the source's columns and why), when there are any and the run was not cancelled. */
  uncertainPath: string | undefined;
}

/** Reads `viewId` and indexes its rows by record id and by `matchField` (upsert). */
export async function readExisting(
  writer: RecordWriter,
  appId: string,
  viewId: string,
  matchField?: string,
  signal?: AbortSignal,
): Promise<ExistingRecords> {
  const view = await writer.readView(appId, viewId, [], signal);
  return indexExisting(view.rows, matchField);
}

/** Plans every row and sends nothing: the dry run of `job`. */
export function dryRunImport(job: Pick<ImportJob, 'source' | 'settings' | 'columns' | 'existing' | 'signal'>): Promise<DryRunResult> {
  const planner = new RowPlanner(job.settings, job.columns, job.existing);
  return dryRun(job.source.rows(job.signal), planner, job.signal);
}

/** What of `settings` the journal keeps, to resume only with the same. */
export function journalSettings(settings: ImportSettings): JournalSettings {
  const mapping: Record<string, string> = {};
  for (const [field, column] of fieldSources(settings.mapping)) mapping[column] = `field:${field}`;
  const idColumn = recordIdSource(settings.mapping);
  if (idColumn !== undefined) mapping[idColumn] = 'recordId';
  return {
    mode: settings.mode,
    key: settings.matchField ?? '',
    draft: settings.draft ?? 'published',
    decimalSeparator: settings.conversion?.decimalSeparator ?? '.',
    timeZone: settings.conversion?.timeZone ?? 'UTC',
    mapping,
  };
}

export async function runImport(job: ImportJob): Promise<ImportResult> {
  const { source, settings } = job;
  const sourceHash = await hashFile(source.path, job.signal);
  const journal = await Journal.open(
    job.journalPath,
    { kind: 'import', appId: settings.appId, source: basename(source.path), sourceHash, settings: journalSettings(settings) },
    job.lock,
  );
  try {
    const planner = new RowPlanner(settings, job.columns, job.existing);
    // Finished rows are not planned again, but the planner must see every key the file creates.
    const operations = new PlannedRows(source.rows(job.signal), planner, (row) => {
      if (!journal.isFinished(row.row)) return false;
      planner.finished(row, journal.outcomeOf(row.row)?.outcome === 'created');
      return true;
    });
    const summary = await runOperations(operations, {
      appId: settings.appId,
      writer: job.writer,
      journal,
      draft: settings.draft === 'draft',
      lookupView: job.lookupViewId === undefined ? undefined : { viewId: job.lookupViewId, columns: job.columns },
      total: job.total,
      ...runnerOptionsOf(job),
    });
    let failuresPath: string | undefined;
    if (!summary.cancelled && summary.counts.failed > 0) {
      failuresPath = failuresPathFor(source.path, job.failuresFolder);
      await writeFailuresFile(source, journal, failuresPath);
    }
    const uncertain = journal.entries().filter((entry) => entry.outcome === 'uncertain');
    // Never silently lost: rows nobody could look for (no key or view, a look-up refused) are listed for a
    // person to check; their attempt lines stay, so the next run looks them up before sending anything.
    let uncertainPath: string | undefined;
    if (!summary.cancelled && uncertain.length > 0) {
      uncertainPath = uncertainPathFor(source.path, job.failuresFolder);
      await writeFailuresFile(source, journal, uncertainPath, ['uncertain']);
    }
    return { ...summary, journalPath: journal.path, resumed: journal.resumed, failuresPath, uncertain, uncertainPath };
  } finally {
    await journal.close();
  }
}
