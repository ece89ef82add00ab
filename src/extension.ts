// activate(): builds the extension's parts and registers them; nothing else happens here.
import * as vscode from 'vscode';
import { AUTH_PROVIDER_ID, AUTH_PROVIDER_LABEL, PortalAuthenticationProvider } from './auth/authProvider';
import { PortalService } from './auth/portalService';
import { importPreconfigured } from './auth/preconfigured';
import { DEFAULT_SIGN_IN_TIMEOUT_MS, SignInUi } from './auth/signInUi';
import { createStatusBar } from './auth/statusBar';
import { AuthUriHandler } from './auth/uriHandler';
import { Catalog } from './catalog/catalog';
import { RecordEvents } from './catalog/recordEvents';
import { TitleFields } from './catalog/titleFields';
import { ViewRows } from './catalog/viewRows';
import { ViewStore } from './catalog/views';
import { AttachmentDropController } from './attachments/dropController';
import { registerRecordActions } from './commands/actions';
import { addPortal } from './commands/addPortal';
import { registerHelpCommands } from './commands/help';
import { registerExplorerCommands } from './commands/explorer';
import { registerPanelCommands } from './commands/panels';
import { choosePortalToSignIn, COMMANDS, registerPortalCommands } from './commands/portals';
import { registerWebhookCommands, WEBHOOK_COMMANDS } from './commands/webhooks';
import { registerRecordDocuments } from './fs/documents';
import { trackWalkthroughProgress } from './help/walkthroughProgress';
import { createLogger, initLogging } from './log';
import { createTestApi, type PortalExplorerApi } from './testApi';
import { EXPLORER_VIEW_ID, ExplorerTree } from './tree/explorer';
import { SavedQueryStore } from './catalog/savedQueries';
import { EVENTS_VIEW_ID, EventsTree } from './webhooks/eventsTree';
import { LiveRefresh } from './webhooks/liveRefresh';
import { PAYLOAD_SCHEME, PayloadDocuments } from './webhooks/payloadDocuments';
import { WebhookSecrets } from './webhooks/secrets';
import { WebhookService } from './webhooks/service';
import { WebhookStatusBar } from './webhooks/statusBar';

export async function activate(context: vscode.ExtensionContext): Promise<PortalExplorerApi> {
  context.subscriptions.push(initLogging());

  // Sign-in: connections, secrets and tokens, the browser's way back, the Accounts menu, the status bar.
  const authLog = createLogger('auth');
  const uriHandler = new AuthUriHandler(context.extension.id, authLog);
  context.subscriptions.push(vscode.window.registerUriHandler(uriHandler));
  const signInTimeout = { ms: DEFAULT_SIGN_IN_TIMEOUT_MS };
  const portals = new PortalService(context, new SignInUi({ uriHandler, log: authLog, timeoutMs: () => signInTimeout.ms }), authLog);
  context.subscriptions.push(portals);
  await portals.reload();
  const provider = new PortalAuthenticationProvider(portals, {
    choosePortal: () => (portals.list().length === 0 ? addPortal(portals) : choosePortalToSignIn(portals)),
  });
  context.subscriptions.push(
    provider,
    vscode.authentication.registerAuthenticationProvider(AUTH_PROVIDER_ID, AUTH_PROVIDER_LABEL, provider, { supportsMultipleAccounts: true }),
    registerPortalCommands(portals),
    createStatusBar(portals, COMMANDS.portalActions, COMMANDS.addPortal),
    registerHelpCommands(context.extension.id, uriHandler),
  );
  // Development and demo only (npm start): a portal named by an environment variable; not awaited.
  void importPreconfigured(portals, context, authLog);

  // What the features share: the catalog of sites, apps and columns; the views the user added; the rows of
  // views read; the title field per app; the bus of record changes; the queries saved per view.
  const catalog = new Catalog(portals);
  const views = new ViewStore(context.globalState);
  const rows = new ViewRows(portals, catalog);
  const titles = new TitleFields(context.globalState);
  const recordEvents = new RecordEvents();
  const savedQueries = new SavedQueryStore(context.globalState);
  context.subscriptions.push(catalog, views, rows, titles, recordEvents, savedQueries, trackWalkthroughProgress(portals, recordEvents));

  // The Portal explorer: the sidebar tree and its commands.
  const explorer = new ExplorerTree({ portals, catalog, views, rows, titles, recordEvents, savedQueries });
  // Files dropped on a record become its attachments.
  const attachmentDrop = new AttachmentDropController({ portals, catalog });
  const explorerView = vscode.window.createTreeView(EXPLORER_VIEW_ID, { treeDataProvider: explorer, showCollapseAll: true, dragAndDropController: attachmentDrop });
  context.subscriptions.push(
    explorer,
    explorerView,
    registerExplorerCommands({ portals, catalog, views, rows, titles, tree: explorer, treeView: explorerView }),
  );

  // Records as JSON documents (portal://<portal>/<app_id>/<record_id>.json): open, check, save, publish, delete.
  const { documents, disposable: documentsDisposable } = registerRecordDocuments({ portals, catalog, rows, titles, recordEvents });
  context.subscriptions.push(documentsDisposable);

  // The create-record form and the view query panel.
  context.subscriptions.push(registerPanelCommands({ portals, catalog, views, recordEvents, savedQueries, extensionUri: context.extensionUri }));
  // Webhooks: the local receiver, its events view and status bar, and the live refresh of tree and documents
  // (through the record bus, which the explorer and the record file system both hear).
  const webhookLog = createLogger('webhooks');
  const webhookSecrets = new WebhookSecrets(context.secrets);
  const liveRefresh = new LiveRefresh(recordEvents, portals, webhookLog);
  const webhooks = new WebhookService({ portals, secrets: webhookSecrets, liveRefresh, log: webhookLog, setSecretCommand: WEBHOOK_COMMANDS.setSecret });
  const webhookEvents = new EventsTree(webhooks.events, portals, catalog);
  const webhookStatusBar = new WebhookStatusBar(webhooks, { showEvents: WEBHOOK_COMMANDS.showEvents, start: WEBHOOK_COMMANDS.start });
  const webhookEventsView = vscode.window.createTreeView(EVENTS_VIEW_ID, { treeDataProvider: webhookEvents, showCollapseAll: true });
  context.subscriptions.push(
    liveRefresh,
    webhooks,
    webhookEvents,
    webhookStatusBar,
    webhookEventsView,
    vscode.workspace.registerTextDocumentContentProvider(PAYLOAD_SCHEME, new PayloadDocuments(webhooks.events)),
    registerWebhookCommands({ portals, service: webhooks, secrets: webhookSecrets }),
  );

  // Comments and attachments of records, from the tree, the record documents and the palette.
  context.subscriptions.push(registerRecordActions({ portals, catalog, rows, titles }));

  if (context.extensionMode !== vscode.ExtensionMode.Test) return {};
  return {
    testing: createTestApi(context, {
      portals,
      savedQueries,
      setSignInTimeout: (ms) => (signInTimeout.ms = ms),
      catalog,
      views,
      rows,
      titles,
      recordEvents,
      explorer,
      explorerView,
      documents,
      webhooks,
      webhookEvents,
      webhookEventsView,
      webhookStatusBar,
      attachmentDrop,
    }),
  };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
