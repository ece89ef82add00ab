// What a person takes away from an import: the dry run's problems as CSV, the summary, and a failures file
// in the source's own format (its columns, plus one saying what went wrong) to fix and import again.
import { createWriteStream } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import type { Journal, Outcome, OutcomeCounts } from './journal';
import type { RowProblem } from './plan';
import type { RunProgress } from './runner';
import { guardFormula } from '../shared/csvText';
import { loadPapa, type ImportSource } from './sourceFile';

/** The column of the failures file that says why; a re-import leaves it unmapped. */
export const PROBLEM_COLUMN = 'Import problem';

/**
 * A list a person opens in a spreadsheet: UTF-8 with a byte-order mark (which spreadsheet programs expect),
 * CRLF, and cells that a spreadsheet would run as formulas guarded as the exports guard them (a value from
 * the source file, "=HYPERLINK(…)", is shown, not run).
 */
export async function csvDocument(fields: string[], rows: string[][]): Promise<string> {
  const Papa = await loadPapa();
  return `\ufeff${Papa.unparse({ fields: guarded(fields), data: rows.map(guarded) })}\r\n`;
}

function guarded(cells: readonly string[]): string[] {
  return cells.map(guardFormula);
}

/** The dry run's problems as CSV. */
export function problemsCsv(problems: readonly RowProblem[]): Promise<string> {
  return csvDocument(
    ['Row', 'Column', 'Value', 'Expected', 'Problem'],
    problems.map((problem) => [String(problem.row), problem.column, problem.value, problem.expected, problem.message]),
  );
}

const number = (value: number): string => value.toLocaleString('en-US');

function duration(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  const minutes = Math.round(seconds / 60);
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/**
 * What the progress notification says: "120 of 2,000 · 45 rows/s · about 42 s left", and when the portal
 * pushes back, "the portal asked to wait 42 s" or "the portal is limiting us to ~40 requests/s".
 */
export function progressText(progress: RunProgress): string {
  const parts = [progress.total === undefined ? number(progress.done) : `${number(progress.done)} of ${number(progress.total)}`];
  if (progress.ratePerSecond > 0)
    parts.push(`${progress.ratePerSecond >= 10 ? number(Math.round(progress.ratePerSecond)) : progress.ratePerSecond.toFixed(1)} rows/s`);
  if (progress.secondsLeft !== undefined && progress.done !== progress.total) parts.push(`about ${duration(progress.secondsLeft)} left`);
  if (progress.waitingSeconds !== undefined) parts.push(`the portal asked to wait ${duration(progress.waitingSeconds)}`);
  else if (progress.limited && progress.requestsPerSecond !== undefined && progress.requestsPerSecond > 0)
    parts.push(`the portal is limiting us to ~${number(Math.round(progress.requestsPerSecond))} requests/s`);
  return parts.join(' · ');
}

export function summaryText(counts: OutcomeCounts): string {
  const parts = [`${counts.created} created`, `${counts.updated} updated`];
  if (counts.deleted > 0) parts.push(`${counts.deleted} deleted`);
  parts.push(`${counts.unchanged} skipped (unchanged)`, `${counts.failed} failed`);
  if (counts.uncertain > 0) parts.push(`${counts.uncertain} uncertain (may have been created: check them)`);
  return parts.join(', ');
}

/**
 * A bulk change's outcome: only what happened ("3 records updated, 1 failed"). Creates and uncertain
 * creates cannot happen in a bulk change, so an import's full list would only say "0 created".
 */
export function bulkSummaryText(counts: OutcomeCounts): string {
  const records = (count: number): string => `${number(count)} record${count === 1 ? '' : 's'}`;
  const parts: string[] = [];
  if (counts.updated > 0) parts.push(`${records(counts.updated)} updated`);
  if (counts.deleted > 0) parts.push(`${records(counts.deleted)} moved to trash`);
  if (counts.unchanged > 0) parts.push(`${number(counts.unchanged)} unchanged`);
  if (counts.failed > 0) parts.push(`${number(counts.failed)} failed`);
  return parts.length > 0 ? parts.join(', ') : 'nothing changed';
}

/** "orders.csv" -> "orders.failures.csv", beside the source or in `folder`. */
export function failuresPathFor(sourcePath: string, folder?: string): string {
  return companionPath(sourcePath, 'failures', folder);
}

/**
 * "orders.csv" -> "orders.uncertain.csv": the rows that may have been created though their answer was lost.
 * Apart from the failures, which are fixed and imported again: these are checked in the app first.
 */
export function uncertainPathFor(sourcePath: string, folder?: string): string {
  return companionPath(sourcePath, 'uncertain', folder);
}

function companionPath(sourcePath: string, what: string, folder: string | undefined): string {
  const extension = extname(sourcePath);
  return join(folder ?? dirname(sourcePath), `${basename(sourcePath, extension)}.${what}${extension || '.csv'}`);
}

/** Writes, waiting for the stream to drain when its buffer is full (errors reach the stream's 'error'). */
function write(stream: NodeJS.WritableStream, text: string): Promise<void> {
  if (stream.write(text)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const drained = (): void => {
      stream.off('error', failed);
      resolve();
    };
    const failed = (error: Error): void => {
      stream.off('drain', drained);
      reject(error);
    };
    stream.once('drain', drained);
    stream.once('error', failed);
  });
}

/**
 * Writes the source rows whose outcome is one of `outcomes` (by default the failed ones) to `path`, in
 * the source's format, each with its reason; reads the source again rather than holding rows. Returns
 * how many rows it wrote; with none, writes nothing.
 */
export async function writeFailuresFile(
  source: ImportSource,
  journal: Journal,
  path: string,
  outcomes: readonly Outcome[] = ['failed'],
): Promise<number> {
  const wanted = new Map(
    journal
      .entries()
      .filter((entry) => outcomes.includes(entry.outcome))
      .map((entry) => [entry.row, entry.reason ?? entry.outcome]),
  );
  if (wanted.size === 0) return 0;
  const Papa = await loadPapa();
  const out = createWriteStream(path);
  const finished = new Promise<void>((resolve, reject) => {
    out.on('finish', resolve);
    out.on('error', reject);
  });
  const columns = [...source.columns, PROBLEM_COLUMN];
  let written = 0;
  if (source.format === 'json') await write(out, '[');
  else await write(out, `\ufeff${Papa.unparse([guarded(columns)], { delimiter: source.delimiter })}\r\n`);
  for await (const row of source.rows()) {
    const reason = wanted.get(row.row);
    if (reason === undefined) continue;
    const problem = `row ${row.row}: ${reason}`;
    if (source.format === 'json') {
      await write(out, `${written > 0 ? ',' : ''}\n  ${JSON.stringify({ ...row.values, [PROBLEM_COLUMN]: problem })}`);
    } else {
      // Cells beyond the header go back too, before the problem: once the row's quotes are fixed they line up.
      // Guarded as the exports are: the file is opened in a spreadsheet to be fixed.
      const cells = [...source.columns.map((name) => row.values[name] ?? ''), ...(row.extra ?? []), problem];
      await write(out, `${Papa.unparse([guarded(cells)], { delimiter: source.delimiter })}\r\n`);
    }
    written += 1;
  }
  if (source.format === 'json') await write(out, '\n]\n');
  out.end();
  await finished;
  return written;
}
