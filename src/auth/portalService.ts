// The Portals service: connections (global state), their secrets and tokens (SecretStorage only), one
// PortalClient per connection, interactive sign-in and sign-out, and change events that also cover other
// windows (SecretStorage's onDidChange fires there; global state follows without an event, so it is read
// again then, and once more a moment later in case it arrives after the secret).
//
// The first read starts with the service and is not awaited by activation (reading SecretStorage is a round
// trip to the workbench): until ready() resolves, list() is empty, so whatever shows or uses the sign-in
// state waits for ready() first. The portal client's code (src/api/client.ts with the view streaming it
// brings, and the limiter: a third of what activation would otherwise load) is not needed to activate: it
// loads while SecretStorage answers, and ready() waits for both, so client() and limiter() are there for
// everyone who waited.
import * as vscode from 'vscode';
import type { PortalClient } from '../api/client';
import type { RequestPriority } from '../api/gate';
import { cancelled, PortalError } from '../api/errors';
import { exposesInClearText, normaliseBaseUrl, portalBase } from '../api/urls';
import { Disposable } from '../lifecycle';
import { createLogger, requestLogger, type Logger } from '../log';
import type { PortalLimiter } from '../records/limiter';
import { setting } from '../settings/settings';
import { newConnectionId } from './connectionIds';
import { ConnectionStore } from './connectionStore';
import type { PortalConnection, Portals, SignInState } from './portals';
import { connectionOfKey, secretKeys } from './secretKeys';
import type { RedirectMode, SignInRequest, SignInUi } from './signInUi';
import { tokensFrom } from './storedTokens';
import { TokenKeeper } from './tokenKeeper';

/** What the user typed to add a portal (the secret included, until it is stored). */
export type NewConnection = SignInRequest;

const RELOAD_AGAIN_MS = 1000;

/** What client() and limiter() build with, loaded after activation (see above). */
interface ClientCode {
  PortalClient: typeof PortalClient;
  PortalLimiter: typeof PortalLimiter;
}

export class PortalService extends Disposable implements Portals {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly tokensChanged = new vscode.EventEmitter<void>();
  /** Fires when a stored token may have changed (a renewal here or in another window): sessions follow it. */
  readonly onDidChangeTokens = this.tokensChanged.event;

  private readonly store: ConnectionStore;
  /** The last reload asked for (see reload()). */
  private reloads: Promise<void> = Promise.resolve();
  private redirectModeOf: ((baseUrl: string) => RedirectMode | undefined) | undefined;
  private readonly keepers = new Map<string, TokenKeeper>();
  /** By connection, the interactive client and the jobs' (the same but for their place at the limiter). */
  private readonly clients = new Map<string, Partial<Record<RequestPriority, PortalClient>>>();
  /** By portal (base URL): every connection to a portal, and every job on it, shares its limits. */
  private readonly limiters = new Map<string, PortalLimiter>();
  private connections: PortalConnection[] = [];
  private snapshot = '';
  private reloadTimer: ReturnType<typeof setTimeout> | undefined;
  /** One line per HTTP request to a portal, data and token calls alike. */
  private readonly requestLog = createLogger('http');
  private readonly firstLoad: Promise<void>;
  private loaded = false;
  private clientCode: ClientCode | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly ui: Pick<SignInUi, 'obtainTokens'>,
    private readonly log: Logger,
  ) {
    super();
    this.store = new ConnectionStore(context.globalState);
    this._registerAll(
      this.changed,
      this.tokensChanged,
      context.secrets.onDidChange((event) => {
        if (connectionOfKey(event.key) === undefined) return;
        // Not awaited: a listener; a failed reload is logged.
        void this.reload().then(
          () => this.tokensChanged.fire(),
          (error: unknown) => this.reloadFailed(error),
        );
        // Global state written by another window may arrive after its secret: look once more.
        if (this.reloadTimer) clearTimeout(this.reloadTimer);
        // Not awaited: a timer; a failed reload is logged.
        this.reloadTimer = setTimeout(() => void this.reload().catch((error: unknown) => this.reloadFailed(error)), RELOAD_AGAIN_MS);
      }),
    );
    // In the turn after activation: an import() in the extension host loads and compiles its modules at
    // once, inside the call, and activation is held to its own code (test/bench: extension.bench.ts).
    const clientCode = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => Promise.all([import('../api/client'), import('../records/limiter')]))
      .then(([client, limiter]) => {
        this.clientCode = { PortalClient: client.PortalClient, PortalLimiter: limiter.PortalLimiter };
      });
    const connections = this.reload().then(
      () => undefined,
      // Nothing could be read (SecretStorage refused): the features still start, with no portal listed.
      (error: unknown) => this.reloadFailed(error),
    );
    this.firstLoad = Promise.all([connections, clientCode]).then(() => {
      this.loaded = true;
    });
  }

  private reloadFailed(error: unknown): void {
    this.log.error(`Reading the connected portals: ${error instanceof Error ? error.message : String(error)}`);
  }

  /** Resolves once the connections and their sign-in states have been read for the first time. */
  ready(): Promise<void> {
    return this.firstLoad;
  }

  /** Whether ready() has resolved. */
  get isReady(): boolean {
    return this.loaded;
  }

  /**
   * Reads the connections and every sign-in state; fires onDidChange when anything differs. One reload at a
   * time, each after the one before: SecretStorage's events start reloads that overlap, and one that read
   * the store before a change could end after the change's own and put back what it took away.
   */
  reload(): Promise<void> {
    const next = this.reloads.then(() => this.readConnections());
    this.reloads = next.catch(() => undefined);
    return next;
  }

  private async readConnections(): Promise<void> {
    const connections = this.store.list();
    const ids = new Set(connections.map((connection) => connection.id));
    for (const id of [...this.keepers.keys()]) {
      if (!ids.has(id)) {
        this.keepers.get(id)?.dispose();
        this.keepers.delete(id);
        this.clients.delete(id);
      }
    }
    for (const connection of connections) {
      const known = this.keepers.get(connection.id);
      if (!known || JSON.stringify(known.connection) !== JSON.stringify(connection)) {
        known?.dispose();
        this.keepers.set(connection.id, this.newKeeper(connection));
        this.clients.delete(connection.id);
      }
    }
    await Promise.all(connections.map((connection) => this.keepers.get(connection.id)?.load()));
    this.connections = connections;
    this.fireIfChanged();
  }

  list(): readonly PortalConnection[] {
    return this.connections;
  }

  get(id: string): PortalConnection | undefined {
    return this.connections.find((connection) => connection.id === id);
  }

  state(id: string): SignInState {
    return this.keepers.get(id)?.state() ?? 'signedOut';
  }

  /** The access token of a signed-in connection, for the AuthenticationProvider's session. */
  accessTokenOf(id: string): string | undefined {
    return this.keepers.get(id)?.currentAccessToken();
  }

  /** The connection's client; only once ready() has resolved (its code loads with the first read). */
  client(id: string, priority: RequestPriority = 'interactive'): PortalClient {
    const keeper = this.keeperOf(id);
    const clients = this.clients.get(id) ?? {};
    this.clients.set(id, clients);
    let client = clients[priority];
    if (!client) {
      client = new (this.loadedCode().PortalClient)({
        baseUrl: keeper.connection.baseUrl,
        tokens: keeper,
        allowPlainHttp: keeper.connection.allowPlainHttp,
        onRequest: requestLogger(this.requestLog, id),
        maxAnswerBytes: () => setting('http.maxAnswerBytes'),
        gate: priority === 'bulk' ? this.limiter(id).bulk : this.limiter(id),
      });
      clients[priority] = client;
    }
    return client;
  }

  /**
   * The limiter every request to the connection's portal passes (its client's gate): the many-request jobs
   * take it too, for its pause and its rate. Its bounds are the settings when the portal was first used.
   */
  limiter(id: string): PortalLimiter {
    const baseUrl = this.keeperOf(id).connection.baseUrl;
    let limiter = this.limiters.get(baseUrl);
    if (!limiter) {
      limiter = new (this.loadedCode().PortalLimiter)({
        maxInFlight: setting('requests.maxInFlight'),
        maxRetryAfterMs: setting('requests.maxRetryAfterSeconds') * 1000,
      });
      this.limiters.set(baseUrl, limiter);
    }
    return limiter;
  }

  active(): PortalConnection | undefined {
    const id = this.store.activeId();
    return (id !== undefined ? this.get(id) : undefined) ?? this.connections[0];
  }

  async setActive(id: string): Promise<void> {
    await this.firstLoad;
    this.keeperOf(id);
    await this.store.setActive(id);
    this.changed.fire();
  }

  /**
   * Adds a connection: signs in first (its flow, the browser step included) and stores the connection,
   * the secret and the tokens only when that worked. Anything that fails leaves nothing behind.
   */
  async add(request: NewConnection): Promise<PortalConnection> {
    await this.firstLoad;
    const redirectMode = request.redirectMode ?? this.redirectModeOf?.(request.baseUrl);
    // Refused here already when plain http:// to another machine was not confirmed (Add Portal asks).
    const base = portalBase(request.baseUrl, request.allowPlainHttp);
    const baseUrl = base.href.replace(/\/$/, '');
    const clientId = request.clientId.trim();
    const label = request.label.trim();
    // The same portal and client may be connected twice under two names (with two flows, say: the demo's
    // Client Credentials beside one's own Authorization Code sign-in); only a second one of the same name
    // would be indistinguishable in every list.
    const same = this.connections.find(
      (known) => known.baseUrl === baseUrl && known.clientId === clientId && known.label.toLowerCase() === label.toLowerCase(),
    );
    if (same) {
      throw new PortalError({
        kind: 'invalid-input',
        code: 'already_connected',
        message: `This portal and client id are already connected as "${same.label}" (${same.flow === 'authorizationCode' ? 'Authorization Code' : 'Client Credentials'}). Sign in to it, or give this connection another name to add it again, with another sign-in flow for example.`,
      });
    }
    const issued = Date.now();
    const tokens = await this.ui.obtainTokens({ ...request, baseUrl, clientId, label, ...(redirectMode ? { redirectMode } : {}) });
    const connection: PortalConnection = Object.freeze({
      id: newConnectionId(
        label,
        baseUrl,
        this.connections.map((known) => known.id),
      ),
      label,
      baseUrl,
      clientId,
      flow: request.flow,
      ...(exposesInClearText(base) ? { allowPlainHttp: true as const } : {}),
    });
    try {
      await this.store.add(connection);
      await this.context.secrets.store(secretKeys.clientSecret(connection.id), request.clientSecret);
      const keeper = this.newKeeper(connection);
      this.keepers.set(connection.id, keeper);
      await keeper.signedIn(tokensFrom(tokens, issued));
      if (!this.store.activeId() || !this.get(this.store.activeId() ?? '')) await this.store.setActive(connection.id);
    } catch (error) {
      // Storing failed half-way: take back what was stored.
      await this.forget(connection.id).catch(() => undefined);
      throw error;
    }
    await this.reload();
    this.log.info(`Added the portal ${connection.id} (${baseUrl}, ${request.flow}) and signed in.`);
    return connection;
  }

  /** Forgets the connection, its secret and its tokens. */
  async remove(id: string): Promise<void> {
    await this.firstLoad;
    const connection = this.get(id);
    await this.forget(id);
    await this.reload();
    if (connection) this.log.info(`Removed the portal ${id}.`);
  }

  /**
   * How a sign-in to a portal at an address receives the browser's answer, when the workspace file says (the
   * features set it once built; a sign-in before that follows the setting). Disposing forgets it.
   */
  useRedirectModes(lookup: (baseUrl: string) => RedirectMode | undefined): vscode.Disposable {
    this.redirectModeOf = lookup;
    return { dispose: () => (this.redirectModeOf === lookup ? (this.redirectModeOf = undefined) : undefined) };
  }

  async signIn(id: string): Promise<void> {
    await this.firstLoad;
    let keeper = this.keeperOf(id);
    const base = normaliseBaseUrl(keeper.connection.baseUrl);
    if (!keeper.connection.allowPlainHttp && exposesInClearText(base)) {
      // A connection added before plain http:// was asked about: asked once now, and remembered with it
      // (the keeper and client made anew for the changed connection).
      const { confirmPlainHttp } = await import('./signInUi');
      if (!(await confirmPlainHttp(keeper.connection.label, base))) throw cancelled('Signing in');
      await this.store.add({ ...keeper.connection, allowPlainHttp: true });
      await this.reload();
      keeper = this.keeperOf(id);
    }
    const { connection } = keeper;
    const clientSecret = await this.context.secrets.get(secretKeys.clientSecret(id));
    if (!clientSecret) {
      throw new PortalError({
        kind: 'invalid-input',
        code: 'missing_secret',
        message: `The client secret of the portal "${connection.label}" is not stored on this machine. Remove the portal and add it again.`,
      });
    }
    const issued = Date.now();
    const redirectMode = this.redirectModeOf?.(connection.baseUrl);
    const tokens = await this.ui.obtainTokens({ ...connection, clientSecret, ...(redirectMode ? { redirectMode } : {}) });
    await keeper.signedIn(tokensFrom(tokens, issued));
    this.log.info(`Signed in to ${id} (${connection.flow}).`);
  }

  async signOut(id: string): Promise<void> {
    await this.firstLoad;
    const keeper = this.keeperOf(id);
    await keeper.signOut();
    this.fireIfChanged();
    this.log.info(`Signed out of ${id}.`);
  }

  override dispose(): void {
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    super.dispose();
  }

  private async forget(id: string): Promise<void> {
    // First, so that a renewal under way cannot store the tokens again after they are deleted below.
    this.keepers.get(id)?.dispose();
    this.keepers.delete(id);
    await this.store.remove(id);
    this.clients.delete(id);
    const { forgetPortal } = await import('./forgetPortal');
    await forgetPortal(id, {
      secrets: this.context.secrets,
      state: this.context.globalState,
      storageFolder: this.context.globalStorageUri.fsPath,
    });
  }

  private loadedCode(): ClientCode {
    if (!this.clientCode) throw new Error('A portal client was asked for before the portals were read (await ready() first).');
    return this.clientCode;
  }

  private keeperOf(id: string): TokenKeeper {
    const keeper = this.keepers.get(id);
    if (!keeper) {
      throw new PortalError({
        kind: 'invalid-input',
        code: 'unknown_portal',
        message: `No portal is connected as "${id}". Add it with "Portal: Add Portal".`,
      });
    }
    return keeper;
  }

  private newKeeper(connection: PortalConnection): TokenKeeper {
    return new TokenKeeper({
      connection,
      secrets: this.context.secrets,
      onDidWrite: () => {
        this.fireIfChanged();
        this.tokensChanged.fire();
      },
      log: (message) => this.log.info(message),
      onRequest: requestLogger(this.requestLog, connection.id),
    });
  }

  /** Fires onDidChange when the connections or their states differ from the last time. */
  private fireIfChanged(): void {
    const snapshot = JSON.stringify(this.connections.map((connection) => [connection, this.state(connection.id)]));
    if (snapshot === this.snapshot) return;
    this.snapshot = snapshot;
    this.changed.fire();
  }
}
