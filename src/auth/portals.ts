// The contract every feature codes against to talk to a portal: the connections the user added, their
// sign-in state, and one PortalClient per connection whose tokens are looked after here.
import type * as vscode from 'vscode';
import type { PortalClient } from '../api/client';
import type { RequestPriority } from '../api/gate';
import type { PortalLimiter } from '../records/limiter';

export type AuthFlow = 'authorizationCode' | 'clientCredentials';

export interface PortalConnection {
  /** Short, stable and URI-authority-safe: the authority of record documents (portal://<id>/...). */
  readonly id: string;
  readonly label: string;
  readonly baseUrl: string;
  readonly clientId: string;
  readonly flow: AuthFlow;
  /** The user confirmed once that this portal may be used over plain http:// (set only for such a portal). */
  readonly allowPlainHttp?: true;
}

export type SignInState = 'signedIn' | 'signedOut' | 'expired';

export interface Portals {
  /** Resolves once the connections and their sign-in states are read (activation does not wait for it);
   *  until then list() is empty. */
  ready(): Promise<void>;
  /** Fires when a connection is added or removed, or its sign-in state changes (in this or another window). */
  readonly onDidChange: vscode.Event<void>;
  list(): readonly PortalConnection[];
  get(id: string): PortalConnection | undefined;
  state(id: string): SignInState;
  /** One PortalClient per connection (cached). Its token source refreshes ahead of expiry and once after a 401;
   *  when the user must sign in again it throws PortalError { kind: 'http', status: 401, code: 'unauthorized' }.
   *  A many-request job asks for its `bulk` client: the user's requests pass its requests at the limiter. */
  client(id: string, priority?: RequestPriority): PortalClient;
  /** The limiter of the connection's portal, which its client's requests pass: jobs take it for its pause and rate. */
  limiter(id: string): PortalLimiter;
  /** Interactive sign-in (the connection's flow); rejects with a cancellation when the user cancels. */
  signIn(id: string): Promise<void>;
  signOut(id: string): Promise<void>;
  /** The portal the status bar shows and commands use when they need one and were given none. */
  active(): PortalConnection | undefined;
  /** Makes `id` the active portal (fires onDidChange). */
  setActive(id: string): Promise<void>;
}

export const FLOW_LABELS: Record<AuthFlow, string> = {
  authorizationCode: 'Authorization Code',
  clientCredentials: 'Client Credentials',
};
