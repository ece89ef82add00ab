// The ids the extension registers with VS Code (commands, views, URI schemes), in a module with nothing
// else in it: activation registers each command with a thin handler from these lists (registerLazyCommands
// in src/commands/register.ts), and the module that implements a command is loaded when it first runs.
// Each command is contributed in package.json.
export const EXPLORER_VIEW_ID = 'portal.explorer';
export const EVENTS_VIEW_ID = 'portal.webhookEvents';
export const HISTORY_VIEW_ID = 'portal.recordHistory';
/** Record History's description, set at activation: the portal keeps no versions. */
export const HISTORY_DESCRIPTION = 'Only this VS Code keeps these versions; the portal keeps none';

/** The webview panels (their serializers restore them after a reload: src/webviews/panelRestore.ts). */
export const PANEL_VIEW_TYPES = { form: 'portal.recordForm', query: 'portal.viewQuery' } as const;
/** The import mapping panel: not among PANEL_VIEW_TYPES, since it is not restored after a reload. */
export const IMPORT_VIEW_TYPE = 'portal.importMapping';

/** Records as JSON documents, views and apps (src/model/recordAddress.ts: the addresses). */
export const RECORD_SCHEME = 'portal';
/** Comment drafts (src/comments/commentDrafts.ts), in memory. */
export const COMMENT_SCHEME = 'portal-comment';
/** Attachments opened as text (src/attachments/attachmentViewer.ts), in memory, read-only. */
export const ATTACHMENT_SCHEME = 'portal-attachment';
/** Webhook payloads as read-only documents (src/webhooks/payloadDocuments.ts). */
export const PAYLOAD_SCHEME = 'portal-webhook';
/** Versions of records from Record History (src/recordHistory), read-only. */
export const HISTORY_SCHEME = 'portal-history';

/** The path of the extension's open links (commands/links.ts), beside the sign-in's /auth. */
export const OPEN_PATH = '/open';

/** The view grid: a custom editor on a view's address (portal://<portal>/<app>/views/<…> · <view>). */
export const GRID_VIEW_TYPE = 'portal.grid';
/** A view as a board: a custom editor on the same address, over the grid's document model. */
export const BOARD_VIEW_TYPE = 'portal.board';
/** The two sides of a grid conflict's Compare, as read-only JSON documents. */
export const GRID_COMPARE_SCHEME = 'portal-grid-compare';

/** The folder of the team's shared setup in each workspace folder. */
export const WORKSPACE_FOLDER = '.vscode';
/** The team's shared setup in each workspace folder (package.json's jsonValidation and workspaceContains name it too). */
export const WORKSPACE_FILE_PATH = `${WORKSPACE_FOLDER}/portal.json`;

/** What the Portal explorer takes when dropped on a record: files from VS Code's explorer, or the system's. */
export const EXPLORER_DROP_TYPES = { uriList: 'text/uri-list', files: 'files' } as const;

/** VS Code's own command that shows the Webhook Events view. */
export const SHOW_WEBHOOK_EVENTS = `${EVENTS_VIEW_ID}.focus`;

export const PORTAL_COMMANDS = {
  addPortal: 'portal.addPortal',
  removePortal: 'portal.removePortal',
  signIn: 'portal.signIn',
  signOut: 'portal.signOut',
  switchPortal: 'portal.switchPortal',
  portalActions: 'portal.portalActions',
  checkConnection: 'portal.checkConnection',
  /** Your e-mail on a portal, which USER columns are matched against (the API has no "who am I"). */
  setMyEmail: 'portal.setMyEmail',
} as const;

export const HELP_COMMANDS = {
  showLog: 'portal.showLog',
  openWalkthrough: 'portal.openWalkthrough',
  copyCallbackUrl: 'portal.copyCallbackUrl',
} as const;

export const EXPLORER_COMMANDS = {
  refresh: 'portal.refresh',
  refreshNode: 'portal.refreshNode',
  addView: 'portal.addView',
  removeView: 'portal.removeView',
  copyFieldId: 'portal.copyFieldId',
  setTitleField: 'portal.setTitleField',
  loadMore: 'portal.loadMore',
  retry: 'portal.retry',
  goToRecord: 'portal.goToRecord',
  /** Go to Record in the view selected in the Portal view (Ctrl+F / Cmd+F there). */
  findRecordInSelectedView: 'portal.findRecordInSelectedView',
  /** Stops a view's rows arriving in the Portal view, keeping those read. */
  cancelLoad: 'portal.cancelLoad',
  /** Connects a portal the workspace file names, asking only for its Secret Key. */
  signInToSharedPortal: 'portal.signInToSharedPortal',
  /** A link to a record, view or saved query that opens it here and in a colleague's VS Code. */
  copyLink: 'portal.copyLink',
  /** The portal's own web page for a record or view, from the workspace file's template. */
  openInPortal: 'portal.openInPortal',
  /** Moves a personal view, saved query or grid layout into the workspace file, as a text edit. */
  shareWithWorkspace: 'portal.shareWithWorkspace',
  /** Copies a shared view or query into the user's own, and on request takes it out of the file. */
  keepPersonal: 'portal.keepPersonal',
} as const;

export const RECORD_COMMANDS = {
  open: 'portal.openRecord',
  create: 'portal.newRecord',
  publish: 'portal.publishRecord',
  delete: 'portal.deleteRecord',
} as const;

export const PANEL_COMMANDS = {
  createRecord: 'portal.createRecord',
  queryView: 'portal.queryView',
  openViewAsGrid: 'portal.openViewAsGrid',
  openViewAsBoard: 'portal.openViewAsBoard',
  runSavedQuery: 'portal.runSavedQuery',
  deleteSavedQuery: 'portal.deleteSavedQuery',
} as const;

/** Bulk import (an app) and bulk change (records of a view: { portalId, appId, viewId, recordIds }). */
export const IMPORT_COMMANDS = {
  importRecords: 'portal.importRecords',
  setField: 'portal.bulkSetField',
  deleteRows: 'portal.bulkDeleteRows',
} as const;

export const COMMENT_COMMANDS = { add: 'portal.addComment', send: 'portal.sendComment' } as const;

export const ATTACHMENT_COMMANDS = { add: 'portal.addAttachment', download: 'portal.downloadAttachment' } as const;

export const WEBHOOK_COMMANDS = {
  start: 'portal.startWebhookReceiver',
  stop: 'portal.stopWebhookReceiver',
  setSecret: 'portal.setWebhookSecret',
  copyUrl: 'portal.copyWebhookUrl',
  clear: 'portal.clearWebhookEvents',
  openPayload: 'portal.openWebhookPayload',
} as const;

/** Watched views and My Records (src/watched). */
export const WATCH_COMMANDS = {
  watchView: 'portal.watchView',
  stopWatching: 'portal.stopWatching',
} as const;

/** Records where the code is: Start Work on a branch, the status bar's menu, a record from a TODO or a selection. */
export const WORK_COMMANDS = {
  startWork: 'portal.startWork',
  stopWork: 'portal.stopWork',
  /** The status bar item's menu: open the record, change its status, stop work. */
  workActions: 'portal.workOnRecordActions',
  /** Create Record from TODO / from Selection (the code action passes where). */
  createFromCode: 'portal.createRecordFromCode',
} as const;

/** Record History (src/recordHistory). */
export const HISTORY_COMMANDS = {
  show: 'portal.showRecordHistory',
  compare: 'portal.compareWithVersion',
} as const;

/** Every command, by feature area: the one table of command ids (no id is written anywhere else in src/). */
export const COMMANDS = {
  portal: PORTAL_COMMANDS,
  help: HELP_COMMANDS,
  explorer: EXPLORER_COMMANDS,
  record: RECORD_COMMANDS,
  panel: PANEL_COMMANDS,
  import: IMPORT_COMMANDS,
  comment: COMMENT_COMMANDS,
  attachment: ATTACHMENT_COMMANDS,
  webhook: WEBHOOK_COMMANDS,
  watch: WATCH_COMMANDS,
  work: WORK_COMMANDS,
  history: HISTORY_COMMANDS,
} as const;

type Values<T> = T[keyof T];
/** A command id of this extension. */
export type CommandId = Values<{ [Area in keyof typeof COMMANDS]: Values<(typeof COMMANDS)[Area]> }>;

/** The commands that need the portals and nothing else: connecting, signing in, help. */
export const PORTAL_GROUP: readonly string[] = [...Object.values(PORTAL_COMMANDS), ...Object.values(HELP_COMMANDS)];

/** The commands of the explorer, records, panels, comments, attachments and webhooks. */
export const FEATURE_GROUP: readonly string[] = [
  ...Object.values(EXPLORER_COMMANDS),
  ...Object.values(RECORD_COMMANDS),
  ...Object.values(PANEL_COMMANDS),
  ...Object.values(IMPORT_COMMANDS),
  ...Object.values(COMMENT_COMMANDS),
  ...Object.values(ATTACHMENT_COMMANDS),
  ...Object.values(WEBHOOK_COMMANDS),
  ...Object.values(WATCH_COMMANDS),
  ...Object.values(WORK_COMMANDS),
  ...Object.values(HISTORY_COMMANDS),
];
