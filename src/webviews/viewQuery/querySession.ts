// The host side of one query panel, without vscode: reads the view through the portal client, sends the
// first screenful of rows as soon as it is parsed, keeps the whole result, and answers the grid's requests
// for the rows in sight (query/window), sorted as the grid asks (query/sort). The page so holds a few
// hundred rows whatever the result's size; export reads the kept result. The bench runs this very class
// against a page in Chromium (test/bench/viewQuery.bench.ts).
import { viewOf, type ViewRead, type ViewRow } from '../../api/answers';
import { isCancellation, isPortalError } from '../../api/errors';
import { invalidResponse } from '../../api/http';
import type { ViewFilter } from '../../api/filters';
import type { Column } from '../../api/types';
import type { FilterColumn, GridColumn, HostToQueryMessage, SortSpec } from '../../shared/protocol';
import { exportOrder } from './exportRows';
import { answerSlices } from './answerSlices';
import { filterColumns, gridColumns, lookupAppsOf } from './viewColumns';

/** What the session needs of PortalClient. */
export interface ViewSource {
  readViewRaw(appId: string, viewId: string, filters: readonly ViewFilter[], signal?: AbortSignal): Promise<Uint8Array>;
  listColumns(appId: string, signal?: AbortSignal): Promise<Column[]>;
}

/** Rows in the first slice, sent unasked: a screenful and then some, so the grid paints at once. */
export const FIRST_CHUNK_ROWS = 200;
/** Rows per later slice of the answer's parse (between two progress messages). */
export const CHUNK_ROWS = 10_000;
/** The most rows one window answer carries (the grid asks for what is in sight and a margin). */
export const MAX_WINDOW_ROWS = 1_000;

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
  /** The result being read or last read (rows grow while it is read). */
  private current: { runId: number; result: QueryResult; complete: boolean } | undefined;
  private lastRunId = 0;
  private lastMetadata: ViewRead['metadata'] = [];
  private sortState: { version: number; sort: SortSpec | undefined; order: Uint32Array | undefined } = { version: 0, sort: undefined, order: undefined };

  constructor(
    private readonly source: ViewSource,
    readonly appId: string,
    readonly viewId: string,
    private readonly post: Post,
  ) {}

  /** The last complete result, for export. */
  get result(): QueryResult | undefined {
    return this.current?.complete ? this.current.result : undefined;
  }

  /** The order the grid shows the result in (undefined: the portal's), for export. */
  get order(): Uint32Array | undefined {
    return this.sortState.order;
  }

  /** The app's columns (read once); the filter builder offers them. */
  async filterColumns(signal?: AbortSignal): Promise<FilterColumn[]> {
    this.appColumns ??= await this.source.listColumns(this.appId, signal);
    return filterColumns(this.appId, this.appColumns, this.lastMetadata, (id) => this.columnsOf(id));
  }

  private columnsOf(appId: string): readonly Column[] | undefined {
    return appId === this.appId ? this.appColumns : this.otherApps.get(appId);
  }

  /** Reads the view with `filters`, sends its first rows, keeps the rest; a newer run cancels this one. */
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
      const complete = await this.readAnswer(runId, text, action, filters, controller.signal);
      if (!complete || controller.signal.aborted) return;
      await this.learnLookupApps(this.lastMetadata, controller.signal);
    } catch (error) {
      if (controller.signal.aborted || isCancellation(error)) return;
      await this.post({ type: 'query/failed', runId, message: errorText(error), ...filterIndexOf(error, filters) });
    } finally {
      if (this.running === controller) this.running = undefined;
    }
  }

  /** Sends the last result again (the panel's page was reloaded), under the panel's run id. */
  async resend(runId: number): Promise<boolean> {
    const current = this.current;
    if (!current?.complete) return false;
    this.lastRunId = runId;
    current.runId = runId;
    await this.post({ type: 'query/result', runId, columns: current.result.columns });
    if (this.sortState.sort) await this.post({ type: 'query/sorted', runId, sortVersion: this.sortState.version, sort: this.sortState.sort });
    await this.sendWindow(runId, this.sortState.version, 0, FIRST_CHUNK_ROWS);
    await this.post({ type: 'query/done', runId, total: current.result.rows.length });
    return true;
  }

  /** The grid's rows [start, end) in the current order (clamped to what exists and to MAX_WINDOW_ROWS). */
  async window(runId: number, sortVersion: number, start: number, end: number): Promise<void> {
    if (runId !== this.current?.runId || sortVersion !== this.sortState.version) return; // an answer to an older question
    await this.sendWindow(runId, sortVersion, start, end);
  }

  /** Sorts the whole result (indices only) and tells the grid; undefined goes back to the portal's order. */
  async sort(runId: number, sort: SortSpec | undefined): Promise<void> {
    const current = this.current;
    if (!current?.complete || runId !== current.runId) return;
    const order = exportOrder(current.result.columns, current.result.rows, sort);
    this.sortState = { version: this.sortState.version + 1, sort: order ? sort : undefined, order };
    await this.post({ type: 'query/sorted', runId, sortVersion: this.sortState.version, ...(this.sortState.sort ? { sort: this.sortState.sort } : {}) });
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

  private begin(runId: number, filters: readonly ViewFilter[], metadata: ViewRead['metadata']): QueryResult {
    this.lastMetadata = metadata;
    const result: QueryResult = { filters: [...filters], columns: gridColumns(this.appId, metadata, (id) => this.columnsOf(id)), rows: [] };
    this.current = { runId, result, complete: false };
    this.sortState = { version: 0, sort: undefined, order: undefined };
    return result;
  }

  /**
   * Reads the answer slice by slice: the first slice goes to the grid at once, each later one adds to the
   * kept rows and to the count the panel shows; falls back to reading it whole. True once complete.
   */
  private async readAnswer(runId: number, text: string, action: string, filters: readonly ViewFilter[], signal: AbortSignal): Promise<boolean> {
    const slices = readSlices(text, action);
    let result: QueryResult | undefined;
    if (slices) {
      for (const slice of slices) {
        if (signal.aborted || runId !== this.lastRunId) return false;
        if (!result) {
          result = this.begin(runId, filters, slice.metadata);
          await this.post({ type: 'query/result', runId, columns: result.columns });
        }
        for (const row of slice.rows) result.rows.push(row);
        if (result.rows.length === slice.rows.length) await this.sendWindow(runId, 0, 0, FIRST_CHUNK_ROWS);
        else await this.post({ type: 'query/progress', runId, count: result.rows.length });
        await yieldToEventLoop();
      }
    }
    if (!result) {
      // Not in slices (another shape, or no rows at all): read whole.
      const view = readWhole(text, action);
      result = this.begin(runId, filters, view.metadata);
      result.rows = view.rows;
      await this.post({ type: 'query/result', runId, columns: result.columns });
      await this.sendWindow(runId, 0, 0, FIRST_CHUNK_ROWS);
    }
    if (signal.aborted || runId !== this.lastRunId || !this.current) return false;
    this.current.complete = true;
    await this.post({ type: 'query/done', runId, total: result.rows.length });
    return true;
  }

  private async sendWindow(runId: number, sortVersion: number, start: number, end: number): Promise<void> {
    const current = this.current;
    if (!current) return;
    const rows = current.result.rows;
    const from = Math.max(0, Math.min(start, rows.length));
    const to = Math.max(from, Math.min(end, rows.length, from + MAX_WINDOW_ROWS));
    const keys = current.result.columns.map((column) => column.key);
    const order = sortVersion === 0 ? undefined : this.sortState.order;
    const chunk = new Array<string[]>(to - from);
    for (let index = from; index < to; index += 1) chunk[index - from] = rowArray(rows[order ? order[index] : index], keys);
    await this.post({ type: 'query/rows', runId, sortVersion, start: from, rows: chunk });
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
