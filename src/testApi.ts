// What activate() returns when the extension runs under test (ExtensionMode.Test): the seams that let the
// integration suite act as a user without real dialogs. In production activate() returns nothing of this.
// Activation builds most parts on first use (src/features.ts): ready() builds them and waits for the
// portals to be read; the parts below `portals` exist once it has resolved.
import type * as vscode from 'vscode';
import type { Portals } from './auth/portals';
import type { AttachmentDropController } from './attachments/dropController';
import type { Features } from './features';
import type { Lazy } from './lazy';
import type { Catalog } from './catalog/catalog';
import type { RecordEvents } from './catalog/recordEvents';
import type { TitleFields } from './catalog/titleFields';
import type { ViewRows } from './catalog/viewRows';
import type { ViewStore } from './catalog/views';
import type { RecordFileSystem } from './fs/recordFileSystem';
import { setPreparedObserver, type PreparedObserver } from './lazyTools';
import { recentLogLines } from './log';
import type { ExplorerTree } from './tree/explorer';
import type { ExplorerNode } from './tree/nodes';
import { setPrompter, type Prompter } from './ui/prompter';
import type { SavedQueryStore } from './catalog/savedQueries';
import type { EventsNode, EventsTree } from './webhooks/eventsTree';
import type { WebhookService } from './webhooks/service';
import type { WebhookStatusBar } from './webhooks/statusBar';

export interface PortalExplorerTestApi {
  /** Builds the parts built on first use and waits for the portals' sign-in state to be read. */
  ready(): Promise<void>;
  /** Replaces the prompter (input boxes, pickers, messages, dialogs); returns the previous one. */
  setPrompter(next: Prompter): Prompter;
  /** Lines written to the "Portal Explorer" log channel, oldest first. */
  logLines(): readonly string[];
  /** The extension's context, to inspect global state and secrets. */
  readonly context: vscode.ExtensionContext;
  /** The connections to portals, their sign-in state and clients (the service every feature uses). */
  readonly portals: Portals;
  /** Shortens the browser step's time limit (5 minutes) so a test can see it run out. */
  setSignInTimeout(ms: number): void;
  /** The queries saved per view. */
  readonly savedQueries: SavedQueryStore;
  /** Sites, apps and columns per portal, kept until refreshed. */
  readonly catalog: Catalog;
  /** The views the user added, per portal and app. */
  readonly views: ViewStore;
  /** The rows of views read (one request per view until refreshed). */
  readonly rows: ViewRows;
  /** The title field chosen per app. */
  readonly titles: TitleFields;
  /** The bus of record changes (created, updated, deleted). */
  readonly recordEvents: RecordEvents;
  /** The Portal explorer's tree provider: getChildren / getTreeItem / getParent, and find() among shown nodes. */
  readonly explorer: ExplorerTree;
  /** The Portal explorer's view, to reveal and expand nodes in the workbench. */
  readonly explorerView: vscode.TreeView<ExplorerNode>;
  /** The portal: file system of record documents (draft flags as read, the copy each editor read). */
  readonly documents: RecordFileSystem;
  /** The webhook receiver: state(), payloadUrl(id), counts(), and its event log (`events`). */
  readonly webhooks: WebhookService;
  /** The Webhook Events view's tree provider. */
  readonly webhookEvents: EventsTree;
  /** The Webhook Events view, to reveal and expand events in the workbench. */
  readonly webhookEventsView: vscode.TreeView<EventsNode>;
  /** The receiver's status bar item. */
  readonly webhookStatusBar: WebhookStatusBar;
  /** What the explorer does with files dropped on a record (handleDrop, as VS Code calls it). */
  readonly attachmentDrop: AttachmentDropController;
  /** Sees (and is awaited for) each language model tool's prepared invocation before VS Code confirms it. */
  setToolPreparedObserver(observer: PreparedObserver | undefined): void;
}

export interface PortalExplorerApi {
  readonly testing?: PortalExplorerTestApi;
}

/** What activation makes at once. */
export interface TestApiCore {
  readonly portals: Portals;
  setSignInTimeout(ms: number): void;
  readonly explorerView: vscode.TreeView<ExplorerNode>;
  readonly webhookEventsView: vscode.TreeView<EventsNode>;
}

export function createTestApi(context: vscode.ExtensionContext, core: TestApiCore, features: Lazy<Features>): PortalExplorerTestApi {
  const built = (): Features => {
    const parts = features.peek();
    if (!parts) throw new Error('The test API was used before ready() resolved.');
    return parts;
  };
  return {
    setPrompter,
    setToolPreparedObserver: setPreparedObserver,
    logLines: recentLogLines,
    context,
    ...core,
    ready: async () => {
      await core.portals.ready();
      await features.get();
    },
    get savedQueries() {
      return built().savedQueries;
    },
    get catalog() {
      return built().catalog;
    },
    get views() {
      return built().views;
    },
    get rows() {
      return built().rows;
    },
    get titles() {
      return built().titles;
    },
    get recordEvents() {
      return built().recordEvents;
    },
    get explorer() {
      return built().explorer;
    },
    get documents() {
      return built().documents;
    },
    get webhooks() {
      return built().webhooks;
    },
    get webhookEvents() {
      return built().webhookEvents;
    },
    get webhookStatusBar() {
      return built().webhookStatusBar;
    },
    get attachmentDrop() {
      return built().attachmentDrop;
    },
  };
}
