// What the language model tools need of the extension, as plain functions: the connections and their
// sign-in state, the portal client of each, the catalog's sites and columns (shared with the explorer, so
// a tool asks the portal at most what the tree would), the views the user added, and where to say that a
// record changed. The adapter (src/lazyTools.ts) fills it in; the unit tests fill it in with a client of
// the emulator. No vscode here.
import type { PortalClient } from '../api/client';
import type { Column, Site } from '../api/types';
import type { Versions } from '../records/versions';

export type ToolSignInState = 'signedIn' | 'signedOut' | 'expired';

export interface ToolPortal {
  readonly id: string;
  readonly label: string;
  readonly state: ToolSignInState;
}

export interface ToolView {
  readonly viewId: string;
  readonly name: string;
}

/** Where the tools' record store logs (field ids and record ids, never a value). */
export interface ToolLog {
  debug(line: string): void;
  info(line: string): void;
  warn(line: string): void;
}

export interface ToolHost {
  portals(): readonly ToolPortal[];
  /** The portal commands use when none is named (the status bar's). */
  activePortal(): string | undefined;
  client(portalId: string): PortalClient;
  sites(portalId: string, signal?: AbortSignal): Promise<readonly Site[]>;
  /** The app's columns in position order. */
  columns(portalId: string, appId: string, signal?: AbortSignal): Promise<readonly Column[]>;
  /** Views of the app the user added in VS Code (the API cannot list them). */
  views(portalId: string, appId: string): readonly ToolView[];
  /** Whether the user allowed the tools that change data (portal.agent.allowChanges). */
  allowChanges(): boolean;
  readonly log: ToolLog;
  /**
   * A tool refused because the user must sign in to the portal: the user is offered to (a notification
   * with Sign In). The tools call it at most once per portal per session.
   */
  offerSignIn(portalId: string): void;
  /** A record was created or changed through a tool: the tree refreshes its app. */
  recordChanged(portalId: string, appId: string, recordId: string, kind: 'created' | 'updated'): void;
  /** Where the tools' record store offers the copies it reads and writes (Record History). */
  readonly versions?: Versions;
}

/** The setting that offers the changing tools, as the user finds it in the Settings editor. */
export const ALLOW_CHANGES_SETTING = 'portal.agent.allowChanges';
/** The commands a tool names when the user must act. */
export const SIGN_IN_COMMAND_TITLE = 'Portal: Sign In';
export const ADD_PORTAL_COMMAND_TITLE = 'Portal: Add Portal…';
export const ADD_VIEW_COMMAND_TITLE = 'Portal: Add View…';

/**
 * A request the tool answers with a sentence rather than a result: a name that fits nothing, a portal
 * signed out, a value the formats refuse. Its message is what the model reads; nothing was sent.
 */
export class ToolRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolRefusal';
  }
}

/** A refusal because the user must sign in to the portal first. */
export class SignInRefusal extends ToolRefusal {
  constructor(
    message: string,
    readonly portalId: string,
  ) {
    super(message);
  }
}
