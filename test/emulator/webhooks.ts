// Webhooks per app (App Settings > Advanced Settings > Webhook Settings in the portal; POST
// /_emulator/webhooks here) and their deliveries: one signed JSON POST per active webhook, sent after the
// response of the request that caused the event, to loopback addresses only. Failures are recorded,
// never thrown.
import { createHmac, randomUUID } from 'node:crypto';
import { isLoopbackHost } from './clients';

export const WEBHOOK_EVENTS = ['record.created', 'record.updated', 'record.deleted', 'comment.created', 'attachment.created'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export interface Webhook {
  id: string;
  app_id: string;
  payload_url: string;
  events: WebhookEvent[];
  secret: string;
  active: boolean;
}

export interface EventPayload {
  event: WebhookEvent;
  app_id: string;
  record_id: string;
  data: Record<string, string>;
  occurred_at: string;
  comment?: { id: string; comment: string; created_at: string };
  attachment?: { id: string; file_name: string; content_type: string; size: number; created_at: string };
}

export interface Delivery {
  delivery_id: string;
  webhook_id: string;
  event: WebhookEvent;
  app_id: string;
  record_id: string;
  payload_url: string;
  state: 'pending' | 'delivered' | 'failed';
  /** The receiver's last status, null when it never answered. */
  status: number | null;
  attempts: number;
  error?: string;
  headers: Record<string, string>;
  body: string;
  sent_at: string;
}

export class WebhookError extends Error {}

export interface DeliverySettings {
  retries: number;
  timeoutMs: number;
}

export function webhookFromJson(spec: unknown, id: string, appExists: (appId: string) => boolean): Webhook {
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec))
    throw new WebhookError('Send a JSON object: app_id, payload_url, events, secret, active.');
  const s = spec as Record<string, unknown>;
  if (typeof s.app_id !== 'string' || !appExists(s.app_id)) throw new WebhookError(`app_id must name an app of the portal.`);
  if (typeof s.payload_url !== 'string') throw new WebhookError('payload_url must be a URL.');
  let url: URL;
  try {
    url = new URL(s.payload_url);
  } catch {
    throw new WebhookError('payload_url must be an absolute URL.');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !isLoopbackHost(url.hostname)) {
    throw new WebhookError(
      'payload_url must be an http(s) URL on a loopback address (127.0.0.1, localhost, [::1]); the emulator sends nothing elsewhere.',
    );
  }
  const events = s.events ?? [...WEBHOOK_EVENTS];
  if (!Array.isArray(events) || events.length === 0 || !events.every((e) => (WEBHOOK_EVENTS as readonly unknown[]).includes(e))) {
    throw new WebhookError(`events must be a non-empty list of: ${WEBHOOK_EVENTS.join(', ')}.`);
  }
  if (s.secret !== undefined && s.secret !== null && typeof s.secret !== 'string') throw new WebhookError('secret must be a string.');
  if (s.active !== undefined && typeof s.active !== 'boolean') throw new WebhookError('active must be true or false.');
  return {
    id,
    app_id: s.app_id,
    payload_url: s.payload_url,
    events: [...new Set(events as WebhookEvent[])],
    secret: (s.secret as string | null | undefined) ?? '',
    active: s.active ?? true,
  };
}

export function signature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** fetch's "fetch failed" says little; its cause says what happened (ECONNREFUSED, timeout...). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}

export class Webhooks {
  private hooks: Webhook[] = [];
  private log: Delivery[] = [];
  private nextId = 1;
  private readonly closing = new AbortController();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly settings: () => DeliverySettings,
    private readonly report: (line: string) => void,
  ) {}

  register(spec: unknown, appExists: (appId: string) => boolean): Webhook {
    const hook = webhookFromJson(spec, String(this.nextId), appExists);
    this.nextId++;
    this.hooks.push(hook);
    return hook;
  }

  list(): Array<Omit<Webhook, 'secret'> & { has_secret: boolean }> {
    return this.hooks.map(({ secret, ...rest }) => ({ ...rest, has_secret: secret !== '' }));
  }

  remove(id: string): boolean {
    const before = this.hooks.length;
    this.hooks = this.hooks.filter((hook) => hook.id !== id);
    return this.hooks.length < before;
  }

  deliveries(): Delivery[] {
    return this.log.map((delivery) => ({ ...delivery }));
  }

  clearDeliveries(): void {
    this.log = [];
  }

  clear(): void {
    this.hooks = [];
    this.log = [];
  }

  /** Sends the payload to every active webhook of its app that listens to its event. */
  dispatch(payload: EventPayload): void {
    for (const hook of this.hooks) {
      if (!hook.active || hook.app_id !== payload.app_id || !hook.events.includes(payload.event)) continue;
      const deliveryId = randomUUID();
      const body = JSON.stringify({ ...payload, delivery_id: deliveryId });
      const headers: Record<string, string> = {
        'Content-Type': 'application/json',
        'User-Agent': 'portal-emulator-webhooks',
        'X-Portal-Event': payload.event,
        'X-Portal-Delivery': deliveryId,
      };
      if (hook.secret) headers['X-Portal-Signature'] = signature(hook.secret, body);
      const delivery: Delivery = {
        delivery_id: deliveryId,
        webhook_id: hook.id,
        event: payload.event,
        app_id: payload.app_id,
        record_id: payload.record_id,
        payload_url: hook.payload_url,
        state: 'pending',
        status: null,
        attempts: 0,
        headers,
        body,
        sent_at: new Date().toISOString(),
      };
      this.log.push(delivery);
      const sending = this.send(delivery).finally(() => this.inFlight.delete(sending));
      this.inFlight.add(sending);
    }
  }

  private async send(delivery: Delivery): Promise<void> {
    const { retries, timeoutMs } = this.settings();
    for (let attempt = 1; attempt <= retries + 1 && !this.closing.signal.aborted; attempt++) {
      if (attempt > 1) await sleep(250 * 2 ** (attempt - 2), this.closing.signal);
      delivery.attempts = attempt;
      try {
        const response = await fetch(delivery.payload_url, {
          method: 'POST',
          headers: delivery.headers,
          body: delivery.body,
          redirect: 'manual',
          signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), this.closing.signal]),
        });
        await response.arrayBuffer().catch(() => undefined);
        delivery.status = response.status;
        delivery.error = response.ok ? undefined : `the receiver answered ${response.status}`;
        if (response.ok) {
          delivery.state = 'delivered';
          return;
        }
      } catch (error) {
        delivery.error = describe(error);
      }
    }
    delivery.state = 'failed';
    this.report(
      `webhook ${delivery.webhook_id}: ${delivery.event} for record ${delivery.record_id} not delivered (${delivery.error ?? 'stopped'})`,
    );
  }

  /** Stops retries and open deliveries. */
  async close(): Promise<void> {
    this.closing.abort();
    await Promise.allSettled([...this.inFlight]);
  }
}
