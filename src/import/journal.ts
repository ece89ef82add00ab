// The journal of an import or bulk change: an append-only JSON-lines file that says, row by row, what was
// done and which record it made, written as it happens. A run stopped by Cancel, a crash or a reload
// resumes from it: rows with an outcome are not sent again, and a create that was sent without an outcome
// is looked for before it is sent again. It belongs to one source (by the SHA-256 of its content) and one
// job; opened for anything else it refuses, since its row numbers would name other rows.
//
// Durability: an `attempt` line (written before a create or delete is sent) is fdatasync'd before the
// request goes out: losing it could let a crash send the create twice. Outcome lines are only written,
// soon after they are recorded (a row counts as done once its line is written): losing the last ones to
// a crash or a power cut costs a look-up on resume, never a duplicate. Lines from concurrent requests are
// written and synced together (group commit, groupCommit.ts), so syncing does not serialise the requests.
//
// One run at a time: a journal is opened under its lock (journalLock.ts), taken here unless the caller
// holds it already (the command, which also removes the journal under it), let go at close.
import { randomBytes } from 'node:crypto';
import { open, readFile, type FileHandle } from 'node:fs/promises';
import { GroupCommit } from './groupCommit';
import { JournalLock } from './journalLock';
import {
  checkBelongs,
  JOURNAL_VERSION,
  JournalMismatchError,
  lineText,
  parseLines,
  type AttemptLine,
  type HeaderLine,
  type JournalJob,
  type Line,
  type OutcomeCounts,
  type OutcomeEntry,
} from './journalLines';
import type { CreateLookup } from './plan';

export {
  JOURNAL_VERSION,
  JournalMismatchError,
  journalPathFor,
  readJournalJob,
  settingsDifferences,
  type JournalJob,
  type JournalSettings,
  type Outcome,
  type OutcomeCounts,
  type OutcomeEntry,
} from './journalLines';

function noOutcomes(): OutcomeCounts {
  return { created: 0, updated: 0, unchanged: 0, deleted: 0, failed: 0, uncertain: 0 };
}

export class Journal {
  private readonly outcomes = new Map<number, OutcomeEntry>();
  /** Kept as outcomes arrive: progress asks for them after every write. */
  private readonly tally = noOutcomes();
  /** The outcomes whose lines are written (each write's outcomes are counted in its batch's extra). */
  private readonly writtenTally: OutcomeCounts;
  private readonly attempts = new Map<number, AttemptLine>();
  /** Rows whose last line is an attempt: sent (again) after any outcome they had, with no answer since. */
  private readonly unanswered = new Set<number>();
  private readonly lines: GroupCommit<OutcomeCounts>;
  private closed = false;

  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    readonly runId: string,
    /** True when the journal existed: a run is being resumed. */
    readonly resumed: boolean,
    earlier: readonly Line[],
    /** The lock this journal took, let go at close; none when the caller holds one. */
    private readonly ownLock: JournalLock | undefined,
  ) {
    for (const line of earlier) {
      if (line.type === 'attempt') this.noteAttempt(line);
      else if (line.type === 'withdrawn') this.noteWithdrawn(line.row);
      else if (line.type === 'outcome') this.setOutcome(line);
    }
    this.writtenTally = { ...this.tally };
    this.lines = new GroupCommit(handle, noOutcomes, (written) => {
      for (const outcome of Object.keys(written) as Array<keyof OutcomeCounts>) this.writtenTally[outcome] += written[outcome];
    });
  }

  /**
   * Opens the journal of `job` at `path`, resuming the run recorded there, or starts a new one. Refused
   * (JournalBusyError) while another run holds it, unless `lock` is that run's: the caller's, kept by it.
   */
  static async open(path: string, job: JournalJob, lock?: JournalLock): Promise<Journal> {
    const ownLock = lock ? undefined : await JournalLock.acquire(path);
    try {
      return await Journal.openLocked(path, job, ownLock);
    } catch (error) {
      await ownLock?.release();
      throw error;
    }
  }

  private static async openLocked(path: string, job: JournalJob, ownLock: JournalLock | undefined): Promise<Journal> {
    let text: string | undefined;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const lines = text === undefined ? [] : parseLines(text);
    const header = lines[0];
    if (text !== undefined && text.trim() !== '') {
      if (header?.type !== 'header')
        throw new JournalMismatchError(`${path} is not a Portal Explorer journal: move it away or delete it, then start again.`);
      checkBelongs(path, header, job);
    }
    const handle = await open(path, 'a');
    // A line cut off by a crash is ended, so the next one does not run into it.
    if (text !== undefined && text !== '' && !text.endsWith('\n')) await handle.write('\n');
    const runId = header?.type === 'header' ? header.runId : randomBytes(6).toString('hex');
    const journal = new Journal(path, handle, runId, header?.type === 'header', lines.slice(1), ownLock);
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

  /**
   * Records the row's outcome; resolves once its line is written. The lines of one write share their
   * promise: a caller that follows every row's outcome awaits each promise once (see the runner).
   */
  record(entry: Omit<OutcomeEntry, 'type'>): Promise<void> {
    const line: OutcomeEntry = { type: 'outcome', ...entry };
    const previous = this.setOutcome(line);
    const written = this.lines.extra;
    if (previous) written[previous] -= 1;
    written[line.outcome] += 1;
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

  /** Takes the row's outcome; returns the one it replaces. */
  private setOutcome(line: OutcomeEntry): OutcomeEntry['outcome'] | undefined {
    this.unanswered.delete(line.row);
    // Only an uncertain row's attempt is asked for again (its look-up): others are not kept for every row.
    if (line.outcome !== 'uncertain') this.attempts.delete(line.row);
    const previous = this.outcomes.get(line.row)?.outcome;
    if (previous) this.tally[previous] -= 1;
    this.tally[line.outcome] += 1;
    this.outcomes.set(line.row, line);
    return previous;
  }

  /** Every row's last outcome, in row order. */
  entries(): OutcomeEntry[] {
    return [...this.outcomes.values()].sort((a, b) => a.row - b.row);
  }

  /** Every outcome recorded, written or not. */
  counts(): OutcomeCounts {
    return { ...this.tally };
  }

  /** The outcomes whose lines are written: the rows a run may count as done. */
  writtenCounts(): OutcomeCounts {
    return { ...this.writtenTally };
  }

  /** Writes at once the lines that linger, and waits until every line appended so far is written and synced. */
  async settle(): Promise<void> {
    await this.lines.settle();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    try {
      await this.lines.settle();
    } finally {
      this.closed = true;
      await this.handle.close();
      await this.ownLock?.release();
    }
  }

  private append(line: Line, durable: boolean): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`The journal ${this.path} is closed.`));
    return this.lines.append(lineText(line), durable);
  }
}
