// Everything beyond signing in, built the first time it is needed (src/extension.ts decides when: a command,
// the explorer or the Webhook Events view shown, a portal document read, a drop, webhooks.autoStart): the
// caches and stores the features share, the explorer tree, records as documents, the panels, comments,
// attachments and webhooks, and the handlers of their commands. Activation has registered the commands,
// views and file systems already; their stand-ins hand VS Code's calls to what is built here.
import type * as vscode from 'vscode';
import { AttachmentDropController } from './attachments/dropController';
import type { PortalService } from './auth/portalService';
import { Catalog } from './catalog/catalog';
import { RecordEvents } from './catalog/recordEvents';
import { SavedQueryStore } from './catalog/savedQueries';
import type { Stores } from './catalog/stores';
import { TitleFields } from './catalog/titleFields';
import { ViewRows } from './catalog/viewRows';
import { ViewReadHub } from './records/viewRead';
import { WorkspaceSetup } from './catalog/workspaceSetup';
import { referencePatterns, ReferencePatternSource } from './codeLinks/referencePatterns';
import { registerCodeLinks } from './codeLinks/register';
import { goToRecordCommands } from './commands/goToRecord';
import { ViewStore } from './catalog/views';
import { recordActions } from './commands/actions';
import { explorerCommands } from './commands/explorer';
import { importCommands } from './commands/imports';
import { panelCommands } from './commands/panels';
import { recordCommands, reopenCreatedRecords } from './commands/records';
import type { CommandTable } from './commands/register';
import { linkCommands, openLink } from './commands/links';
import { sharedPortalCommands } from './commands/sharedPortals';
import { teamSetupCommands, watchWhatWasShared } from './commands/teamSetup';
import { webhookCommands } from './commands/webhooks';
import { workCommands } from './commands/work';
import { recordDocuments } from './fs/documents';
import type { RecordFileSystem } from './fs/recordFileSystem';
import { trackRecordSaves, trackWebhookStarts } from './help/walkthroughProgress';
import { SHOW_WEBHOOK_EVENTS, WEBHOOK_COMMANDS } from './ids';
import { createLogger } from './log';
import { ExplorerTree } from './tree/explorer';
import { GridEditorProvider } from './grid/host/gridEditor';
import { BoardEditorProvider } from './board/host/boardEditor';
import { GridLayouts } from './grid/host/gridLayouts';
import type { ExplorerNode } from './tree/nodes';
import { trackSelectedView } from './tree/selectedView';
import { EventsTree } from './webhooks/eventsTree';
import { LiveRefresh } from './webhooks/liveRefresh';
import { PayloadDocuments } from './webhooks/payloadDocuments';
import { WebhookSecrets } from './webhooks/secrets';
import { WebhookService } from './webhooks/service';
import { WebhookStatusBar } from './webhooks/statusBar';
import { watchCommands } from './commands/watch';
import { historyCommands } from './commands/history';
import { historyRoot, VersionLog } from './history/versionLog';
import { historyLimits, RecordHistory } from './recordHistory/recordHistory';
import { watchedViewsFeature } from './watched/feature';
import { addedViewsSource } from './watched/ownRecords';
import type { WatchedViews } from './watched/watchedViews';

/** What activation made that the features use. */
export interface FeatureHost {
  readonly context: vscode.ExtensionContext;
  readonly portals: PortalService;
  readonly explorerView: vscode.TreeView<ExplorerNode>;
}

/** The stores the features share (those the explorer is built from), and the features themselves. */
export interface Features extends Omit<Stores, 'portals'> {
  readonly explorer: ExplorerTree;
  readonly attachmentDrop: AttachmentDropController;
  readonly documents: RecordFileSystem;
  readonly commentFiles: vscode.FileSystemProvider;
  readonly attachmentFiles: vscode.FileSystemProvider;
  readonly payloads: PayloadDocuments;
  readonly webhooks: WebhookService;
  readonly webhookEvents: EventsTree;
  readonly webhookStatusBar: WebhookStatusBar;
  /** Views as editable grids (the custom editor portal.grid). */
  readonly gridEditor: GridEditorProvider;
  readonly boardEditor: BoardEditorProvider;
  /** Views read again at an interval and compared (src/watched). */
  readonly watched: WatchedViews;
  /** The versions of records this VS Code has seen, for the active record editor (src/recordHistory). */
  readonly recordHistory: RecordHistory;
  /** The handlers of every command of FEATURE_GROUP (src/ids.ts). */
  readonly commands: CommandTable;
  /** Opens a link's record, view or saved query (the URI handler's /open). */
  readonly openLink: (query: string) => Promise<void>;
}

/** Builds the features; what they hold is disposed with the extension's subscriptions. */
export function createFeatures({ context, portals, explorerView }: FeatureHost): Features {
  // What the features share: the catalog of sites, apps and columns; the views the user added; the rows of
  // views read; the title field per app; the bus of record changes; the queries saved per view.
  // The team's shared setup (.vscode/portal.json) joins the user's own views, queries and title fields.
  const catalog = new Catalog(portals);
  const workspace = new WorkspaceSetup(portals);
  // A sign-in from now on receives the browser's answer the way the workspace file says for its portal.
  context.subscriptions.push(portals.useRedirectModes((baseUrl) => workspace.redirectModeOf(baseUrl)));
  const views = new ViewStore(context.globalState, workspace);
  const viewReads = new ViewReadHub((portalId) => portals.client(portalId));
  const rows = new ViewRows(portals, catalog, viewReads);
  const titles = new TitleFields(context.globalState, workspace);
  const recordEvents = new RecordEvents();
  const savedQueries = new SavedQueryStore(context.globalState, workspace);
  // Record History: every version of a record the record store reads or writes, kept in global storage.
  const recordHistory = new RecordHistory(
    new VersionLog(historyRoot(context.globalStorageUri.fsPath), historyLimits),
    (portalId, appId) => catalog.columns(portalId, appId),
    recordEvents,
    createLogger('history'),
  );
  context.subscriptions.push(
    catalog,
    workspace,
    views,
    rows,
    titles,
    recordEvents,
    savedQueries,
    recordHistory,
    trackRecordSaves(recordEvents),
  );
  // Each app's reference pattern (TCK-{id}), from the workspace file and settings: referencePatterns().
  context.subscriptions.push(new ReferencePatternSource(workspace, portals));
  // Every part below takes what it stands on from this one set (a Pick of Stores).
  const shared = { catalog, workspace, views, viewReads, rows, titles, recordEvents, savedQueries, versions: recordHistory };
  const stores: Stores = { portals, ...shared };

  // The Portal explorer's tree (shown through the view activation made) and what dropping files on it does.
  const explorer = new ExplorerTree(stores);
  const attachmentDrop = new AttachmentDropController(stores);
  context.subscriptions.push(explorer, trackSelectedView(explorerView));

  // Records as JSON documents (portal://<portal>/<app_id>/<record_id>.json): open, check, save, publish, delete.
  const records = recordDocuments(stores);
  const recordParts = { ...stores, documents: records.documents };
  // Comments and attachments of records, from the tree, the record documents and the palette.
  const actions = recordActions(stores);
  context.subscriptions.push(records.disposable, reopenCreatedRecords(recordParts), actions.disposable);
  // References to records in any file and the commit message: links, hovers (read through the documents'
  // record store), completion.
  context.subscriptions.push(registerCodeLinks({ ...stores, store: () => records.documents.store, extensionId: context.extension.id }));

  // Webhooks: the local receiver, its events view and status bar, and the live refresh of tree and documents
  // (through the record bus, which the explorer and the record file system both hear).
  const webhookLog = createLogger('webhooks');
  const webhookSecrets = new WebhookSecrets(context.secrets);
  const liveRefresh = new LiveRefresh(recordEvents, portals, webhookLog);
  const webhooks = new WebhookService({
    portals,
    secrets: webhookSecrets,
    liveRefresh,
    log: webhookLog,
    setSecretCommand: WEBHOOK_COMMANDS.setSecret,
  });
  const webhookEvents = new EventsTree(webhooks.events, portals, catalog);
  const webhookStatusBar = new WebhookStatusBar(webhooks, { showEvents: SHOW_WEBHOOK_EVENTS, start: WEBHOOK_COMMANDS.start });
  context.subscriptions.push(liveRefresh, webhooks, webhookEvents, webhookStatusBar, trackWebhookStarts(webhooks));

  // Views as editable grids: a custom editor, registered at activation (src/extension.ts), built here.
  const gridEditor = new GridEditorProvider({ ...stores, extensionUri: context.extensionUri, state: context.workspaceState });
  context.subscriptions.push(gridEditor);
  // Views as boards: the grid's documents, drawn as cards (registered at activation too).
  const boardEditor = new BoardEditorProvider({ ...stores, extensionUri: context.extensionUri, state: context.workspaceState }, gridEditor);
  context.subscriptions.push(boardEditor);

  // Watched views: read again at an interval, what changed marked in the tree and told on the record bus.
  const watchedFeature = watchedViewsFeature({
    stores,
    state: context.globalState,
    explorer,
    explorerView,
    liveRefresh,
    myRecords: addedViewsSource(stores),
  });
  context.subscriptions.push(...watchedFeature.disposables);

  // The layouts in the same workspace state the grid editor keeps them in (GridLayouts holds nothing itself).
  const teamSetup = { ...stores, layouts: new GridLayouts(context.workspaceState, workspace), state: context.workspaceState };
  context.subscriptions.push(watchWhatWasShared(teamSetup));

  const linkParts = { portals, workspace, extensionId: context.extension.id };
  const commands: CommandTable = {
    ...explorerCommands({ ...stores, tree: explorer, treeView: explorerView }),
    ...goToRecordCommands({ ...stores, treeView: explorerView }),
    ...recordCommands(recordParts),
    ...panelCommands({
      ...stores,
      extensionUri: context.extensionUri,
      revealInGrid: (uri, recordId) => gridEditor.reveal(uri, recordId),
    }),
    ...importCommands({ ...stores, extensionUri: context.extensionUri, storageFolder: context.globalStorageUri.fsPath }),
    ...actions.commands,
    ...webhookCommands({ portals, service: webhooks, secrets: webhookSecrets }),
    ...sharedPortalCommands({ portals, workspace }),
    ...linkCommands(linkParts),
    ...watchCommands({ ...stores, watched: watchedFeature.watched }),
    ...teamSetupCommands(teamSetup),
    ...workCommands({ ...stores, context, patterns: referencePatterns }),
    ...historyCommands(recordHistory),
  };

  return {
    ...shared,
    explorer,
    attachmentDrop,
    documents: records.documents,
    commentFiles: actions.commentFiles,
    attachmentFiles: actions.attachmentFiles,
    payloads: new PayloadDocuments(webhooks.events),
    webhooks,
    webhookEvents,
    webhookStatusBar,
    gridEditor,
    boardEditor,
    watched: watchedFeature.watched,
    recordHistory,
    commands,
    openLink: (query) => openLink(linkParts, query),
  };
}
