// The host side of one query panel, without vscode: reads the view through the portal client and hands the
// rows to the panel in chunks, so that the grid paints the first rows while the rest is still on its way;
// keeps the last result for export and for a panel that reloads. The bench runs this very class against a
// page in Chromium (test/bench/viewQuery.bench.ts).
import { viewOf, type ViewRead, type ViewRow } from '../../api/answers';
import { isCancellation, isPortalError } from '../../api/errors';
import { invalidResponse } from '../../api/http';
import type { ViewFilter } from '../../api/filters';
import type { Column } from '../../api/types';
import type { FilterColumn, GridColumn, HostToQueryMessage } from '../../shared/protocol';
import { answerSlices } from './answerSlices';
import { filterColumns, gridColumns, lookupAppsOf } from './viewColumns';

/** What the session needs of PortalClient. */
export interface ViewSource {
  readViewRaw(appId: string, viewId: string, filters: readonly ViewFilter[], signal?: AbortSignal): Promise<Uint8Array>;
  listColumns(appId: string, signal?: AbortSignal): Promise<Column[]>;
}

/** Rows in the first chunk: a screenful and then some, so the grid paints without waiting for the rest. */
export const FIRST_CHUNK_ROWS = 200;
/** Rows in each later chunk: large enough to keep the number of messages small. */
export const CHUNK_ROWS = 10_000;

/** The view's answer read whole (the fallback when it cannot be read in slices). */
function readWhole(text: string, action: string): ViewRead {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw invalidResponse(action, 'it is not JSON.');
  }
  return viewOf(body, action);
}

/** The answer in slices of rows (answerSlices.ts), each read as the client reads a view; or undefined. */
function readSlices(text: string, action: string): Generator<ViewRead, void, undefined> | undefined {
  const answer = answerSlices(text);
  if (!answer) return undefined;
  return (function* () {
    try {
      for (const data of answer.slices(FIRST_CHUNK_ROWS, CHUNK_ROWS)) yield viewOf({ data, metadata: answer.metadata }, action);
    } catch (error) {
      if (error instanceof SyntaxError) throw invalidResponse(action, 'it is not JSON.');
      throw error;
    }
  })();
}

export interface QueryResult {
  filters: ViewFilter[];
  columns: GridColumn[];
  rows: ViewRow[];
}

export type Post = (message: HostToQueryMessage) => unknown;

/** Lets the event loop (and the panel's other messages) run between chunks. */
const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** One row as the panel receives it: [id, draft, values in the grid's column order]. */
export function rowArray(row: ViewRow, keys: readonly string[]): string[] {
  const array = new Array<string>(keys.length + 2);
  array[0] = row.id ?? '';
  array[1] = row.draft === undefined ? '' : row.draft ? '1' : '0';
  const values = row.values;
  for (let index = 0; index < keys.length; index += 1) array[index + 2] = values[keys[index]] ?? '';
  return array;
}

export class ViewQuerySession {
  private appColumns: Column[] | undefined;
  private readonly otherApps = new Map<string, Column[]>();
  private running: AbortController | undefined;
  private lastResult: QueryResult | undefined;
  private lastRunId = 0;
  private lastMetadata: ViewRead['metadata'] = [];

  constructor(
    private readonly source: ViewSource,
    readonly appId: string,
    readonly viewId: string,
    private readonly post: Post,
  ) {}

  /** The last complete result, for export. */
  get result(): QueryResult | undefined {
    return this.lastResult;
  }

  /** The app's columns (read once); the filter builder offers them. */
  async filterColumns(signal?: AbortSignal): Promise<FilterColumn[]> {
    this.appColumns ??= await this.source.listColumns(this.appId, signal);
    return filterColumns(this.appId, this.appColumns, this.lastMetadata, (id) => this.columnsOf(id));
  }

  private columnsOf(appId: string): readonly Column[] | undefined {
    return appId === this.appId ? this.appColumns : this.otherApps.get(appId);
  }

  /** Reads the view with `filters` and streams it to the panel; a newer run cancels this one. */
  async run(runId: number, filters: readonly ViewFilter[]): Promise<void> {
    this.running?.abort();
    const controller = new AbortController();
    this.running = controller;
    this.lastRunId = runId;
    try {
      const action = `Reading view ${this.viewId} of app ${this.appId}`;
      const [bytes] = await Promise.all([this.source.readViewRaw(this.appId, this.viewId, filters, controller.signal), this.ensureAppColumns(controller.signal)]);
      if (controller.signal.aborted) return;
      const text = new TextDecoder().decode(bytes);
      const result = await this.streamAnswer(runId, text, action, filters, controller.signal);
      if (!result || controller.signal.aborted) return;
      this.lastResult = result;
      await this.learnLookupApps(this.lastMetadata, controller.signal);
    } catch (error) {
      if (controller.signal.aborted || isCancellation(error)) return;
      await this.post({ type: 'query/failed', runId, message: errorText(error), ...filterIndexOf(error, filters) });
    } finally {
      if (this.running === controller) this.running = undefined;
    }
  }

  /** Sends the last result again (the panel's page was reloaded), under the panel's new run id. */
  async resend(runId: number): Promise<boolean> {
    const result = this.lastResult;
    if (!result) return false;
    this.lastRunId = runId;
    await this.post({ type: 'query/result', runId, columns: result.columns });
    await this.stream(runId, result, 0, undefined);
    return true;
  }

  /** Stops a run in progress. */
  cancel(): void {
    this.running?.abort();
    this.running = undefined;
  }

  private async ensureAppColumns(signal: AbortSignal): Promise<void> {
    try {
      this.appColumns ??= await this.source.listColumns(this.appId, signal);
    } catch (error) {
      // The grid can do without kinds and choices (it falls back to the metadata's type names).
      if (isCancellation(error)) throw error;
    }
  }

  /**
   * Reads the answer slice by slice and sends each slice as it is read, so the grid paints the first rows
   * while the rest is parsed; falls back to reading it whole. Resolves with the whole result, or undefined
   * when cancelled.
   */
  private async streamAnswer(runId: number, text: string, action: string, filters: readonly ViewFilter[], signal: AbortSignal): Promise<QueryResult | undefined> {
    const slices = readSlices(text, action);
    if (!slices) {
      const view = readWhole(text, action);
      this.lastMetadata = view.metadata;
      const result: QueryResult = { filters: [...filters], columns: gridColumns(this.appId, view.metadata, (id) => this.columnsOf(id)), rows: view.rows };
      await this.post({ type: 'query/result', runId, columns: result.columns });
      await this.stream(runId, result, 0, signal);
      return signal.aborted ? undefined : result;
    }
    let result: QueryResult | undefined;
    for (const slice of slices) {
      if (signal.aborted || runId !== this.lastRunId) return undefined;
      if (!result) {
        this.lastMetadata = slice.metadata;
        result = { filters: [...filters], columns: gridColumns(this.appId, slice.metadata, (id) => this.columnsOf(id)), rows: [] };
        await this.post({ type: 'query/result', runId, columns: result.columns });
      }
      const start = result.rows.length;
      for (const row of slice.rows) result.rows.push(row);
      await this.sendRows(runId, result.columns, result.rows, start, result.rows.length, signal, slice.rows.length);
      await yieldToEventLoop();
    }
    if (!result) {
      // No rows at all: the metadata alone still names the grid's columns.
      const view = readWhole(text, action);
      this.lastMetadata = view.metadata;
      result = { filters: [...filters], columns: gridColumns(this.appId, view.metadata, (id) => this.columnsOf(id)), rows: [] };
      await this.post({ type: 'query/result', runId, columns: result.columns });
    }
    if (signal.aborted || runId !== this.lastRunId) return undefined;
    await this.post({ type: 'query/done', runId, total: result.rows.length });
    return result;
  }

  /** Sends rows [start, end) of `rows` in chunks; resolves with `end` (or where it stopped, when cancelled). */
  private async sendRows(runId: number, columns: readonly GridColumn[], rows: readonly ViewRow[], start: number, end: number, signal?: AbortSignal, chunkRows = CHUNK_ROWS): Promise<number> {
    const keys = columns.map((column) => column.key);
    let from = start;
    while (from < end) {
      if (signal?.aborted || runId !== this.lastRunId) return from;
      const to = Math.min(end, from === 0 ? FIRST_CHUNK_ROWS : from + chunkRows);
      const chunk = new Array<string[]>(to - from);
      for (let index = from; index < to; index += 1) chunk[index - from] = rowArray(rows[index], keys);
      await this.post({ type: 'query/rows', runId, start: from, rows: chunk });
      from = to;
      if (from < end) await yieldToEventLoop();
    }
    return from;
  }

  /** The rest of a result from row `from`, then its end. */
  private async stream(runId: number, result: QueryResult, from: number, signal: AbortSignal | undefined): Promise<void> {
    const total = result.rows.length;
    const sent = await this.sendRows(runId, result.columns, result.rows, from, total, signal);
    if (sent < total || signal?.aborted || runId !== this.lastRunId) return;
    await this.post({ type: 'query/done', runId, total });
  }

  /** Reads the columns of the Lookup apps the view shows, so their columns can be filtered by kind. */
  private async learnLookupApps(metadata: ViewRead['metadata'], signal: AbortSignal): Promise<void> {
    const missing = lookupAppsOf(this.appId, metadata).filter((id) => !this.otherApps.has(id));
    for (const id of missing) {
      try {
        this.otherApps.set(id, await this.source.listColumns(id, signal));
      } catch {
        this.otherApps.set(id, []); // unreadable: its columns are offered with the metadata's type names
      }
    }
    if (metadata.some((entry) => entry.app_id && entry.app_id !== this.appId) && this.appColumns) {
      await this.post({ type: 'query/columns', columns: filterColumns(this.appId, this.appColumns, metadata, (id) => this.columnsOf(id)) });
    }
  }
}

function errorText(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return 'Reading the view failed.';
}

/** The filter row a refusal is about: "Filter 2: ..." from the local encoding, or the column the portal names. */
function filterIndexOf(error: unknown, filters: readonly ViewFilter[]): { filterIndex?: number } {
  if (!isPortalError(error)) return {};
  const numbered = /^Filter (\d+):/.exec(error.message);
  if (numbered) return { filterIndex: Number(numbered[1]) - 1 };
  if (error.field) {
    const index = filters.findIndex((filter) => filter.column === error.field || `f${filter.column}` === error.field);
    if (index >= 0) return { filterIndex: index };
  }
  return {};
}
