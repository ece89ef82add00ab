// The AuthenticationProvider "portal": one account per signed-in connection, so signed-in portals show in
// VS Code's Accounts menu and sign out from there. A session's scopes are [<connection id>]; asking for a
// session with a connection id as the scope narrows to that portal. It answers once the portals are read
// (PortalService.ready(), a moment after activation): VS Code's questions before then wait for it.
import * as vscode from 'vscode';
import { Disposable } from '../lifecycle';
import type { PortalConnection } from './portals';
import type { PortalService } from './portalService';

export const AUTH_PROVIDER_ID = 'portal';
export const AUTH_PROVIDER_LABEL = 'Portal';

export interface PortalAuthenticationProviderOptions {
  /** Asks which portal to sign in to (or adds one) when a session is requested without naming one. */
  choosePortal(): Promise<string>;
}

export class PortalAuthenticationProvider extends Disposable implements vscode.AuthenticationProvider {
  private readonly emitter = new vscode.EventEmitter<vscode.AuthenticationProviderAuthenticationSessionsChangeEvent>();
  readonly onDidChangeSessions = this.emitter.event;
  /** The sessions VS Code was last told of; set when the portals are first read. */
  private known: Map<string, vscode.AuthenticationSession> | undefined;

  constructor(
    private readonly portals: PortalService,
    private readonly options: PortalAuthenticationProviderOptions,
  ) {
    super();
    this._registerAll(
      this.emitter,
      portals.onDidChange(() => this.compare()),
      portals.onDidChangeTokens(() => this.compare()),
    );
    // Not awaited: the constructor returns at once; the sessions are known once the portals are read.
    void portals.ready().then(() => (this.known ??= this.current()));
  }

  async getSessions(
    scopes: readonly string[] | undefined,
    options: vscode.AuthenticationProviderSessionOptions,
  ): Promise<vscode.AuthenticationSession[]> {
    await this.portals.ready();
    const wanted = scopes && scopes.length > 0 ? new Set(scopes) : undefined;
    return [...this.current().values()].filter(
      (session) => (!wanted || wanted.has(session.account.id)) && (!options.account || options.account.id === session.account.id),
    );
  }

  async createSession(scopes: readonly string[]): Promise<vscode.AuthenticationSession> {
    await this.portals.ready();
    const named = scopes.find((scope) => this.portals.get(scope));
    const id = named ?? (await this.options.choosePortal());
    if (this.portals.state(id) !== 'signedIn') await this.portals.signIn(id);
    const session = this.current().get(id);
    if (!session) throw new Error(`Signing in to the portal "${this.portals.get(id)?.label ?? id}" did not give a session.`);
    this.compare();
    return session;
  }

  async removeSession(sessionId: string): Promise<void> {
    await this.portals.ready();
    if (this.portals.get(sessionId)) await this.portals.signOut(sessionId);
    this.compare();
  }

  private sessionOf(connection: PortalConnection, accessToken: string): vscode.AuthenticationSession {
    return { id: connection.id, accessToken, account: { id: connection.id, label: connection.label }, scopes: [connection.id] };
  }

  private current(): Map<string, vscode.AuthenticationSession> {
    const sessions = new Map<string, vscode.AuthenticationSession>();
    for (const connection of this.portals.list()) {
      const token = this.portals.state(connection.id) === 'signedIn' ? this.portals.accessTokenOf(connection.id) : undefined;
      if (token) sessions.set(connection.id, this.sessionOf(connection, token));
    }
    return sessions;
  }

  /** Tells VS Code which sessions were added, removed or changed (a renewed token, a new label). */
  private compare(): void {
    // Before the first read there is nothing VS Code was told of to compare with.
    const known = this.known;
    if (!known || !this.portals.isReady) return;
    const now = this.current();
    const added = [...now.values()].filter((session) => !known.has(session.id));
    const removed = [...known.values()].filter((session) => !now.has(session.id));
    const changed = [...now.values()].filter((session) => {
      const before = known.get(session.id);
      return before !== undefined && (before.accessToken !== session.accessToken || before.account.label !== session.account.label);
    });
    this.known = now;
    if (added.length + removed.length + changed.length > 0) this.emitter.fire({ added, removed, changed });
  }
}
