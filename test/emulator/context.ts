// What every route of the emulator shares: options, runtime config, the portal's state and the test
// interface's registers. One Context per running emulator, so several can run in one process.
import type { FastifyRequest } from 'fastify';
import type { Client } from './clients';
import { demoRedirectUris } from './clients';
import { ApiError } from './errors';
import { Faults } from './faults';
import { Admissions } from './pacing';
import { OAuthState } from './oauthState';
import type { ResolvedOptions, RuntimeConfig } from './options';
import { runtimeConfigOf } from './options';
import { RequestLog } from './requestLog';
import { Store } from './store';
import type { EventPayload } from './webhooks';
import { Webhooks } from './webhooks';

export class Context {
  config: RuntimeConfig;
  readonly store: Store;
  readonly oauth = new OAuthState();
  readonly faults = new Faults();
  readonly requests = new RequestLog();
  readonly admissions = new Admissions();
  readonly webhooks: Webhooks;
  baseUrl = '';
  private readonly pendingEvents = new WeakMap<FastifyRequest, EventPayload[]>();

  constructor(readonly options: ResolvedOptions) {
    this.config = runtimeConfigOf(options);
    this.store = new Store(options.bigViewRecords, options.seed);
    this.webhooks = new Webhooks(
      () => ({ retries: this.config.webhookRetries, timeoutMs: this.config.webhookTimeoutMs }),
      (line) => this.print(line),
    );
    this.oauth.reset(this.demoClient());
  }

  demoClient(): Client {
    return {
      client_id: this.options.clientId,
      client_secret: this.options.clientSecret,
      name: 'Portal Explorer (demo)',
      redirect_uris: demoRedirectUris(this.options.redirectUris),
    };
  }

  /** The seed again, with the startup options; requests, faults, webhooks and other clients forgotten. */
  reset(): void {
    this.config = runtimeConfigOf(this.options);
    this.store.setBigViewRecords(this.options.bigViewRecords);
    this.store.reset();
    this.oauth.reset(this.demoClient());
    this.faults.clear();
    this.admissions.clear();
    this.requests.clear();
    this.webhooks.clear();
  }

  /** One line on stderr (stdout carries only the startup line), unless quiet. */
  print(line: string): void {
    if (!this.config.quiet) process.stderr.write(`[emulator] ${line}\n`);
  }

  /** Who a request comes from, for the limits per client: its token's client, else its address. */
  clientOf(request: FastifyRequest): string {
    const match = /^Bearer +(\S+) *$/i.exec(request.headers.authorization ?? '');
    const client = match ? this.oauth.clientOfToken(match[1]) : undefined;
    return client !== undefined ? `client:${client}` : `address:${request.ip}`;
  }

  /** Throws invalid_token unless the request carries a valid access token. */
  requireToken(request: FastifyRequest): void {
    const header = request.headers.authorization ?? '';
    const match = /^Bearer +(\S+) *$/i.exec(header);
    if (!match) throw new ApiError(401, 'invalid_token', 'An access token is required: send Authorization: Bearer <token>.');
    const check = this.oauth.checkAccessToken(match[1]);
    if (check === 'unknown') throw new ApiError(401, 'invalid_token', 'The access token is unknown or was revoked.');
    if (check === 'expired') throw new ApiError(401, 'invalid_token', 'The access token expired.');
  }

  /** Queues a webhook event; it goes out once the response to `request` has been sent. */
  emit(request: FastifyRequest, payload: Omit<EventPayload, 'occurred_at'>): void {
    const queued = this.pendingEvents.get(request) ?? [];
    queued.push({ ...payload, occurred_at: new Date().toISOString() });
    this.pendingEvents.set(request, queued);
  }

  /** Sends what `request` queued (called when its response has gone). */
  flushEvents(request: FastifyRequest): void {
    const queued = this.pendingEvents.get(request);
    if (!queued) return;
    this.pendingEvents.delete(request);
    for (const payload of queued) this.webhooks.dispatch(payload);
  }
}
