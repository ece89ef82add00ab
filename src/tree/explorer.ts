// The Portal explorer's TreeDataProvider: portal > sites > apps > Views (the views the user added > their
// records, a page at a time) and Columns. Every load goes through the shared caches (catalog, view rows),
// so expanding a node asks the portal at most once, and again only after a refresh. A load shows progress
// in the view; a failure shows an item with the portal's message and Retry; a portal that needs a sign-in
// shows "Sign in…" instead of its sites.
import * as vscode from 'vscode';
import { isCancellation, type PortalError } from '../api/errors';
import type { RowStore } from '../api/rowStore';
import type { ViewMetadataEntry } from '../api/types';
import { isSignInRequired } from '../model/signInRequired';
import type { CatalogChange } from '../catalog/catalog';
import type { RecordChange } from '../catalog/recordEvents';
import { provisionalMetadata, titleColumnOfView } from '../catalog/recordTitles';
import type { ViewKey } from '../catalog/savedQueries';
import type { Stores } from '../catalog/stores';
import { recordTitle } from '../catalog/titleField';
import type { ViewRowsChange } from '../catalog/viewRows';
import type { ViewsChange } from '../catalog/views';
import { BULK_QUIET_MS } from '../grid/model/quietBatch';
import { EXPLORER_VIEW_ID } from '../ids';
import { Disposable } from '../lifecycle';
import { createLogger } from '../log';
import { onDidChangeSettings, setting } from '../settings/settings';
import { describeError } from '../ui/errorBoundary';
import { myEmailOn } from '../catalog/me';
import { addedViewsSource, MY_RECORDS, OwnRecords } from '../watched/ownRecords';
import { ArrivingViews } from './arrivingViews';
import {
  nodeIds,
  type AppNode,
  type ContentNode,
  type ExplorerNode,
  type MessageNode,
  type MyAppNode,
  type MyRecordsNode,
  type PortalNode,
  type SavedQueryNode,
  type SharedPortalNode,
  type ViewNode,
} from './nodes';
import { treeItemOf } from './treeItems';

/** How long a My Records list read for a redraw of its count is handed to the redraw's ask for children. */
const JUST_LISTED_MS = 2_000;

/** Record changes arriving close together (a webhook burst) refresh each app's views once. */
const RECORD_CHANGE_DELAY_MS = 300;

/** What a view's answer that broke off (or was cancelled) says under the rows read. */
function partialText(count: number, partial: PortalError): string {
  const rows = count.toLocaleString('en-US');
  return partial.kind === 'cancelled'
    ? `Partial: cancelled after ${rows} rows`
    : `Partial: only ${rows} rows were read (${partial.message})`;
}

export type ExplorerParts = Stores;

type Change = ExplorerNode | ExplorerNode[] | undefined;

/** What every child node repeats of its parent: the parent itself and the portal. */
function under<P extends { portalId: string }>(parent: P): { parent: P; portalId: string } {
  return { parent, portalId: parent.portalId };
}

/** A child of a node in an app: also the app. */
function inApp<P extends { portalId: string; appId: string }>(parent: P): { parent: P; portalId: string; appId: string } {
  return { ...under(parent), appId: parent.appId };
}

/** A child of a view's node: also the view. */
function inView(view: ViewNode): { parent: ViewNode; portalId: string; appId: string; viewId: string } {
  return { ...inApp(view), viewId: view.viewId };
}

export class ExplorerTree extends Disposable implements vscode.TreeDataProvider<ExplorerNode> {
  private readonly changed = new vscode.EventEmitter<Change>();
  readonly onDidChangeTreeData: vscode.Event<Change> = this.changed.event;

  /** Every node handed to VS Code, by id: the same object again for the same id, so refresh(node) works. */
  private readonly nodes = new Map<string, ExplorerNode>();
  /** The record count each view's item shows (undefined: none yet), by view node id. */
  private readonly shownCounts = new Map<string, number | undefined>();
  /** Pages of records shown per view node id (1 until "Load more…"). */
  private readonly pages = new Map<string, number>();
  private readonly pendingApps = new Map<string, { portalId: string; appId: string }>();
  private pendingTimer: ReturnType<typeof setTimeout> | undefined;
  private pendingChangedAt = 0;
  /** Views shown while their rows arrive: their counts said now and then, drawn again when the read ends. */
  private readonly arriving: ArrivingViews;
  /** Views whose app's columns are being read to title their records before the view's metadata comes. */
  private readonly askedColumns = new Set<string>();
  private readonly log = createLogger('tree');
  /** The workspace file's portals without a connection, as last drawn at the root (redrawn when they change). */
  private sharedRoots = '';

  /** What a view's item adds to its description (a watched view says so); set by the watched views. */
  private viewNote: ((node: ViewNode | MyRecordsNode) => string | undefined) | undefined;

  /** My Records' filtered reads (the watched My Records reads the same views the same way). */
  private readonly own: OwnRecords;
  /** Portals whose user dismissed the question for their e-mail: not asked again until the setting changes. */
  private readonly declinedEmail = new Set<string>();
  /** How many of the user's records My Records last listed, by its node id. */
  private readonly myCounts = new Map<string, number>();
  /** A list read just now whose count was drawn: VS Code asks for the children again, and gets these. */
  private readonly justListed = new Map<string, { at: number; apps: Awaited<ReturnType<OwnRecords['list']>> }>();

  constructor(private readonly parts: ExplorerParts) {
    super();
    this.own = new OwnRecords({ ...parts, log: this.log, myRecords: addedViewsSource(parts) });
    this.arriving = this._register(
      new ArrivingViews(
        parts.rows,
        (id) => this.nodes.get(id),
        (nodes) => this.fire(nodes),
      ),
    );
    this._registerAll(
      this.changed,
      parts.portals.onDidChange(() => this.onPortalsChanged()),
      parts.catalog.onDidChange((change) => this.onCatalogChanged(change)),
      parts.views.onDidChange((change) => this.onViewsChanged(change)),
      parts.rows.onDidChange((change) => this.onRowsChanged(change)),
      parts.titles.onDidChange((app) =>
        this.fire(this.find((node) => node.kind === 'view' && node.portalId === app.portalId && node.appId === app.appId)),
      ),
      parts.recordEvents.onDidChange((change) => this.onRecordChanged(change)),
      parts.savedQueries.onDidChange((view) => this.onSavedQueriesChanged(view)),
      parts.workspace.onDidChange(() => this.onWorkspaceChanged()),
      onDidChangeSettings(['tree.pageSize'], () => this.fire(this.find((node) => node.kind === 'view'))),
      onDidChangeSettings(['me.email'], () => {
        this.declinedEmail.clear();
        this.refreshMyRecords();
      }),
    );
  }

  getTreeItem(node: ExplorerNode): vscode.TreeItem {
    const { portals, catalog, views, rows } = this.parts;
    switch (node.kind) {
      case 'portal':
        return treeItemOf(node, { connection: portals.get(node.portalId), state: portals.state(node.portalId) });
      case 'views':
        return treeItemOf(node, { viewCount: views.list(node.portalId, node.appId).length });
      case 'columns':
        return treeItemOf(node, { columnCount: catalog.peekColumns(node.portalId, node.appId)?.length });
      case 'view': {
        const stored = rows.peek(node);
        this.shownCounts.set(node.id, stored?.rows.length);
        const item =
          !stored && rows.arrivingRows(node)
            ? treeItemOf(node, { loading: true })
            : treeItemOf(node, { rowCount: stored?.rows.length, partial: stored?.partial !== undefined });
        const note = this.viewNote?.(node);
        if (note) item.description = [item.description, note].filter(Boolean).join(' · ');
        return item;
      }
      case 'myRecords': {
        const item = treeItemOf(node, { rowCount: this.myCounts.get(node.id) });
        const note = this.viewNote?.(node);
        if (note) item.description = [item.description, note].filter(Boolean).join(' · ');
        return item;
      }
      default:
        return treeItemOf(node);
    }
  }

  /** Sets what view items add to their description, and draws them again. */
  setViewNote(note: (node: ViewNode | MyRecordsNode) => string | undefined): void {
    this.viewNote = note;
    this.redrawViews();
  }

  /** Draws every view item (and My Records') again (not their rows). */
  redrawViews(): void {
    this.fire(this.find((node) => node.kind === 'view' || node.kind === 'myRecords'));
  }

  /** Reads My Records again where it is shown. */
  private refreshMyRecords(portalId?: string): void {
    this.justListed.clear();
    const mine = (node: ExplorerNode): boolean => (portalId === undefined || node.portalId === portalId) && node.kind === 'myRecords';
    this.forget(
      (node) =>
        (node.kind === 'myApp' || node.kind === 'myRecord' || (node.kind === 'message' && node.parent.kind === 'myRecords')) &&
        (portalId === undefined || node.portalId === portalId),
    );
    this.fire(this.find(mine));
  }

  getParent(node: ExplorerNode): ExplorerNode | undefined {
    return node.parent;
  }

  async getChildren(node?: ExplorerNode): Promise<ExplorerNode[]> {
    if (!node)
      return [
        ...this.parts.portals
          .list()
          .map((connection) =>
            this.intern<PortalNode>({ kind: 'portal', id: nodeIds.portal(connection.id), parent: undefined, portalId: connection.id }),
          ),
        ...this.sharedPortalNodes(),
      ];
    switch (node.kind) {
      case 'portal':
        return this.portalChildren(node);
      case 'site':
        return this.load(node, async () => {
          const apps = (await this.parts.catalog.apps(node.portalId)).filter((app) => app.siteId === node.siteId);
          if (apps.length === 0) return [this.message(node, 'hint', 'No apps in this site')];
          return apps.map((app) =>
            this.intern<AppNode>({
              kind: 'app',
              id: nodeIds.app(node, app.appId),
              ...under(node),
              appId: app.appId,
              name: app.name,
              siteName: app.siteName,
              draftMode: app.draftMode,
              commentsPlugin: app.commentsPlugin,
            }),
          );
        });
      case 'app': {
        const base = inApp(node);
        return [
          this.intern({ kind: 'views', id: nodeIds.views(node), ...base }),
          this.intern({ kind: 'columns', id: nodeIds.columns(node), ...base }),
        ];
      }
      case 'views': {
        const added = this.parts.views.list(node.portalId, node.appId);
        if (added.length === 0)
          return [this.message(node, 'hint', 'No views yet: Add View…', 'The portal cannot list the views of an app: add one by its id.')];
        return added.map((view) =>
          this.intern<ViewNode>({
            kind: 'view',
            id: nodeIds.view(node, view.viewId),
            ...inApp(node),
            viewId: view.viewId,
            viewName: view.name,
            shared: view.shared === true,
          }),
        );
      }
      case 'columns':
        return this.load(node, async () => {
          const columns = await this.parts.catalog.columns(node.portalId, node.appId);
          if (columns.length === 0) return [this.message(node, 'hint', 'No columns')];
          return columns.map((column) =>
            this.intern({
              kind: 'column',
              id: nodeIds.column(node, column.field_id_in_data),
              ...inApp(node),
              fieldId: column.field_id_in_data,
              column,
            }),
          );
        });
      case 'view':
        // Saved queries come first and stay even when the view's records fail to load.
        return [...this.savedQueryNodes(node), ...(await this.load(node, () => this.viewPage(node)))];
      case 'myRecords':
        return this.myRecordsChildren(node);
      case 'myApp':
        return node.records.map(({ recordId, title }) =>
          this.intern({
            kind: 'myRecord',
            id: nodeIds.myRecord(node, recordId),
            ...inApp(node),
            recordId,
            title,
          }),
        );
      default:
        return [];
    }
  }

  /** Redraws nodes and what they show (the whole tree without any), asking again what is not cached. */
  refresh(nodes?: ExplorerNode | ExplorerNode[]): void {
    this.fire(nodes);
  }

  /** One more page of the view's records, from the rows already read (no request). */
  loadMore(view: ViewNode): void {
    this.pages.set(view.id, (this.pages.get(view.id) ?? 1) + 1);
    this.fire(view);
  }

  /** Nodes the tree has shown that pass `test`. */
  find(test: (node: ExplorerNode) => boolean): ExplorerNode[] {
    return [...this.nodes.values()].filter(test);
  }

  override dispose(): void {
    if (this.pendingTimer) clearTimeout(this.pendingTimer);
    super.dispose();
  }

  // ---- children ----

  private async portalChildren(node: PortalNode): Promise<ExplorerNode[]> {
    const state = this.parts.portals.state(node.portalId);
    if (state !== 'signedIn') return [this.message(node, 'signIn', 'Sign in…', state === 'expired' ? 'The session expired' : 'Signed out')];
    return this.load(node, async () => {
      const sites = await this.parts.catalog.sites(node.portalId);
      if (sites.length === 0) return [this.message(node, 'hint', 'No sites')];
      // My Records reads the added views: without any, it would only ever say so.
      const anyView = sites.some((site) => site.apps.some((app) => this.parts.views.list(node.portalId, app.app_id).length > 0));
      const mine = anyView
        ? [
            this.intern<MyRecordsNode>({
              kind: 'myRecords',
              id: nodeIds.myRecords(node),
              ...under(node),
              appId: MY_RECORDS.appId,
              viewId: MY_RECORDS.viewId,
              viewName: 'My Records',
            }),
          ]
        : [];
      return [
        ...mine,
        ...sites.map((site) =>
          this.intern({
            kind: 'site',
            id: nodeIds.site(node, site.id),
            ...under(node),
            siteId: site.id,
            name: site.name,
            manager: site.manager,
          }),
        ),
      ];
    });
  }

  /**
   * My Records: the e-mail is asked for only now, when the node is expanded; without one, a hint that sets
   * it. Then one filtered read per USER column of each chosen view, grouped by app.
   */
  private async myRecordsChildren(node: MyRecordsNode): Promise<ExplorerNode[]> {
    const connection = this.parts.portals.get(node.portalId);
    const ask = this.declinedEmail.has(node.portalId) ? undefined : { reason: 'to list your records in My Records' };
    const email = connection ? await myEmailOn(connection, ask) : undefined;
    if (!email) {
      this.declinedEmail.add(node.portalId);
      return [
        this.message(
          node,
          'hint',
          'Set your e-mail to see your records',
          'The portal cannot say who you are: My Records lists the records whose USER columns hold your e-mail.',
        ),
      ];
    }
    return this.load(node, async () => {
      const ready = this.justListed.get(node.id);
      this.justListed.delete(node.id);
      // Only the redraw's own ask takes the list just read; a later one (Refresh) reads again.
      const apps = ready && Date.now() - ready.at < JUST_LISTED_MS ? ready.apps : await this.own.list(node.portalId, email);
      const total = apps.reduce((sum, app) => sum + app.records.length, 0);
      if (this.myCounts.get(node.id) !== total) {
        // The item's count is drawn by redrawing the node, which asks for its children again: the same list.
        this.myCounts.set(node.id, total);
        this.justListed.set(node.id, { at: Date.now(), apps });
        this.fire(node);
      }
      if (apps.length === 0) return [this.message(node, 'hint', `None of your records (${email}) in the added views`)];
      return apps.map((app) =>
        this.intern<MyAppNode>({
          kind: 'myApp',
          id: nodeIds.myApp(node, app.appId),
          ...under(node),
          appId: app.appId,
          name: app.appName,
          records: app.records,
        }),
      );
    });
  }

  /** The workspace file's portals this VS Code lacks (Sign in to…) or has at another address (conflict). */
  private sharedPortalNodes(): SharedPortalNode[] {
    return this.parts.workspace.matches().flatMap((match): SharedPortalNode[] => {
      if (match.kind === 'connected') return [];
      const { name, baseUrl } = match.portal;
      const id = nodeIds.sharedPortal(name);
      const connectionBaseUrl = match.kind === 'conflict' ? match.connectionBaseUrl : undefined;
      return [
        this.intern<SharedPortalNode>({
          kind: 'sharedPortal',
          id,
          parent: undefined,
          portalId: id,
          name,
          status: match.kind,
          baseUrl,
          connectionBaseUrl,
        }),
      ];
    });
  }

  private savedQueryNodes(view: ViewNode): SavedQueryNode[] {
    return this.parts.savedQueries.listMarked(view).map(({ query, shared }) =>
      this.intern<SavedQueryNode>({
        kind: 'savedQuery',
        id: nodeIds.savedQuery(view, query.name),
        ...inView(view),
        viewName: view.viewName,
        queryName: query.name,
        filterCount: query.filters.length,
        shared,
      }),
    );
  }

  /**
   * The first pages of a view's records (building items only for them: a view may hold a million), as soon
   * as the first rows have arrived: while the rest is still coming, a "Loading… N rows" item (Cancel) ends
   * the list and the view is drawn again as more arrive and when the read ends.
   */
  private async viewPage(view: ViewNode): Promise<ExplorerNode[]> {
    const soon = await this.parts.rows.soon(view);
    const stored = 'stored' in soon ? soon.stored : undefined;
    const rows = stored?.rows ?? ('arriving' in soon ? soon.arriving : undefined);
    if (!rows) return [];
    if ('read' in soon) this.arriving.follow(view, soon.read);
    // VS Code draws a view's item before asking for its children: after a refresh (rows dropped) the item
    // was drawn without a count, and nothing drew it again once the rows came. Draw it again now, and let
    // VS Code take that in before these children are handed over: it then drops this fetch and asks again.
    // Redrawn just after they were handed over, the rows shown kept handles VS Code had let go, and their
    // inline actions (Publish Draft…) ran with no record.
    if (stored && this.shownCounts.has(view.id) && this.shownCounts.get(view.id) !== rows.length) {
      this.shownCounts.set(view.id, rows.length);
      this.fire(view);
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    const metadata = (stored && stored.metadata.length > 0 ? stored.metadata : rows.metadata) ?? this.provisionalMetadata(view, rows);
    const title = await titleColumnOfView(this.parts.catalog, view, this.parts.titles.get(view), { metadata });
    const pageSize = setting('tree.pageSize');
    const limit = (this.pages.get(view.id) ?? 1) * pageSize;
    const records: ExplorerNode[] = [];
    let withoutId = 0;
    // Rows are parsed only as far as the page goes: a view may hold a million.
    for (const row of rows.rows(0, rows.length)) {
      if (records.length >= limit) break;
      if (row.id === undefined) {
        withoutId += 1;
        continue;
      }
      records.push(
        this.intern({
          kind: 'record',
          id: nodeIds.record(view, row.id),
          ...inView(view),
          recordId: row.id,
          title: recordTitle(row.id, row.values, title),
          draft: row.draft === true,
        }),
      );
    }
    if (withoutId > 0 && stored)
      this.log.warn(`View ${view.viewId} of app ${view.appId}: ${withoutId} rows carry no record id and are not shown.`);
    const total = rows.length - withoutId;
    const base = inView(view);
    const children: ExplorerNode[] = [];
    // What the rows' state is comes first, where it is seen without scrolling past a page of records.
    if (!stored) children.push(this.intern({ kind: 'loading', id: nodeIds.loading(view), ...base, count: rows.length }));
    else if (stored.partial) children.push(this.message(view, 'partial', partialText(rows.length, stored.partial), stored.partial.message));
    else if (total === 0) children.push(this.message(view, 'hint', 'No records'));
    // Beyond a page, finding a record by clicking "Load more…" is hopeless: offer Go to Record first.
    if (!stored || total > pageSize)
      children.push(this.intern({ kind: 'findRecord', id: nodeIds.findRecord(view), ...base, viewName: view.viewName }));
    children.push(...records);
    if (records.length < total)
      children.push(this.intern({ kind: 'loadMore', id: nodeIds.loadMore(view), ...base, shown: records.length, total }));
    return children;
  }

  /**
   * The view's metadata follows its rows (and is missing when the answer broke off): until then, the first
   * row's keys stand for it, typed from the app's columns. Those are read once when not known yet, after
   * the first page is shown (its titles may change then), so the first records wait for one request only.
   */
  private provisionalMetadata(view: ViewNode, rows: RowStore): ViewMetadataEntry[] {
    if (rows.length === 0) return [];
    const { catalog } = this.parts;
    const columns = catalog.peekColumns(view.portalId, view.appId);
    if (!columns && !this.askedColumns.has(view.id)) {
      this.askedColumns.add(view.id);
      // Not awaited: the page is shown now; the view is drawn again with its titles once the columns are in.
      void catalog
        .columns(view.portalId, view.appId)
        .then(
          () => this.fire(view),
          () => undefined,
        )
        .finally(() => this.askedColumns.delete(view.id));
    }
    return provisionalMetadata(view.appId, rows.row(0), columns);
  }

  /** Runs a load with progress in the view; a failure becomes one item saying so (Retry, or Sign in…). */
  private async load(node: ContentNode, children: () => Promise<ExplorerNode[]>): Promise<ExplorerNode[]> {
    try {
      return await vscode.window.withProgress({ location: { viewId: EXPLORER_VIEW_ID } }, children);
    } catch (error) {
      if (isCancellation(error)) return [];
      const message = describeError(error);
      this.log.warn(`Loading ${node.id}: ${message}`);
      if (isSignInRequired(error)) return [this.message(node, 'signIn', 'Sign in…', message)];
      return [this.message(node, 'error', message, message)];
    }
  }

  private message(parent: ContentNode, tone: MessageNode['tone'], text: string, detail?: string): MessageNode {
    return this.intern<MessageNode>({
      kind: 'message',
      id: nodeIds.message(parent),
      ...under(parent),
      tone,
      text,
      detail,
    });
  }

  // ---- keeping node objects ----

  private intern<T extends ExplorerNode>(fresh: T): T {
    const known = this.nodes.get(fresh.id);
    if (known && known.kind === fresh.kind) {
      Object.assign(known, fresh);
      return known as T;
    }
    this.nodes.set(fresh.id, fresh);
    return fresh;
  }

  /** Forgets nodes under (and with) these ids: they are rebuilt when shown again. */
  private forget(test: (node: ExplorerNode) => boolean): void {
    for (const [id, node] of this.nodes) {
      if (!test(node)) continue;
      this.nodes.delete(id);
      // A view removed (or its portal) starts again at its first page when it comes back.
      if (node.kind === 'view') {
        this.pages.delete(id);
        this.shownCounts.delete(id);
      }
    }
  }

  private fire(nodes: ExplorerNode | ExplorerNode[] | undefined): void {
    if (Array.isArray(nodes)) {
      if (nodes.length > 0) this.changed.fire(nodes);
      return;
    }
    this.changed.fire(nodes);
  }

  // ---- what changes elsewhere ----

  private onPortalsChanged(): void {
    const ids = new Set(this.parts.portals.list().map((connection) => connection.id));
    this.forget((node) => !ids.has(node.portalId));
    this.fire(undefined);
  }

  private onWorkspaceChanged(): void {
    const roots = JSON.stringify(this.parts.workspace.matches().filter((match) => match.kind !== 'connected'));
    if (roots === this.sharedRoots) return;
    this.sharedRoots = roots;
    this.forget((node) => node.kind === 'sharedPortal');
    this.fire(undefined);
  }

  private onCatalogChanged(change: CatalogChange): void {
    if (change.appId === undefined) {
      this.fire(this.find((node) => node.kind === 'portal' && node.portalId === change.portalId));
      return;
    }
    this.fire(this.find((node) => node.kind === 'app' && node.portalId === change.portalId && node.appId === change.appId));
  }

  private onViewsChanged(change: ViewsChange): void {
    const kept = new Set(this.parts.views.list(change.portalId, change.appId).map((view) => view.viewId));
    this.forget((node) => node.portalId === change.portalId && 'viewId' in node && node.appId === change.appId && !kept.has(node.viewId));
    this.fire(this.find((node) => node.kind === 'views' && node.portalId === change.portalId && node.appId === change.appId));
    // The views My Records reads changed (and whether it is shown at all).
    this.refreshMyRecords(change.portalId);
    this.fire(this.find((node) => node.kind === 'portal' && node.portalId === change.portalId));
  }

  private onRowsChanged(change: ViewRowsChange): void {
    const hit = (node: ExplorerNode): boolean =>
      node.portalId === change.portalId &&
      (change.appId === undefined || ('appId' in node && node.appId === change.appId)) &&
      (change.viewId === undefined || ('viewId' in node && node.viewId === change.viewId));
    // Records and "Load more…" are rebuilt from the new rows; the view nodes stay (expansion is kept).
    this.forget(
      (node) =>
        (node.kind === 'record' ||
          node.kind === 'loadMore' ||
          node.kind === 'loading' ||
          node.kind === 'findRecord' ||
          (node.kind === 'message' && node.parent.kind === 'view')) &&
        hit(node),
    );
    this.fire(this.find((node) => node.kind === 'view' && hit(node)));
  }

  private onSavedQueriesChanged(view: ViewKey): void {
    const sameView = (node: ExplorerNode): boolean =>
      node.portalId === view.portalId && 'viewId' in node && node.appId === view.appId && node.viewId === view.viewId;
    const kept = new Set(this.parts.savedQueries.list(view).map((query) => query.name));
    this.forget((node) => node.kind === 'savedQuery' && sameView(node) && !kept.has(node.queryName));
    this.fire(this.find((node) => node.kind === 'view' && sameView(node)));
  }

  private onRecordChanged(change: RecordChange): void {
    this.pendingApps.set(`${change.portalId}\u0000${change.appId}`, { portalId: change.portalId, appId: change.appId });
    // The batch's last change: only rows read since then surely include every change of the batch. A
    // change a read found is in every read started since that one (the watched view's own).
    const changedAt = change.seenAt ?? Date.now();
    this.pendingChangedAt = this.pendingTimer ? Math.max(this.pendingChangedAt, changedAt) : changedAt;
    // An import's or a bulk change's records come one after another for as long as it runs: the views are
    // read once the burst has been quiet, not every RECORD_CHANGE_DELAY_MS while it lasts.
    const burst = change.source === 'import' || change.source === 'bulk';
    if (burst && this.pendingTimer) {
      clearTimeout(this.pendingTimer);
      this.pendingTimer = undefined;
    }
    if (this.pendingTimer) return;
    this.pendingTimer = setTimeout(
      () => {
        const changedAt = this.pendingChangedAt;
        this.pendingTimer = undefined;
        const apps = [...this.pendingApps.values()];
        this.pendingApps.clear();
        // Which rows a change adds to or takes from a view depends on the view's conditions: read again. A read
        // under way runs to its end first (ViewReads.drop), so a trickle of changes cannot keep a big view from loading.
        for (const app of apps) this.parts.rows.drop(app.portalId, app.appId, undefined, { changedAt });
      },
      burst ? BULK_QUIET_MS : RECORD_CHANGE_DELAY_MS,
    );
  }
}
