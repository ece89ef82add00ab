// The elements of the Portal explorer tree, one kind per level. Apps, views and records carry portalId,
// appId, viewId and recordId themselves, so a context-menu command can hand its argument straight to
// appTargetOf / viewTargetOf / recordTargetOf. Each node's id is stable across refreshes (it is built from
// the ids of its ancestors), so expansion and selection survive a reload.
import type { Column } from '../api/types';

interface Base {
  /** Unique in the tree and stable across refreshes; also the TreeItem's id. */
  readonly id: string;
  readonly parent: ExplorerNode | undefined;
  readonly portalId: string;
}

export interface PortalNode extends Base {
  readonly kind: 'portal';
  readonly parent: undefined;
}

/**
 * A portal the workspace file (.vscode/portal.json) names that this VS Code has no connection to: "Sign in
 * to <name>" (missing), or a connection of the same name at another address, shown and never followed
 * (conflict). Its portalId is not a connection's: no other node is ever under it.
 */
export interface SharedPortalNode extends Base {
  readonly kind: 'sharedPortal';
  readonly parent: undefined;
  readonly name: string;
  status: 'missing' | 'conflict';
  baseUrl: string;
  /** The address of the user's connection of the same name (conflict). */
  connectionBaseUrl: string | undefined;
}

export interface SiteNode extends Base {
  readonly kind: 'site';
  readonly parent: PortalNode;
  readonly siteId: string;
  name: string;
  manager: string;
}

export interface AppNode extends Base {
  readonly kind: 'app';
  readonly parent: SiteNode;
  readonly appId: string;
  name: string;
  siteName: string;
  draftMode: boolean | undefined;
  commentsPlugin: boolean | undefined;
}

export interface ViewsGroupNode extends Base {
  readonly kind: 'views';
  readonly parent: AppNode;
  readonly appId: string;
}

export interface ColumnsGroupNode extends Base {
  readonly kind: 'columns';
  readonly parent: AppNode;
  readonly appId: string;
}

export interface ViewNode extends Base {
  readonly kind: 'view';
  readonly parent: ViewsGroupNode;
  readonly appId: string;
  readonly viewId: string;
  viewName: string;
  /** Named by the workspace file (.vscode/portal.json). */
  shared: boolean;
}

/** A query saved for the view (in the query panel); clicking it runs it again. */
export interface SavedQueryNode extends Base {
  readonly kind: 'savedQuery';
  readonly parent: ViewNode;
  readonly appId: string;
  readonly viewId: string;
  readonly queryName: string;
  viewName: string;
  filterCount: number;
  /** From the workspace file (.vscode/portal.json). */
  shared: boolean;
}

export interface RecordNode extends Base {
  readonly kind: 'record';
  readonly parent: ViewNode;
  readonly appId: string;
  readonly viewId: string;
  readonly recordId: string;
  title: string;
  draft: boolean;
}

export interface LoadMoreNode extends Base {
  readonly kind: 'loadMore';
  readonly parent: ViewNode;
  readonly appId: string;
  readonly viewId: string;
  shown: number;
  total: number;
}

/** The first child of a view with many records: opens Go to Record on the view (typing finds any record). */
export interface FindRecordNode extends Base {
  readonly kind: 'findRecord';
  readonly parent: ViewNode;
  readonly appId: string;
  readonly viewId: string;
  viewName: string;
}

/** The last child of a view whose rows are still arriving: how many so far; clicking it stops the read. */
export interface LoadingNode extends Base {
  readonly kind: 'loading';
  readonly parent: ViewNode;
  readonly appId: string;
  readonly viewId: string;
  count: number;
}

/**
 * My Records of a signed-in portal: the records whose USER columns hold the user's e-mail, read from the
 * added views with a USER filter. Its appId and viewId are My Records' as a watched "view" (MY_RECORDS), so
 * Watch View takes the node as it takes a view's.
 */
export interface MyRecordsNode extends Base {
  readonly kind: 'myRecords';
  readonly parent: PortalNode;
  readonly appId: string;
  readonly viewId: string;
  readonly viewName: string;
}

/** One app's records in My Records, with their count. */
export interface MyAppNode extends Base {
  readonly kind: 'myApp';
  readonly parent: MyRecordsNode;
  readonly appId: string;
  name: string;
  records: ReadonlyArray<{ readonly recordId: string; readonly title: string }>;
}

/** One of the user's records, opening as its document like a view's record. */
export interface MyRecordNode extends Base {
  readonly kind: 'myRecord';
  readonly parent: MyAppNode;
  readonly appId: string;
  readonly recordId: string;
  title: string;
}

export interface ColumnNode extends Base {
  readonly kind: 'column';
  readonly parent: ColumnsGroupNode;
  readonly appId: string;
  readonly fieldId: string;
  column: Column;
}

/** What stands in for children that could not be shown: a failure, a sign-in, or a hint. */
export interface MessageNode extends Base {
  readonly kind: 'message';
  readonly parent: ContentNode;
  /**
   * error: a load failed (Retry); partial: a view's rows broke off or were cancelled midway, those read are
   * shown (Retry reads the view again); signIn: the portal needs a sign-in; hint: nothing to show yet.
   */
  tone: 'error' | 'partial' | 'signIn' | 'hint';
  text: string;
  detail: string | undefined;
}

export type ExplorerNode =
  | PortalNode
  | SharedPortalNode
  | SiteNode
  | AppNode
  | ViewsGroupNode
  | ColumnsGroupNode
  | ViewNode
  | SavedQueryNode
  | FindRecordNode
  | RecordNode
  | LoadMoreNode
  | LoadingNode
  | ColumnNode
  | MyRecordsNode
  | MyAppNode
  | MyRecordNode
  | MessageNode;

export type NodeKind = ExplorerNode['kind'];

/** Every node but the stand-in messages. */
export type ContentNode = Exclude<ExplorerNode, MessageNode>;

const part = (value: string): string => encodeURIComponent(value);

export const nodeIds = {
  portal: (portalId: string): string => `portal/${part(portalId)}`,
  sharedPortal: (name: string): string => `shared-portal/${part(name.toLowerCase())}`,
  site: (portal: PortalNode, siteId: string): string => `${portal.id}/site/${part(siteId)}`,
  app: (site: SiteNode, appId: string): string => `${site.id}/app/${part(appId)}`,
  views: (app: AppNode): string => `${app.id}/views`,
  columns: (app: AppNode): string => `${app.id}/columns`,
  view: (group: ViewsGroupNode, viewId: string): string => `${group.id}/view/${part(viewId)}`,
  savedQuery: (view: ViewNode, queryName: string): string => `${view.id}/query/${part(queryName)}`,
  record: (view: ViewNode, recordId: string): string => `${view.id}/record/${part(recordId)}`,
  loadMore: (view: ViewNode): string => `${view.id}/more`,
  findRecord: (view: ViewNode): string => `${view.id}/find`,
  loading: (view: ViewNode): string => `${view.id}/loading`,
  column: (group: ColumnsGroupNode, fieldId: string): string => `${group.id}/column/${part(fieldId)}`,
  myRecords: (portal: PortalNode): string => `${portal.id}/my-records`,
  myApp: (mine: MyRecordsNode, appId: string): string => `${mine.id}/app/${part(appId)}`,
  myRecord: (app: MyAppNode, recordId: string): string => `${app.id}/record/${part(recordId)}`,
  message: (parent: ExplorerNode): string => `${parent.id}/message`,
};

export function isNode(value: unknown): value is ExplorerNode {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { kind?: unknown }).kind === 'string' &&
    typeof (value as { id?: unknown }).id === 'string'
  );
}
