// Bulk change of records picked in a view's grid: Set Field (one value for one column) and Delete Rows (to
// trash). The value is converted and checked like an imported one; the work goes through the same runner
// and journal as an import, so a stopped change resumes without doing anything twice, and its failures
// are reported the same way. A job's journal is named by a hash of what it does, so the same change on the
// same records resumes and any other change starts its own.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { ViewRow } from '../api/client';
import { checkRecord } from '../api/formats';
import type { Column } from '../api/types';
import { convertValue, type ConversionOptions } from './convert';
import { Journal, type OutcomeEntry } from './journal';
import { readOnlyReason } from './mapping';
import { describeExpected, type Operation } from './plan';
import { csvDocument } from './report';
import { runnerOptionsOf, runOperations, type RecordWriter, type RunnerOptions, type RunSummary } from './runner';

export type BulkChange = { kind: 'set-field'; field: string; value: string } | { kind: 'delete' };

export interface SetFieldPreview {
  /** The value that will be sent, when it is acceptable. */
  value?: string;
  /** Why it is not, with the expected format. */
  problem?: string;
  expected?: string;
  /** Rows whose value differs (or that the view does not show): each gets an update. */
  changes: number;
  /** Rows that already hold the value: nothing is sent for them. */
  unchanged: number;
}

/** Checks `raw` for `column` as the form does and counts the rows it would change. */
export function previewSetField(
  column: Column,
  columns: readonly Column[],
  raw: string,
  rows: readonly ViewRow[],
  options?: ConversionOptions,
): SetFieldPreview {
  const readOnly = readOnlyReason(column);
  if (readOnly) return { problem: `${column.field_name} is ${readOnly}`, expected: '', changes: 0, unchanged: 0 };
  const converted = raw === '' ? { value: '' } : convertValue(column, raw, options);
  if (converted.problem !== undefined) return { problem: converted.problem, expected: converted.expected, changes: 0, unchanged: 0 };
  const value = converted.value as string;
  const refused = checkRecord(columns, { [column.field_id_in_data]: value }, { creating: false })[0];
  if (refused) return { problem: refused.message, expected: describeExpected(column, refused.message, options), changes: 0, unchanged: 0 };
  const unchanged = rows.filter((row) => row.values[column.field_id_in_data] === value).length;
  return { value, changes: rows.length - unchanged, unchanged };
}

/** The operations of a change over `rows` (in grid order; row numbers from 1). */
export function bulkOperations(change: BulkChange, rows: readonly ViewRow[]): Operation[] {
  return rows.flatMap((row, index): Operation[] => {
    if (row.id === undefined) return [];
    if (change.kind === 'delete') return [{ kind: 'delete', row: index + 1, recordId: row.id }];
    if (row.values[change.field] === change.value) return [{ kind: 'unchanged', row: index + 1, recordId: row.id }];
    return [
      { kind: 'update', row: index + 1, recordId: row.id, changes: { [change.field]: change.value }, publish: false, base: row.values },
    ];
  });
}

/** The journal of `change` on these records, in `folder`. */
export function bulkJournalPath(folder: string, appId: string, change: BulkChange, recordIds: readonly string[]): string {
  return join(folder, `${change.kind}-${appId}-${bulkHash(change, recordIds).slice(0, 16)}.portal-journal.jsonl`);
}

function bulkHash(change: BulkChange, recordIds: readonly string[]): string {
  return createHash('sha256').update(JSON.stringify({ change, recordIds })).digest('hex');
}

export interface BulkJob extends RunnerOptions {
  appId: string;
  change: BulkChange;
  /** The rows picked (or the whole filtered result), with their current values. */
  rows: readonly ViewRow[];
  writer: RecordWriter;
  journalFolder: string;
}

export interface BulkResult extends RunSummary {
  journalPath: string;
  resumed: boolean;
  /** Rows that failed, with their record id and reason. */
  failures: OutcomeEntry[];
}

export async function runBulkChange(job: BulkJob): Promise<BulkResult> {
  const recordIds = job.rows.flatMap((row) => (row.id === undefined ? [] : [row.id]));
  const journalPath = bulkJournalPath(job.journalFolder, job.appId, job.change, recordIds);
  const description =
    job.change.kind === 'delete' ? `delete ${recordIds.length} records` : `set ${job.change.field} on ${recordIds.length} records`;
  const journal = await Journal.open(journalPath, {
    kind: job.change.kind,
    appId: job.appId,
    source: description,
    sourceHash: bulkHash(job.change, recordIds),
  });
  try {
    const pending = bulkOperations(job.change, job.rows).filter((operation) => !journal.isFinished(operation.row));
    async function* operations(): AsyncGenerator<Operation> {
      yield* pending;
    }
    const summary = await runOperations(operations(), {
      appId: job.appId,
      writer: job.writer,
      journal,
      total: recordIds.length,
      ...runnerOptionsOf(job),
    });
    return { ...summary, journalPath, resumed: journal.resumed, failures: journal.entries().filter((entry) => entry.outcome === 'failed') };
  } finally {
    await journal.close();
  }
}

/** The failures of a bulk change as CSV: record id and reason. */
export function bulkFailuresCsv(failures: readonly OutcomeEntry[]): Promise<string> {
  return csvDocument(
    ['Record id', 'Problem'],
    failures.map((entry) => [entry.recordId ?? '', entry.reason ?? entry.outcome]),
  );
}
