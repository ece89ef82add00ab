// The host side of the view query panel: the page's messages to the query session (run, export, save),
// the saved queries of the view, and the result sent again when a hidden panel is shown (its page reloads).
// One panel per view; opening it again brings it to the front (and runs the saved query asked for).
import { cancelled } from '../api/errors';
import * as vscode from 'vscode';
import type { ViewFilter } from '../api/filters';
import type { Stores } from '../catalog/stores';
import { markWalkthroughStep } from '../help/walkthroughProgress';
import { COMMANDS, PANEL_VIEW_TYPES } from '../ids';
import { createLogger } from '../log';
import type { ViewTarget } from '../model/targets';
import { queryToHostSchema } from '../shared/panelMessages';
import type { HostToQueryMessage, QueryBulkMessage, QueryExportMessage, QueryToHostMessage, SavedQuery } from '../shared/protocol';
import { runShownInPanel } from '../ui/errorBoundary';
import { prompter, tell } from '../ui/prompter';
import { OpenPanels } from './openPanels';
import { openRecord } from './openRecord';
import { Panel } from './panel';
import type { PanelDeps } from './recordFormPanel';
import { writeLines } from './viewQuery/exportFile';
import { csvLines, jsonLines } from './viewQuery/exportRows';
import { shapeOfSavedQuery as shapeOf, ViewQuerySession, type QueryResult, type RunShape } from './viewQuery/querySession';

const log = createLogger('viewQuery');

export type QueryPanelDeps = PanelDeps & Pick<Stores, 'savedQueries' | 'viewReads'>;

/** Rows written between two progress reports of an export. */
const EXPORT_PROGRESS_ROWS = 10_000;

export class ViewQueryPanel {
  private static readonly open = new OpenPanels<ViewQueryPanel>();

  /**
   * `appName`: the app's name when known; `run`: a saved query to run at once; `restored`: the panel VS Code
   * brought back after a reload (its page keeps its filters, not run).
   */
  static show(
    deps: QueryPanelDeps,
    target: ViewTarget,
    options: { appName?: string; run?: SavedQuery; restored?: { panel: vscode.WebviewPanel; state: unknown } } = {},
  ): ViewQueryPanel {
    const run = options.run;
    const key = JSON.stringify([target.portalId, target.appId, target.viewId]);
    const existing = ViewQueryPanel.open.get(key);
    if (existing) {
      options.restored?.panel.dispose();
      existing.panel.reveal();
      if (run) {
        existing.pendingRun = run;
        // Not awaited: show() returns the panel at once; sendInit() shows its own failure in the panel.
        void existing.sendInit();
      }
      return existing;
    }
    return ViewQueryPanel.open.add(key, new ViewQueryPanel(deps, target, run, options.appName, options.restored));
  }

  /** Every open query (Set Field and Delete Rows find theirs). */
  static all(): ViewQueryPanel[] {
    return ViewQueryPanel.open.all();
  }

  readonly panel: Panel<QueryToHostMessage, HostToQueryMessage>;
  readonly session: ViewQuerySession;
  private lastRun: { runId: number; filters: ViewFilter[]; shape: RunShape } | undefined;
  private running = false;
  private appName: string;
  private readonly viewName: string;

  private constructor(
    private readonly deps: QueryPanelDeps,
    readonly target: ViewTarget,
    private pendingRun: SavedQuery | undefined,
    appName: string | undefined,
    private readonly restored: { panel: vscode.WebviewPanel; state: unknown } | undefined,
  ) {
    this.appName = appName ?? `App ${target.appId}`;
    this.viewName = target.viewName ?? `View ${target.viewId}`;
    this.panel = Panel.create<QueryToHostMessage, HostToQueryMessage>(
      { viewType: PANEL_VIEW_TYPES.query, title: this.viewName, bundle: 'viewQuery', extensionUri: deps.extensionUri },
      queryToHostSchema,
      restored?.panel,
    );
    const client = deps.portals.client(target.portalId);
    // Columns through the shared catalog (one request per app for the whole extension).
    const source = {
      streamView: client.streamView.bind(client),
      listColumns: async (appId: string) => [...(await deps.catalog.columns(target.portalId, appId))],
    };
    // The view's rows through the shared copies: the tree or a grid showing the same view and filters shares the read.
    this.session = new ViewQuerySession(
      source,
      target.appId,
      target.viewId,
      (message) => this.panel.post(message),
      runShownInPanel,
      deps.viewReads.opener(target),
    );
    this.panel.onMessage((message) => this.handle(message));
    const subscription = deps.savedQueries.onDidChange((view) => {
      if (view.portalId === target.portalId && view.appId === target.appId && view.viewId === target.viewId) {
        // Not awaited: a listener; a hidden panel gets the list again when it reloads (sendInit).
        void this.panel.post({ type: 'query/saved', saved: this.saved() });
      }
    });
    this.panel.onDidDispose(() => {
      subscription.dispose();
      this.session.dispose(); // stops a run under way; the kept rows' memory goes back at once
      log.debug(`closed the query of view ${target.viewId} of app ${target.appId}: its rows are let go`);
    });
  }

  private saved(): SavedQuery[] {
    return this.deps.savedQueries.list(this.target);
  }

  private async handle(message: QueryToHostMessage): Promise<void> {
    switch (message.type) {
      case 'ready':
      case 'retry':
        // A failed read is not kept by the catalog: a Retry reads the columns again.
        await this.sendInit();
        break;
      case 'query/run':
        await this.run(message.runId, message.filters, {
          ...(message.sort ? { sort: message.sort } : {}),
          ...(message.columns ? { columns: message.columns } : {}),
        });
        break;
      case 'query/window':
        await this.session.window(message.runId, message.sortVersion, message.start, message.end);
        break;
      case 'query/sort':
        await this.session.sort(message.runId, message.sort);
        break;
      case 'query/cancel':
        this.session.cancel(message.runId);
        break;
      case 'query/export':
        await this.exportRows(message);
        break;
      case 'query/save':
        await this.saveQuery(message.filters, message.name);
        break;
      case 'query/bulk':
        await this.bulk(message);
        break;
      case 'openRecord':
        await openRecord(this.target.portalId, this.target.appId, message.recordId);
        break;
    }
  }

  /**
   * A failure is its own message, not a run's query/failed: after a reload the host knows no run while the
   * page holds its kept run's id, and would drop it. The page shows it with Retry (`retry` loads again).
   */
  private async sendInit(): Promise<void> {
    await runShownInPanel(
      `${PANEL_VIEW_TYPES.query} init`,
      () => this.init(),
      (message) => this.panel.post({ type: 'query/loadFailed', message }),
    );
  }

  private async init(): Promise<void> {
    const [columns, info] = await Promise.all([
      this.session.filterColumns(),
      this.deps.catalog.app(this.target.portalId, this.target.appId).catch(() => undefined),
    ]);
    if (info?.name) this.appName = info.name;
    const run = this.pendingRun;
    this.pendingRun = undefined;
    const connection = this.deps.portals.get(this.target.portalId);
    await this.panel.post({
      type: 'query/init',
      viewName: this.viewName,
      appName: this.appName,
      portalLabel: connection?.label ?? this.target.portalId,
      columns,
      saved: this.saved(),
      pageState: this.restored?.state,
      restore: {
        portalId: this.target.portalId,
        appId: this.target.appId,
        viewId: this.target.viewId,
        ...(this.target.viewName ? { viewName: this.target.viewName } : {}),
      },
      ...(run ? { run: { filters: run.filters, name: run.name, ...shapeOf(run) } } : {}),
    });
    if (run) return;
    // The page was reloaded (hidden, then shown): give it back what it had.
    if (this.running && this.lastRun) await this.run(this.lastRun.runId, this.lastRun.filters, this.lastRun.shape);
    else if (this.lastRun) await this.session.resend(this.lastRun.runId);
  }

  private async run(runId: number, filters: ViewFilter[], shape: RunShape): Promise<void> {
    this.lastRun = { runId, filters, shape };
    this.running = true;
    const started = Date.now();
    try {
      await this.session.run(runId, filters, shape);
    } finally {
      if (this.lastRun?.runId === runId) this.running = false;
    }
    const rows = this.session.result?.rows.length;
    if (rows !== undefined) markWalkthroughStep('viewQueried');
    log.info(
      `view ${this.target.viewId} of app ${this.target.appId}: ${filters.length} filters, ${rows ?? 'no'} rows in ${Date.now() - started} ms`,
    );
  }

  /** Set Field / Delete Rows on the rows selected, or on every row of the result (the commands take a target). */
  private async bulk(message: QueryBulkMessage): Promise<void> {
    const result = this.session.result;
    if (!result) throw new Error('Run the query first: the change applies to the rows of its result.');
    const ids = message.rows
      ? this.session.selectedRecordIds(message.runId, message.sortVersion, message.rows)
      : [...result.rows.rows()].flatMap((row) => (row.id === undefined ? [] : [row.id]));
    const target = {
      portalId: this.target.portalId,
      appId: this.target.appId,
      viewId: this.target.viewId,
      recordIds: ids,
      selected: message.rows !== undefined,
    };
    await vscode.commands.executeCommand(message.change === 'delete' ? COMMANDS.import.deleteRows : COMMANDS.import.setField, target);
  }

  private async saveQuery(filters: ViewFilter[], suggested: string | undefined): Promise<void> {
    const taken = new Set(this.saved().map((query) => query.name));
    const name = await prompter().inputBox({
      title: `Save query of ${this.viewName}`,
      prompt: 'Name of the query (a query of the same name is replaced)',
      value: suggested,
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim() === '' ? 'Enter a name.' : undefined),
    });
    if (name === undefined) throw cancelled('Saving the query');
    const trimmed = name.trim();
    await this.deps.savedQueries.save(this.target, { name: trimmed, filters });
    tell('info', `${taken.has(trimmed) ? 'Replaced' : 'Saved'} the query "${trimmed}" of ${this.viewName}.`);
  }

  private async exportRows(message: QueryExportMessage): Promise<void> {
    const snapshot = this.session.snapshot();
    if (!snapshot) throw new Error('Run the query before exporting its rows.');
    // The rows (and their order) are kept from here, through the save dialog, to the last line written: closing
    // the panel or a new run meanwhile would release or reorder them, and the file would not hold what it says.
    await this.session.reading(snapshot.result.rows, () => this.exportResult(snapshot.result, snapshot.order, message.format));
  }

  private async exportResult(result: QueryResult, order: Uint32Array | undefined, extension: QueryExportMessage['format']): Promise<void> {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const fileName = `${this.viewName.replace(/[\\/:*?"<>|]+/g, '-')}.${extension}`;
    const total = result.rows.length;
    const uri = await prompter().saveDialog({
      title: `Export ${total.toLocaleString('en-US')} rows of ${this.viewName}${result.partial ? ' (a partial result)' : ''}`,
      saveLabel: 'Export',
      filters: extension === 'csv' ? { 'CSV files': ['csv'] } : { 'JSON files': ['json'] },
      ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, fileName) } : {}),
    });
    if (!uri) return;
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Exporting ${total.toLocaleString('en-US')} rows`, cancellable: true },
      async (progress, token) => {
        const lines = extension === 'csv' ? csvLines(result.columns, result.rows, order) : jsonLines(result.columns, result.rows, order);
        const onLines = async (): Promise<void> => {
          if (token.isCancellationRequested) throw cancelled('The export');
          progress.report({ increment: (EXPORT_PROGRESS_ROWS / total) * 100 });
          await new Promise((resolve) => setImmediate(resolve));
        };
        // A local file is written as the lines are made (flat memory at a million rows); elsewhere whole.
        if (uri.scheme === 'file') await writeLines(uri.fsPath, lines, { every: EXPORT_PROGRESS_ROWS, onLines });
        else await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode([...lines].join('')));
      },
    );
    log.info(`exported ${total} rows of view ${this.target.viewId} as ${extension}${result.partial ? ' (partial)' : ''}`);
    tell(
      'info',
      `Exported ${total.toLocaleString('en-US')} rows to ${vscode.workspace.asRelativePath(uri)}.${result.partial ? ` They are a partial result: ${result.partial}` : ''}`,
    );
  }
}
