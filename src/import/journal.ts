// The journal of an import or bulk change: an append-only JSON-lines file that says, row by row, what was
// done and which record it made, written as it happens. A run stopped by Cancel, a crash or a reload
// resumes from it: rows with an outcome are not sent again, and a create that was sent without an outcome
// is looked for before it is sent again. It belongs to one source (by the SHA-256 of its content) and one
// job; opened for anything else it refuses, since its row numbers would name other rows.
//
// Durability: an `attempt` line (written before a create or delete is sent) is fdatasync'd before the
// request goes out: losing it could let a crash send the create twice. Outcome lines are only written,
// at most LINGER_MS after they are recorded (a row counts as done once its line is written): losing the
// last ones to a crash or a power cut costs a look-up on resume, never a duplicate. Lines from concurrent
// requests are written and synced together (group commit), so syncing does not serialise the requests.
import { createHash, randomBytes } from 'node:crypto';
import { open, readFile, type FileHandle } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { CreateLookup } from './plan';

export const JOURNAL_VERSION = 1;

/** Lines that need no sync wait for this many to gather, or LINGER_MS, before a write (kick()). */
const LINGER_LINES = 64;
const LINGER_MS = 50;

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

interface HeaderLine extends JournalJob {
  type: 'header';
  version: number;
  runId: string;
  startedAt: string;
}

interface AttemptLine {
  type: 'attempt';
  row: number;
  lookup?: CreateLookup;
}

/** The portal said it did not take the attempt's request (429, 503): nothing to look for on resume. */
interface WithdrawnLine {
  type: 'withdrawn';
  row: number;
}

type Line = HeaderLine | AttemptLine | WithdrawnLine | OutcomeEntry;

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
    if (then[key] !== now[key]) differences.push(`${key === 'decimalSeparator' ? 'decimal separator' : key === 'timeZone' ? 'time zone' : key}: ${shown(then[key])}, now ${shown(now[key])}`);
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

export class Journal {
  private readonly outcomes = new Map<number, OutcomeEntry>();
  /** Kept as outcomes arrive: progress asks for them after every row. */
  private readonly tally: OutcomeCounts = { created: 0, updated: 0, unchanged: 0, deleted: 0, failed: 0, uncertain: 0 };
  private readonly attempts = new Map<number, AttemptLine>();
  /** Rows whose last line is an attempt: sent (again) after any outcome they had, with no answer since. */
  private readonly unanswered = new Set<number>();
  private queue: Array<{ line: string; durable: boolean; done: (error?: unknown) => void }> = [];
  /** Lines in the queue that must be synced: they are written at once. */
  private queuedDurable = 0;
  /** Set when the queue's lines have waited LINGER_MS. */
  private overdue = false;
  private closing = false;
  private lingering: ReturnType<typeof setTimeout> | undefined;
  private flushing: Promise<void> | undefined;
  private unsynced: Array<{ done: (error?: unknown) => void }> = [];
  private syncing: Promise<void> | undefined;
  private closed = false;

  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    readonly runId: string,
    /** True when the journal existed: a run is being resumed. */
    readonly resumed: boolean,
  ) {}

  /** Opens the journal of `job` at `path`, resuming the run recorded there, or starts a new one. */
  static async open(path: string, job: JournalJob): Promise<Journal> {
    let text: string | undefined;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const lines = text === undefined ? [] : parseLines(text);
    const header = lines[0];
    if (text !== undefined && text.trim() !== '') {
      if (header?.type !== 'header') throw new JournalMismatchError(`${path} is not a Portal Explorer journal: move it away or delete it, then start again.`);
      checkBelongs(path, header, job);
    }
    const handle = await open(path, 'a');
    // A line cut off by a crash is ended, so the next one does not run into it.
    if (text !== undefined && text !== '' && !text.endsWith('\n')) await handle.write('\n');
    const runId = header?.type === 'header' ? header.runId : randomBytes(6).toString('hex');
    const journal = new Journal(path, handle, runId, header?.type === 'header');
    for (const line of lines.slice(1)) {
      if (line.type === 'attempt') journal.noteAttempt(line);
      else if (line.type === 'withdrawn') journal.noteWithdrawn(line.row);
      else if (line.type === 'outcome') journal.setOutcome(line);
    }
    if (!journal.resumed) {
      const first: HeaderLine = { type: 'header', version: JOURNAL_VERSION, ...job, runId, startedAt: new Date().toISOString() };
      await journal.append(first, true);
    }
    return journal;
  }

  /** The row's last recorded outcome. */
  outcomeOf(row: number): OutcomeEntry | undefined {
    return this.outcomes.get(row);
  }

  /**
   * A request that may have been carried out: an attempt with no outcome after it (even when an earlier
   * outcome of the row says 'failed': the row was sent again), or an outcome 'uncertain'. Its lookup says
   * how to find the record it may have created.
   */
  unfinishedAttempt(row: number): AttemptLine | undefined {
    const attempt = this.attempts.get(row);
    return attempt && (this.unanswered.has(row) || this.outcomes.get(row)?.outcome === 'uncertain') ? attempt : undefined;
  }

  /** Whether the row is finished: an outcome that a resumed run does not try again. */
  isFinished(row: number): boolean {
    const outcome = this.outcomes.get(row)?.outcome;
    return outcome !== undefined && outcome !== 'failed' && outcome !== 'uncertain';
  }

  /** Records that a request is about to be sent; resolves once that is on disk. */
  attempt(row: number, lookup?: CreateLookup): Promise<void> {
    const line: AttemptLine = lookup ? { type: 'attempt', row, lookup } : { type: 'attempt', row };
    this.noteAttempt(line);
    return this.append(line, true);
  }

  /**
   * Records that the portal refused the row's request without carrying it out. Not synced: should the line
   * be lost, the resumed run looks for the record once more, which costs a read, never a duplicate.
   */
  withdraw(row: number): Promise<void> {
    this.noteWithdrawn(row);
    return this.append({ type: 'withdrawn', row }, false);
  }

  record(entry: Omit<OutcomeEntry, 'type'>): Promise<void> {
    const line: OutcomeEntry = { type: 'outcome', ...entry };
    this.setOutcome(line);
    return this.append(line, false);
  }

  private noteAttempt(line: AttemptLine): void {
    this.attempts.set(line.row, line);
    this.unanswered.add(line.row);
  }

  private noteWithdrawn(row: number): void {
    this.attempts.delete(row);
    this.unanswered.delete(row);
  }

  private setOutcome(line: OutcomeEntry): void {
    this.unanswered.delete(line.row);
    // Only an uncertain row's attempt is asked for again (its look-up): others are not kept for every row.
    if (line.outcome !== 'uncertain') this.attempts.delete(line.row);
    const previous = this.outcomes.get(line.row);
    if (previous) this.tally[previous.outcome] -= 1;
    this.tally[line.outcome] += 1;
    this.outcomes.set(line.row, line);
  }

  /** Every row's last outcome, in row order. */
  entries(): OutcomeEntry[] {
    return [...this.outcomes.values()].sort((a, b) => a.row - b.row);
  }

  counts(): OutcomeCounts {
    return { ...this.tally };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closing = true;
    // Closing, kick() writes at once what lingers.
    for (let busy = this.kickNow(); busy; busy = this.kickNow()) await busy;
    this.closed = true;
    await this.handle.close();
  }

  private append(line: Line, durable: boolean): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`The journal ${this.path} is closed.`));
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ line: `${JSON.stringify(line)}\n`, durable, done: (error) => (error ? reject(error) : resolve()) });
      if (durable) this.queuedDurable += 1;
      this.kick();
    });
  }

  /** Starts writing what is queued if it is due; what is still being written or synced. */
  private kickNow(): Promise<void> | undefined {
    this.kick();
    return this.flushing ?? this.syncing;
  }

  /**
   * One writer at a time; it starts a microtask later, so lines appended in the same turn (a group of
   * attempts read ahead) go out in one write. Lines that need no sync (outcomes, withdrawals) linger
   * until an attempt line comes to go with them, LINGER_LINES have gathered, or LINGER_MS have passed:
   * a write is a trip to libuv's thread pool, which costs far more than the line (see the bench). One lost
   * to a crash meanwhile costs the resumed run a look-up, never a duplicate.
   */
  private kick(): void {
    if (this.flushing || this.queue.length === 0) return;
    if (this.queuedDurable === 0 && this.queue.length < LINGER_LINES && !this.overdue && !this.closing) {
      this.lingering ??= setTimeout(() => {
        this.lingering = undefined;
        this.overdue = true;
        this.kick();
      }, LINGER_MS);
      return;
    }
    clearTimeout(this.lingering);
    this.lingering = undefined;
    this.flushing = Promise.resolve()
      .then(() => this.flush())
      .finally(() => {
        this.flushing = undefined;
        this.kick();
      });
  }

  /**
   * Writes what is queued, in order. Outcome lines are done once the OS has them (a crashed process loses
   * nothing the OS holds); attempt lines once a sync that began after their write has ended. Syncing runs
   * beside the writing, so an outcome never waits for another row's sync.
   */
  private async flush(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    this.queuedDurable = 0;
    this.overdue = false;
    try {
      await this.handle.write(batch.map((item) => item.line).join(''));
    } catch (error) {
      for (const item of batch) item.done(error);
      return;
    }
    for (const item of batch) if (!item.durable) item.done();
    this.unsynced.push(...batch.filter((item) => item.durable));
    this.startSync();
  }

  /** One sync at a time; lines written while it runs are taken by the next. */
  private startSync(): void {
    if (this.syncing || this.unsynced.length === 0) return;
    this.syncing = this.sync().finally(() => {
      this.syncing = undefined;
      this.startSync();
    });
  }

  private async sync(): Promise<void> {
    while (this.unsynced.length > 0) {
      const written = this.unsynced;
      this.unsynced = [];
      try {
        await this.handle.datasync();
        for (const item of written) item.done();
      } catch (error) {
        for (const item of written) item.done(error);
      }
    }
  }
}

/**
 * The journal's lines. A line that does not parse was cut off by a crash (each run ends it with a line
 * break before writing on): it is skipped, and its request is then looked for or sent again.
 */
function parseLines(text: string): Line[] {
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

function checkBelongs(path: string, header: HeaderLine, job: JournalJob): void {
  if (header.version !== JOURNAL_VERSION) throw new JournalMismatchError(`${path} was written by another version of Portal Explorer (journal version ${header.version}): delete it to start again.`);
  if (header.kind !== job.kind || header.appId !== job.appId) {
    throw new JournalMismatchError(`${path} belongs to another job (${header.kind} into app ${header.appId}), not to this ${job.kind} into app ${job.appId}: delete it, or finish that job first.`);
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
