// What activate() returns when the extension runs under test (ExtensionMode.Test): the seams that let the
// integration suite act as a user without real dialogs. In production activate() returns nothing of this.
// Activation builds most parts on first use (src/features.ts): ready() builds them and waits for the
// portals to be read; the parts below `portals` exist once it has resolved.
import type * as vscode from 'vscode';
import type { RowStore } from './api/rowStore';
import type { Portals } from './auth/portals';
import { PortalService } from './auth/portalService';
import type { SortSpec } from './shared/protocol';
import type { Features } from './features';
import type { Lazy } from './lazy';
import { setPreparedObserver, toolsContextValues, type PreparedObserver } from './lazyTools';
import { logMark, recentLogLines, recentLogLinesSince } from './log';
import type { ExplorerNode } from './tree/nodes';
import { setPrompter, type Prompter } from './ui/prompter';
import type { EventsNode } from './webhooks/eventsTree';

const ignore = (): void => undefined;
const quiet = { trace: ignore, debug: ignore, info: ignore, warn: ignore, error: ignore };

/** What activation makes at once. */
export interface TestApiCore {
  /** The connections to portals, their sign-in state and clients (the service every feature uses). */
  readonly portals: Portals;
  /** Shortens the browser step's time limit (5 minutes) so a test can see it run out. */
  setSignInTimeout(ms: number): void;
  /** The Portal explorer's view, to reveal and expand nodes in the workbench. */
  readonly explorerView: vscode.TreeView<ExplorerNode>;
  /** The Webhook Events view, to reveal and expand events in the workbench. */
  readonly webhookEventsView: vscode.TreeView<EventsNode>;
  /** What VS Code calls to bring a panel back after a reload (the serializer of the record form and the Query View). */
  readonly panelSerializer: vscode.WebviewPanelSerializer;
}

/**
 * The seams, what activation made, and the features as src/features.ts built them (the stores, the
 * explorer, the documents, webhooks...: see Features there), each available once ready() has resolved.
 */
export interface PortalExplorerTestApi extends TestApiCore, Omit<Features, 'commands'> {
  /** Builds the parts built on first use and waits for the portals' sign-in state to be read. */
  ready(): Promise<void>;
  /** Replaces the prompter (input boxes, pickers, messages, dialogs); returns the previous one. */
  setPrompter(next: Prompter): Prompter;
  /** Lines written to the "Portal Explorer" log channel, oldest first. */
  logLines(): readonly string[];
  /** Where the log is now; logLinesSince(mark) gives the lines after it (an index into logLines() goes wrong once it is full). */
  logMark(): number;
  logLinesSince(mark: number): readonly string[];
  /** The extension's context, to inspect global state and secrets. */
  readonly context: vscode.ExtensionContext;
  /** Sees (and is awaited for) each language model tool's prepared invocation before VS Code confirms it. */
  setToolPreparedObserver(observer: PreparedObserver | undefined): void;
  /** The context keys of the tools' when clauses as last set (a context key cannot be read back). */
  toolsContext(): Readonly<Record<string, boolean>>;
  /**
   * A Portals service of its own over `context` (a stand-in, to hold its SecretStorage's answers), which
   * refuses to sign in and logs nothing; the caller disposes it.
   */
  newPortals(context: vscode.ExtensionContext): PortalService;
  /** The rows each open Query View panel keeps (its last result), to see them given back when it closes. */
  queryResults(): Promise<
    Array<{
      readonly viewId: string;
      readonly rows: RowStore | undefined;
      /** The result's columns (field_id_in_data), in the order shown. */
      readonly columns: readonly string[] | undefined;
      readonly sort: SortSpec | undefined;
    }>
  >;
}

export interface PortalExplorerApi {
  readonly testing?: PortalExplorerTestApi;
}

export function createTestApi(context: vscode.ExtensionContext, core: TestApiCore, features: Lazy<Features>): PortalExplorerTestApi {
  const built = (): Features => {
    const parts = features.peek();
    if (!parts) throw new Error('The test API was used before ready() resolved.');
    return parts;
  };
  const own = {
    setPrompter,
    setToolPreparedObserver: setPreparedObserver,
    toolsContext: toolsContextValues,
    logLines: recentLogLines,
    logMark,
    logLinesSince: recentLogLinesSince,
    context,
    newPortals: (of: vscode.ExtensionContext) =>
      new PortalService(of, { obtainTokens: () => Promise.reject(new Error('No sign-in in a stand-in service.')) }, quiet),
    ...core,
    ready: async () => {
      await core.portals.ready();
      await features.get();
    },
    // Loaded when asked, as the panels are (the same module the commands use).
    queryResults: async () =>
      (await import('./webviews/viewQueryPanel')).ViewQueryPanel.all().map((panel) => ({
        viewId: panel.target.viewId,
        rows: panel.session.result?.rows,
        columns: panel.session.result?.columns.map((column) => column.key),
        sort: panel.session.shownSort,
      })),
  };
  // Anything else is a built feature, read when asked (so that a test sees what the features hold now).
  return new Proxy(own, {
    get: (target, key, receiver) => (key in target ? Reflect.get(target, key, receiver) : Reflect.get(built(), key)),
  }) as PortalExplorerTestApi;
}
