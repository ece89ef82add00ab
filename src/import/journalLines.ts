// The journal's lines and what is decided from them alone: the job a journal belongs to, whether a
// resumed run may use it, and its lines read back (a line cut off by a crash skipped).
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { CreateLookup } from './plan';

export const JOURNAL_VERSION = 1;

/**
 * What decides what an import sends for each row, in words a person chose them in: resuming with other
 * settings would mix records made two ways (another key would even look for the wrong record), so a
 * journal is resumed only with the settings it was started with.
 */
export interface JournalSettings {
  mode: string;
  /** The unique column whose value finds and looks for records, "" for none. */
  key: string;
  draft: string;
  decimalSeparator: string;
  timeZone: string;
  /** Source column -> what it feeds ("field:f2", "recordId"); ignored columns left out. */
  mapping: Record<string, string>;
}

/** What the journal is for; a resumed run must be the same job on the same source, with the same settings. */
export interface JournalJob {
  /** 'import', 'set-field', 'delete'. */
  kind: string;
  appId: string;
  /** The source file's name (shown in messages) or a description of a bulk change. */
  source: string;
  /** SHA-256 of the source's content (or of the bulk change's record ids and value). */
  sourceHash: string;
  /** An import's settings (journals written before they were kept have none, and resume with any). */
  settings?: JournalSettings;
}

export type Outcome = 'created' | 'updated' | 'unchanged' | 'deleted' | 'failed' | 'uncertain';

export interface OutcomeEntry {
  type: 'outcome';
  row: number;
  outcome: Outcome;
  recordId?: string;
  reason?: string;
}

export interface HeaderLine extends JournalJob {
  type: 'header';
  version: number;
  runId: string;
  startedAt: string;
}

export interface AttemptLine {
  type: 'attempt';
  row: number;
  lookup?: CreateLookup;
}

/** The portal said it did not take the attempt's request (429, 503): nothing to look for on resume. */
export interface WithdrawnLine {
  type: 'withdrawn';
  row: number;
}

export type Line = HeaderLine | AttemptLine | WithdrawnLine | OutcomeEntry;

/**
 * A line's JSON, the same as JSON.stringify's for the lines of every row, built by hand: an import writes
 * two per row, and JSON.stringify took three times as long over their objects (0.35 against 0.12 µs).
 */
export function lineText(line: Line): string {
  switch (line.type) {
    case 'attempt':
      return line.lookup
        ? `{"type":"attempt","row":${line.row},"lookup":{"field":${JSON.stringify(line.lookup.field)},"value":${JSON.stringify(line.lookup.value)}}}`
        : `{"type":"attempt","row":${line.row}}`;
    case 'outcome': {
      const recordId = line.recordId === undefined ? '' : `,"recordId":${JSON.stringify(line.recordId)}`;
      const reason = line.reason === undefined ? '' : `,"reason":${JSON.stringify(line.reason)}`;
      return `{"type":"outcome","row":${line.row},"outcome":${JSON.stringify(line.outcome)}${recordId}${reason}}`;
    }
    case 'withdrawn':
      return `{"type":"withdrawn","row":${line.row}}`;
    default:
      return JSON.stringify(line);
  }
}

export class JournalMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JournalMismatchError';
  }
}

/** How `now` differs from the settings the journal was started with, one phrase each ("key: f2, now none"). */
export function settingsDifferences(then: JournalSettings, now: JournalSettings): string[] {
  const shown = (value: string | undefined): string => (value === undefined || value === '' ? 'none' : value);
  const target = (value: string | undefined): string => (value === undefined ? 'ignored' : value.replace(/^field:/, ''));
  const differences: string[] = [];
  for (const key of ['mode', 'key', 'draft', 'decimalSeparator', 'timeZone'] as const) {
    if (then[key] !== now[key])
      differences.push(
        `${key === 'decimalSeparator' ? 'decimal separator' : key === 'timeZone' ? 'time zone' : key}: ${shown(then[key])}, now ${shown(now[key])}`,
      );
  }
  for (const column of new Set([...Object.keys(then.mapping), ...Object.keys(now.mapping)])) {
    const before = then.mapping[column];
    const after = now.mapping[column];
    if (before !== after) differences.push(`column "${column}": ${target(before)}, now ${target(after)}`);
  }
  return differences;
}

/** The header of the journal at `path`: what it was started for; undefined when there is none. */
export async function readJournalJob(path: string): Promise<(JournalJob & { startedAt: string }) | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const header = parseLines(text.slice(0, text.indexOf('\n') < 0 ? undefined : text.indexOf('\n')))[0];
  return header?.type === 'header' ? header : undefined;
}

/** Where the journal of `sourcePath` lives: beside it, or in `folder` under a name unique to its path. */
export function journalPathFor(sourcePath: string, folder?: string): string {
  if (folder === undefined) return `${sourcePath}.portal-journal.jsonl`;
  const pathHash = createHash('sha256').update(sourcePath).digest('hex').slice(0, 12);
  return join(folder, `${basename(sourcePath)}-${pathHash}.portal-journal.jsonl`);
}

export type OutcomeCounts = Record<Outcome, number>;

/**
 * The journal's lines. A line that does not parse was cut off by a crash (each run ends it with a line
 * break before writing on): it is skipped, and its request is then looked for or sent again.
 */
export function parseLines(text: string): Line[] {
  // Whole, as one array, in one parse: a resumed run reads every line of the runs before it.
  const body = text.trimEnd();
  if (body !== '' && !body.includes('\n\n')) {
    try {
      return JSON.parse(`[${body.replaceAll('\n', ',')}]`) as Line[];
    } catch {
      // a line cut off by a crash: line by line below
    }
  }
  const lines: Line[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      lines.push(JSON.parse(line) as Line);
    } catch {
      // cut off by a crash
    }
  }
  return lines;
}

export function checkBelongs(path: string, header: HeaderLine, job: JournalJob): void {
  if (header.version !== JOURNAL_VERSION)
    throw new JournalMismatchError(
      `${path} was written by another version of Portal Explorer (journal version ${header.version}): delete it to start again.`,
    );
  if (header.kind !== job.kind || header.appId !== job.appId) {
    throw new JournalMismatchError(
      `${path} belongs to another job (${header.kind} into app ${header.appId}), not to this ${job.kind} into app ${job.appId}: delete it, or finish that job first.`,
    );
  }
  if (header.sourceHash !== job.sourceHash) {
    throw new JournalMismatchError(
      `${path} belongs to another version of ${header.source}: the file changed since the import started on ${header.startedAt}. ` +
        'Restore the file to resume that import, or delete the journal to start a new one (records it created stay).',
    );
  }
  const differences = header.settings && job.settings ? settingsDifferences(header.settings, job.settings) : [];
  if (differences.length > 0) {
    throw new JournalMismatchError(
      `The import of ${header.source} started on ${header.startedAt} with other settings (${differences.join('; ')}): resume it with those, or start over (records it created stay).`,
    );
  }
}
