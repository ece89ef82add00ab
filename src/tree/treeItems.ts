// How each kind of node looks: label, description, icon, tooltip, the contextValue that menus' `when`
// clauses test, and what a click does.
import * as vscode from 'vscode';
import type { PortalConnection, SignInState } from '../auth/portals';
import { COMMANDS } from '../ids';
import { recordUri } from '../model/recordUri';
import { columnDescription, columnIcon, columnTooltip, markdownText } from './columnPresentation';
import type { ExplorerNode, MessageNode } from './nodes';

/** Commands the tree's items run on click (contributed in package.json). */
export const ITEM_COMMANDS = {
  openRecord: COMMANDS.record.open,
  loadMore: COMMANDS.explorer.loadMore,
  retry: COMMANDS.explorer.retry,
  signIn: COMMANDS.portal.signIn,
  addView: COMMANDS.explorer.addView,
  runSavedQuery: COMMANDS.panel.runSavedQuery,
  goToRecord: COMMANDS.explorer.goToRecord,
  cancelLoad: COMMANDS.explorer.cancelLoad,
  signInToSharedPortal: COMMANDS.explorer.signInToSharedPortal,
  setMyEmail: COMMANDS.portal.setMyEmail,
} as const;

/** Where the team's shared entries come from, as the tooltips say it. */
const SHARED_TEXT = 'Shared with the workspace (.vscode/portal.json)';

/** What the tree knows beside the node when it draws it. */
export interface ItemFacts {
  readonly connection?: PortalConnection;
  readonly state?: SignInState;
  /** Rows of a view once read (or read so far, while `loading`). */
  readonly rowCount?: number;
  /** A view's rows are still arriving. */
  readonly loading?: boolean;
  /** A view's read broke off or was cancelled: only `rowCount` rows were read. */
  readonly partial?: boolean;
  /** Columns of an app once read. */
  readonly columnCount?: number;
  /** Views added to an app. */
  readonly viewCount?: number;
}

const { Collapsed, None } = vscode.TreeItemCollapsibleState;
const STATE_TEXT: Record<SignInState, string> = { signedIn: '', signedOut: 'signed out', expired: 'sign-in expired' };

function count(value: number, one: string, many: string): string {
  return `${value.toLocaleString('en-US')} ${value === 1 ? one : many}`;
}

function flagText(value: boolean | undefined): string {
  return value === undefined ? 'not said by the portal' : value ? 'on' : 'off';
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

/** A label a normal sidebar shows whole beside "Retry": what failed in a few words (the message is on hover). */
export function failureLabel(message: string): string {
  const status = /\(HTTP (\d{3})\)/.exec(message);
  if (status) return `Failed to load (HTTP ${status[1]})`;
  if (/could not reach|connection/i.test(message)) return 'Failed to load (no connection)';
  if (/timed out|took too long/i.test(message)) return 'Failed to load (timed out)';
  return 'Failed to load';
}

function messageItem(node: MessageNode): vscode.TreeItem {
  const error = node.tone === 'error';
  const item = new vscode.TreeItem(error ? failureLabel(node.text) : node.text, None);
  item.id = node.id;
  item.contextValue = `portal.message.${node.tone}`;
  item.tooltip = node.detail ?? node.text;
  if (node.tone === 'partial') {
    item.label = node.text;
    item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
    item.description = 'Retry';
    item.tooltip = `${node.detail ?? node.text}\n\nThe rows read are shown. Click to read the view again.`;
    item.command = { command: ITEM_COMMANDS.retry, title: 'Retry', tooltip: 'Read the view again', arguments: [node] };
  } else if (error) {
    const message = node.detail ?? node.text;
    item.tooltip = `${message}\n\nClick to retry.`;
    item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground'));
    item.description = 'Retry';
    item.command = { command: ITEM_COMMANDS.retry, title: 'Retry', tooltip: `Retry: ${message}`, arguments: [node] };
  } else if (node.tone === 'signIn') {
    item.iconPath = new vscode.ThemeIcon('sign-in');
    item.description = node.detail;
    item.command = { command: ITEM_COMMANDS.signIn, title: 'Sign In', arguments: [node.portalId] };
  } else {
    item.iconPath = new vscode.ThemeIcon('info');
    if (node.parent.kind === 'views') item.command = { command: ITEM_COMMANDS.addView, title: 'Add View…', arguments: [node.parent] };
    if (node.parent.kind === 'myRecords' && node.text.startsWith('Set your e-mail')) {
      item.iconPath = new vscode.ThemeIcon('mail');
      item.command = { command: ITEM_COMMANDS.setMyEmail, title: 'Set Your E-mail…', arguments: [node.portalId] };
    }
  }
  return item;
}

function groupItem(node: ExplorerNode, label: string, icon: string, size: number | undefined, tooltip: string): vscode.TreeItem {
  const item = new vscode.TreeItem(label, Collapsed);
  item.description = size !== undefined ? String(size) : undefined;
  item.iconPath = new vscode.ThemeIcon(icon);
  item.contextValue = `portal.${node.kind}`;
  item.tooltip = tooltip;
  item.id = node.id;
  return item;
}

export function treeItemOf(node: ExplorerNode, facts: ItemFacts = {}): vscode.TreeItem {
  switch (node.kind) {
    case 'sharedPortal': {
      if (node.status === 'conflict') {
        const item = new vscode.TreeItem(`${node.name}: another address`, None);
        item.description = `conflict · ${hostOf(node.baseUrl)}`;
        item.iconPath = new vscode.ThemeIcon('warning');
        item.contextValue = 'portal.sharedPortal.conflict';
        item.tooltip = `.vscode/portal.json names "${node.name}" at ${node.baseUrl}, but your connection "${node.name}" is at ${node.connectionBaseUrl ?? 'another address'}. The file's entries are not used for it: rename your connection, or correct the file.`;
        item.id = node.id;
        return item;
      }
      const item = new vscode.TreeItem(`Sign in to ${node.name}`, None);
      item.description = `${hostOf(node.baseUrl)} · from the workspace`;
      item.iconPath = new vscode.ThemeIcon('sign-in');
      item.contextValue = 'portal.sharedPortal.missing';
      item.tooltip = `${SHARED_TEXT}: ${node.name} at ${node.baseUrl}. Signing in asks only for the Secret Key.`;
      item.command = { command: ITEM_COMMANDS.signInToSharedPortal, title: `Sign in to ${node.name}`, arguments: [node] };
      item.id = node.id;
      return item;
    }
    case 'portal': {
      const state = facts.state ?? 'signedOut';
      const item = new vscode.TreeItem(facts.connection?.label ?? node.portalId, Collapsed);
      const host = facts.connection ? hostOf(facts.connection.baseUrl) : '';
      item.description = [host, STATE_TEXT[state]].filter(Boolean).join(' · ');
      item.iconPath = new vscode.ThemeIcon(state === 'signedIn' ? 'server' : 'server-environment');
      item.contextValue = `portal.portal.${state}`;
      item.tooltip = facts.connection
        ? `${facts.connection.label}\n${facts.connection.baseUrl}\n${STATE_TEXT[state] || 'signed in'}`
        : node.portalId;
      item.id = node.id;
      return item;
    }
    case 'site': {
      const item = new vscode.TreeItem(node.name || `Site ${node.siteId}`, Collapsed);
      item.description = node.manager;
      item.iconPath = new vscode.ThemeIcon('organization');
      item.contextValue = 'portal.site';
      item.tooltip = new vscode.MarkdownString(
        `**${markdownText(node.name)}** — site ${markdownText(node.siteId)}\n\nManager: ${markdownText(node.manager || 'not said')}`,
      );
      item.id = node.id;
      return item;
    }
    case 'app': {
      const item = new vscode.TreeItem(node.name, Collapsed);
      item.description = `app ${node.appId}`;
      item.iconPath = new vscode.ThemeIcon('window');
      item.contextValue = 'portal.app';
      item.tooltip = new vscode.MarkdownString(
        [
          `**${markdownText(node.name)}** — app ${markdownText(node.appId)}`,
          `Site: ${markdownText(node.siteName)}`,
          `Draft mode: ${flagText(node.draftMode)} · Comments: ${flagText(node.commentsPlugin)}`,
        ].join('\n\n'),
      );
      item.id = node.id;
      return item;
    }
    case 'views':
      return groupItem(
        node,
        'Views',
        'eye',
        facts.viewCount,
        'The views you added to this app (the portal cannot list them): "Add View…" adds one by its id.',
      );
    case 'columns':
      return groupItem(node, 'Columns', 'symbol-field', facts.columnCount, 'The columns (fields) of this app, in position order.');
    case 'view': {
      const item = new vscode.TreeItem(node.viewName, Collapsed);
      const rows = facts.loading
        ? 'loading…'
        : facts.rowCount !== undefined
          ? `${count(facts.rowCount, 'record', 'records')}${facts.partial ? ' (partial)' : ''}`
          : undefined;
      item.description = [`view ${node.viewId}`, node.shared ? 'shared' : undefined, rows].filter(Boolean).join(' · ');
      item.iconPath = new vscode.ThemeIcon('list-flat');
      item.contextValue = node.shared ? 'portal.view.shared' : 'portal.view';
      item.tooltip = [`${node.viewName}\nView ${node.viewId} of app ${node.appId}`, node.shared ? SHARED_TEXT : undefined]
        .filter(Boolean)
        .join('\n');
      item.id = node.id;
      return item;
    }
    case 'savedQuery': {
      const item = new vscode.TreeItem(node.queryName, None);
      item.description = [node.shared ? 'shared query' : 'saved query', count(node.filterCount, 'filter', 'filters')].join(' · ');
      item.iconPath = new vscode.ThemeIcon('filter');
      item.contextValue = node.shared ? 'portal.savedQuery.shared' : 'portal.savedQuery';
      item.tooltip = [
        `Run the saved query "${node.queryName}" on ${node.viewName} (view ${node.viewId})`,
        node.shared ? SHARED_TEXT : undefined,
      ]
        .filter(Boolean)
        .join('\n');
      const target = {
        portalId: node.portalId,
        appId: node.appId,
        viewId: node.viewId,
        viewName: node.viewName,
        queryName: node.queryName,
      };
      item.command = { command: ITEM_COMMANDS.runSavedQuery, title: 'Run Saved Query', arguments: [target] };
      item.id = node.id;
      return item;
    }
    case 'record':
      return recordItem(node, node.parent.parent.parent.name, node.draft, node.draft ? 'portal.record.draft' : 'portal.record');
    case 'loadMore': {
      const item = new vscode.TreeItem('Load more…', None);
      item.description = `${node.shown.toLocaleString('en-US')} of ${count(node.total, 'record', 'records')} shown`;
      item.iconPath = new vscode.ThemeIcon('ellipsis');
      item.contextValue = `portal.${node.kind}`; // the node's kind, as every item's (not the command of that name)
      item.command = { command: ITEM_COMMANDS.loadMore, title: 'Load More', arguments: [node] };
      item.id = node.id;
      return item;
    }
    case 'findRecord': {
      const item = new vscode.TreeItem('Find a record…', None);
      item.iconPath = new vscode.ThemeIcon('search');
      item.contextValue = 'portal.findRecord';
      item.tooltip = `Find any record of ${node.viewName} by its id, title or text, as you type (Ctrl+F or Cmd+F on the view)`;
      item.command = {
        command: ITEM_COMMANDS.goToRecord,
        title: 'Go to Record…',
        arguments: [{ portalId: node.portalId, appId: node.appId, viewId: node.viewId, viewName: node.viewName }],
      };
      item.id = node.id;
      return item;
    }
    case 'loading': {
      const item = new vscode.TreeItem(`Loading… ${count(node.count, 'row', 'rows')}`, None);
      item.description = 'Cancel';
      item.iconPath = new vscode.ThemeIcon('loading~spin');
      item.contextValue = 'portal.loading';
      item.tooltip = 'The rows appear as the portal sends them. Click to stop loading: the rows read so far stay.';
      item.command = { command: ITEM_COMMANDS.cancelLoad, title: 'Cancel', tooltip: 'Stop loading; keep the rows read', arguments: [node] };
      item.id = node.id;
      return item;
    }
    case 'column': {
      const item = new vscode.TreeItem(node.column.field_name || node.fieldId, None);
      item.description = columnDescription(node.column);
      item.iconPath = columnIcon(node.column);
      item.contextValue = 'portal.column';
      item.tooltip = columnTooltip(node.column);
      item.id = node.id;
      return item;
    }
    case 'myRecords': {
      const item = new vscode.TreeItem(node.viewName, Collapsed);
      item.description = facts.rowCount !== undefined ? count(facts.rowCount, 'record', 'records') : undefined;
      item.iconPath = new vscode.ThemeIcon('account');
      item.contextValue = 'portal.myRecords';
      item.tooltip =
        'The records whose USER columns hold your e-mail, in the views added to each app (or those .vscode/portal.json names in "myRecords"). Read with a filter on each USER column: no view is read whole.';
      item.id = node.id;
      return item;
    }
    case 'myApp': {
      const item = new vscode.TreeItem(node.name, Collapsed);
      item.description = count(node.records.length, 'record', 'records');
      item.iconPath = new vscode.ThemeIcon('window');
      item.contextValue = 'portal.myApp';
      item.tooltip = `Your records in ${node.name} (app ${node.appId})`;
      item.id = node.id;
      return item;
    }
    case 'myRecord':
      // Its own context value: the menus of a view's records (Load more, Publish…) do not apply to it.
      return recordItem(node, node.parent.name, false, 'portal.myRecord');
    case 'message':
      return messageItem(node);
  }
}

/** A record's item: opens its document; `appName` names the document's tab. */
function recordItem(
  node: { readonly id: string; readonly portalId: string; readonly appId: string; readonly recordId: string; readonly title: string },
  appName: string,
  draft: boolean | undefined,
  contextValue: string,
): vscode.TreeItem {
  const item = new vscode.TreeItem(node.title, vscode.TreeItemCollapsibleState.None);
  item.description = draft ? `#${node.recordId} · Draft` : `#${node.recordId}`;
  item.iconPath = new vscode.ThemeIcon(draft ? 'git-pull-request-draft' : 'file-text');
  item.contextValue = contextValue;
  const names = { title: node.title, appName };
  item.resourceUri = recordUri(node, names);
  item.tooltip = `${node.title}\nRecord ${node.recordId} of app ${node.appId}${draft ? ' (Draft)' : ''}`;
  item.command = {
    command: ITEM_COMMANDS.openRecord,
    title: 'Open Record',
    arguments: [{ portalId: node.portalId, appId: node.appId, recordId: node.recordId, ...names }],
  };
  item.id = node.id;
  return item;
}
