// activate(): registers what VS Code must know of at once and returns without waiting for anything. The
// portals' sign-in state is read in the background (PortalService.ready(); what shows or uses it waits for
// that), and everything beyond signing in is built the first time it is needed (src/features.ts): the
// commands, views and file systems registered here are stand-ins that hand their calls over to it.
//
// What is built on first use is also loaded on first use: src/features.ts and all it alone needs come in
// with import() (esbuild.mjs splits them into chunks of their own), so activation reads and compiles about
// a third of the extension's code.
import * as vscode from 'vscode';
import { AUTH_PROVIDER_ID, AUTH_PROVIDER_LABEL, PortalAuthenticationProvider } from './auth/authProvider';
import { PortalService } from './auth/portalService';
import { importPreconfigured } from './auth/preconfigured';
import { PortalFocus } from './auth/portalFocus';
import { createStatusBar } from './auth/statusBar';
import { AuthUriHandler } from './auth/uriHandler';
import { registerLazyCommands } from './commands/register';
import type { Features } from './features';
import { trackWalkthroughProgress } from './help/walkthroughProgress';
import {
  ATTACHMENT_SCHEME,
  COMMENT_SCHEME,
  EVENTS_VIEW_ID,
  HISTORY_DESCRIPTION,
  HISTORY_SCHEME,
  HISTORY_VIEW_ID,
  EXPLORER_DROP_TYPES,
  EXPLORER_VIEW_ID,
  FEATURE_GROUP,
  GRID_VIEW_TYPE,
  BOARD_VIEW_TYPE,
  PANEL_VIEW_TYPES,
  PAYLOAD_SCHEME,
  PORTAL_COMMANDS,
  PORTAL_GROUP,
  RECORD_SCHEME,
  WORKSPACE_FILE_PATH,
} from './ids';
import { TodoCodeActions } from './codeWork/todoActions';
import { hasWorkBranches } from './codeWork/workState';
import { Lazy } from './lazy';
import { LazyCustomEditorProvider, LazyDropController, LazyFileSystemProvider, LazyTreeDataProvider } from './lazyProviders';
import { registerLazyTools } from './lazyTools';
import { createLogger, initLogging } from './log';
import { setting } from './settings/settings';
import { createTestApi, type PortalExplorerApi } from './testApi';
import type { ExplorerNode } from './tree/nodes';
import { runReported } from './ui/errorBoundary';
import type { EventsNode } from './webhooks/eventsTree';
import type { VersionNode } from './recordHistory/recordHistory';

export function activate(context: vscode.ExtensionContext): PortalExplorerApi {
  context.subscriptions.push(initLogging());

  // Sign-in: connections, secrets and tokens, the browser's way back, the Accounts menu, the status bar.
  const authLog = createLogger('auth');
  const uriHandler = new AuthUriHandler(context.extension.id, authLog);
  context.subscriptions.push(vscode.window.registerUriHandler(uriHandler));
  const signInTimeout: { ms?: number } = {};
  // What a sign-in shows and runs (and the OAuth code) loads with the first sign-in.
  const signInUi = new Lazy(async () => {
    const { SignInUi } = await import('./auth/signInUi');
    return new SignInUi({ uriHandler, log: authLog, timeoutMs: () => signInTimeout.ms });
  });
  // Starts reading the connections and their tokens; not awaited (see ready()).
  const portals = new PortalService(context, { obtainTokens: async (request) => (await signInUi.get()).obtainTokens(request) }, authLog);
  context.subscriptions.push(portals);
  // Connecting, signing in and help: their handlers (and their code) load once the portals are read.
  const portalGroup = new Lazy(async () => {
    const [{ portalCommands }, { helpCommands }] = await Promise.all([
      import('./commands/portals'),
      import('./commands/help'),
      portals.ready(),
    ]);
    return { ...portalCommands(portals), ...helpCommands(context.extension.id, uriHandler) };
  });
  const provider = new PortalAuthenticationProvider(portals, {
    choosePortal: async () => {
      await portals.ready();
      if (portals.list().length === 0) return (await import('./commands/addPortal')).addPortal(portals);
      return (await import('./commands/portals')).choosePortalToSignIn(portals);
    },
  });
  const focus = new PortalFocus([RECORD_SCHEME, COMMENT_SCHEME, ATTACHMENT_SCHEME]);
  context.subscriptions.push(
    provider,
    vscode.authentication.registerAuthenticationProvider(AUTH_PROVIDER_ID, AUTH_PROVIDER_LABEL, provider, {
      supportsMultipleAccounts: true,
    }),
    registerLazyCommands(PORTAL_GROUP, () => portalGroup.get()),
    focus,
    createStatusBar(portals, PORTAL_COMMANDS.portalActions, PORTAL_COMMANDS.addPortal, focus),
    trackWalkthroughProgress(portals, context.extension.id),
  );
  // Development and demo only (npm start): a portal named by an environment variable. Activation does not
  // wait for it (it never throws); the features do, so a command run at once finds the portal connected.
  const preconfigured = importPreconfigured(portals, context, authLog);

  // Everything else, built on first use, once the portals are read.
  const features: Lazy<Features> = new Lazy(async () => {
    const [{ createFeatures }, , imported] = await Promise.all([import('./features'), portals.ready(), preconfigured]);
    const built = createFeatures({ context, portals, explorerView });
    // The demo's views, added with its portal (npm start): the tree then lists them rather than "No views yet".
    if (imported)
      for (const view of imported.views) await built.views.add(imported.portalId, view.appId, { viewId: view.viewId, name: view.name });
    return built;
  });

  // The views: the Portal explorer (files dropped on a record become its attachments) and Webhook Events.
  const explorer = new LazyTreeDataProvider<Features, ExplorerNode>(features, (built) => built.explorer);
  const drop = new LazyDropController<Features, ExplorerNode>(
    features,
    (built) => built.attachmentDrop,
    Object.values(EXPLORER_DROP_TYPES),
  );
  const explorerView = vscode.window.createTreeView(EXPLORER_VIEW_ID, {
    treeDataProvider: explorer,
    showCollapseAll: true,
    dragAndDropController: drop,
  });
  const webhookEvents = new LazyTreeDataProvider<Features, EventsNode>(features, (built) => built.webhookEvents);
  const webhookEventsView = vscode.window.createTreeView(EVENTS_VIEW_ID, { treeDataProvider: webhookEvents, showCollapseAll: true });
  context.subscriptions.push(explorer, explorerView, focus.follow(explorerView), webhookEvents, webhookEventsView);
  const recordHistory = new LazyTreeDataProvider<Features, VersionNode>(features, (built) => built.recordHistory);
  const recordHistoryView = vscode.window.createTreeView(HISTORY_VIEW_ID, { treeDataProvider: recordHistory });
  recordHistoryView.description = HISTORY_DESCRIPTION;
  context.subscriptions.push(recordHistory, recordHistoryView);

  // Records as documents, comment drafts, attachments shown as text, webhook payloads.
  const records = new LazyFileSystemProvider(features, (built) => built.documents);
  const comments = new LazyFileSystemProvider(features, (built) => built.commentFiles);
  const attachments = new LazyFileSystemProvider(features, (built) => built.attachmentFiles);
  context.subscriptions.push(
    records,
    vscode.workspace.registerFileSystemProvider(RECORD_SCHEME, records, { isCaseSensitive: true }),
    comments,
    vscode.workspace.registerFileSystemProvider(COMMENT_SCHEME, comments, { isCaseSensitive: true }),
    attachments,
    vscode.workspace.registerFileSystemProvider(ATTACHMENT_SCHEME, attachments, { isCaseSensitive: true, isReadonly: true }),
    vscode.workspace.registerTextDocumentContentProvider(HISTORY_SCHEME, {
      provideTextDocumentContent: async (uri) => (await features.get()).recordHistory.provideTextDocumentContent(uri),
    }),
    vscode.workspace.registerTextDocumentContentProvider(PAYLOAD_SCHEME, {
      provideTextDocumentContent: async (uri) => (await features.get()).payloads.provideTextDocumentContent(uri),
    }),
    registerLazyCommands(FEATURE_GROUP, async () => (await features.get()).commands),
  );
  // The panels open before the reload come back (their serializers build the features).
  // Registered now (VS Code restores panels as the window opens); the panels' code loads when one is restored.
  const restore: vscode.WebviewPanelSerializer = {
    deserializeWebviewPanel: async (panel, state) => {
      await runReported(`restore ${panel.viewType}`, async () => {
        const [{ restorePanel }, built] = await Promise.all([import('./webviews/panelRestore'), features.get()]);
        restorePanel({ ...built, portals, extensionUri: context.extensionUri }, panel, state);
      });
    },
  };
  context.subscriptions.push(
    ...Object.values(PANEL_VIEW_TYPES).map((viewType) => vscode.window.registerWebviewPanelSerializer(viewType, restore)),
  );
  // Views as editable grids (a tab VS Code restores may open one before anything else is built).
  const grids = new LazyCustomEditorProvider(features, (built) => built.gridEditor);
  context.subscriptions.push(
    grids,
    vscode.window.registerCustomEditorProvider(GRID_VIEW_TYPE, grids, {
      webviewOptions: { retainContextWhenHidden: true },
      supportsMultipleEditorsPerDocument: false,
    }),
  );
  const boards = new LazyCustomEditorProvider(features, (built) => built.boardEditor);
  context.subscriptions.push(
    boards,
    vscode.window.registerCustomEditorProvider(BOARD_VIEW_TYPE, boards, {
      webviewOptions: { retainContextWhenHidden: true },
      supportsMultipleEditorsPerDocument: false,
    }),
  );
  // The language model tools of VS Code's agent mode: registered now, built with the features on first call.
  context.subscriptions.push(
    registerLazyTools(portals, async () => {
      const [{ createPortalTools }, built] = await Promise.all([import('./agentTools'), features.get()]);
      return createPortalTools(portals, built);
    }),
  );
  // Links to records, views and saved queries (Copy Link): opened through the one error boundary.
  uriHandler.openLinksWith((query) => {
    // Not awaited: VS Code's handleUri returns nothing; the boundary reports a failure to open the link.
    void runReported('open a Portal Explorer link', async () => (await features.get()).openLink(query));
  });
  // A branch Start Work made shows its record in the status bar again, from the window's start: only Git is
  // needed for that, so only that module is loaded, and only in a workspace where Start Work was used.
  if (hasWorkBranches(context.workspaceState))
    // Not awaited: Git comes up in its own time; a Git that is off shows nothing, and Start Work says why.
    void import('./codeWork/workBranches')
      .then(({ workBranches }) => workBranches(context).follow())
      .catch((error: unknown) =>
        authLog.debug(`Start Work's branches not followed: ${error instanceof Error ? error.message : String(error)}`),
      );
  // Create Record from TODO / Selection in the light bulb of files and unsaved editors.
  context.subscriptions.push(
    vscode.languages.registerCodeActionsProvider([{ scheme: 'file' }, { scheme: 'untitled' }], new TodoCodeActions(), {
      providedCodeActionKinds: TodoCodeActions.kinds,
    }),
  );
  // The receiver starts with VS Code when the user asked for it.
  if (setting('webhooks.autoStart')) void features.get();
  // The team's shared setup (.vscode/portal.json) opened in an editor: its Problems show without waiting for
  // the Portal view.
  const opensWorkspaceFile = (document: vscode.TextDocument): void => {
    // Not awaited: the features are built in the background, as for webhooks.autoStart.
    if (document.uri.path.endsWith(`/${WORKSPACE_FILE_PATH}`)) void features.get();
  };
  vscode.workspace.textDocuments.forEach(opensWorkspaceFile);
  context.subscriptions.push(vscode.workspace.onDidOpenTextDocument(opensWorkspaceFile));
  // References to records in code and commits (issue 33) need the patterns the features read. Not awaited:
  // built in the background, as for webhooks.autoStart, when the user gave patterns or the workspace has a
  // team's setup.
  void (Object.keys(setting('references')).length > 0 ? features.get() : buildWhenWorkspaceFile(() => features.get()));

  if (context.extensionMode !== vscode.ExtensionMode.Test) return {};
  return {
    testing: createTestApi(
      context,
      { portals, setSignInTimeout: (ms) => (signInTimeout.ms = ms), explorerView, webhookEventsView, panelSerializer: restore },
      features,
    ),
  };
}

/** Builds the features when a workspace folder holds .vscode/portal.json (its apps may give references). */
async function buildWhenWorkspaceFile(build: () => Promise<unknown>): Promise<void> {
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    try {
      await vscode.workspace.fs.stat(vscode.Uri.joinPath(folder.uri, WORKSPACE_FILE_PATH));
    } catch {
      continue;
    }
    await build();
    return;
  }
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
