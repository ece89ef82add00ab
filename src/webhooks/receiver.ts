// The local webhook receiver: an HTTP server (loopback unless the user binds it elsewhere) that takes a
// portal's deliveries at /portal/<connectionId>. The path names the connection, because a payload names an
// app and a record but not the portal; it also selects that connection's Secret Key.
//
// Per request, in this order: the path and method; the connection; the body's size (413 past the limit,
// without keeping it); the signature over the RAW bytes when a Secret Key is set, else whether the user
// turned unsigned deliveries on for that portal (401); JSON (400); the payload; whether it repeats one
// accepted lately (202, not acted on). The answer goes out before anyone hears of the delivery, and nothing a sender does can throw out
// of the handler. No `vscode` import: unit-tested in plain node.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseWebhookPayload, type WebhookPayload } from '../api/webhookPayload';
import { verifySignature, type SignatureScheme } from '../api/webhookSignature';
import { answerAndClose, readLimitedBody } from './readBody';

/** What can change between requests without a restart. */
export interface RequestSettings {
  readonly maxBodyBytes: number;
  /** Lower-case header names. */
  readonly eventHeader: string;
  readonly deliveryHeader: string;
  readonly scheme: SignatureScheme;
}

export interface PortalRoute {
  /** The connection's Secret Key for webhooks; undefined: none set. */
  readonly secret: string | undefined;
  /**
   * Without a Secret Key: whether the user turned on unsigned deliveries for this portal (off by default:
   * any process on the machine could otherwise drive reads with the user's token).
   */
  readonly acceptUnsigned: boolean;
}

export interface ReceiverOptions {
  readonly host: string;
  /** 0: any free port. */
  readonly port: number;
  readonly settings: () => RequestSettings;
  /** The connection named by a path, or undefined when there is none by that id. */
  readonly route: (connectionId: string) => Promise<PortalRoute | undefined>;
  /** Called once per request after it was answered; must not throw (errors are swallowed). */
  readonly onDelivery: (delivery: Delivery) => void;
  /** How long an accepted delivery's id and body are remembered, so that a repeat is not acted on; default REPEAT_WINDOW_MS. */
  readonly repeatWindowMs?: number;
}

/**
 * A delivery accepted within this time before, by the same id or with the same bytes, is a repeat (a
 * retry, or a replay by someone who saw it): answered, shown, not acted on again.
 */
export const REPEAT_WINDOW_MS = 5 * 60 * 1000;
/** The most deliveries remembered for that: the oldest are forgotten first, so a flood cannot grow it. */
const REPEATS_KEPT = 10_000;

/** accepted: a payload this extension understood; ignored: JSON, but not about a record; refused: 4xx. */
export type Verdict = 'accepted' | 'ignored' | 'refused';

export interface Delivery {
  /** The connection of the path; undefined when the path names none. */
  readonly connectionId: string | undefined;
  readonly verdict: Verdict;
  readonly status: number;
  /** Why it was refused or ignored: a sentence that never repeats the body's values. */
  readonly reason?: string;
  /** Whether a Secret Key was set and the signature checked out. */
  readonly signed: boolean;
  /** Refused because it was unsigned, no Secret Key is set and the user did not turn unsigned deliveries on. */
  readonly unsignedRefused?: true;
  /** From the payload, else the event header. */
  readonly event: string | undefined;
  readonly deliveryId: string | undefined;
  /** Accepted deliveries only. */
  readonly payload?: WebhookPayload;
  /** The JSON object received (accepted and ignored deliveries; never a refused one). */
  readonly body?: Record<string, unknown>;
  readonly bytes: number;
  readonly receivedAt: Date;
}

const PATH = /^\/portal\/([^/]+)\/?$/;
/**
 * The content types a browser sends cross-origin without asking first (CORS-safelisted). The portal's
 * documentation does not name its content type, so other types (and none) are let through; a page's
 * request is also caught by its Origin header.
 */
const BROWSER_FORM_TYPES = /^\s*(text\/plain|application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;
/** The longest header value kept from a sender (event names, delivery ids). */
const HEADER_TEXT_LIMIT = 200;

function headerText(request: IncomingMessage, name: string): string | undefined {
  const raw = request.headers[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value) return undefined;
  const clean = value
    // eslint-disable-next-line no-control-regex -- control characters are what it removes
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, HEADER_TEXT_LIMIT);
  return clean || undefined;
}

function sendJson(response: ServerResponse, status: number, body?: Record<string, unknown>): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  if (body === undefined) {
    response.writeHead(status, { 'Cache-Control': 'no-store' }).end();
    return;
  }
  const text = JSON.stringify(body);
  response
    .writeHead(status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(text),
      'Cache-Control': 'no-store',
    })
    .end(text);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The deliveries accepted lately, by key, oldest first; each remembered for `windowMs`. */
class RecentDeliveries {
  private readonly seen = new Map<string, number>();

  constructor(private readonly windowMs: number) {}

  /** When any of `keys` was accepted within the window, that time and which key; else undefined. */
  find(keys: readonly string[], now: number): { at: number; key: string } | undefined {
    this.forgetOld(now);
    for (const key of keys) {
      const at = this.seen.get(key);
      if (at !== undefined) return { at, key };
    }
    return undefined;
  }

  remember(keys: readonly string[], now: number): void {
    for (const key of keys) {
      this.seen.delete(key);
      this.seen.set(key, now);
    }
    while (this.seen.size > REPEATS_KEPT) this.seen.delete(this.seen.keys().next().value as string);
  }

  private forgetOld(now: number): void {
    for (const [key, at] of this.seen) {
      if (now - at < this.windowMs) break;
      this.seen.delete(key);
    }
  }
}

export class WebhookReceiver {
  private readonly server: Server;
  private port = 0;
  private readonly recent: RecentDeliveries;

  private constructor(private readonly options: ReceiverOptions) {
    this.recent = new RecentDeliveries(options.repeatWindowMs ?? REPEAT_WINDOW_MS);
    this.server = createServer((request, response) => {
      this.handle(request, response).catch(() => {
        // A bug of ours must not leave the sender waiting, nor reach the extension host.
        try {
          answerAndClose(request, response, () => sendJson(response, 500, { error: 'The receiver failed on this delivery.' }));
        } catch {
          request.socket.destroy();
        }
      });
    });
    // A sender that stalls does not hold a connection for long.
    this.server.headersTimeout = 10_000;
    this.server.requestTimeout = 30_000;
    this.server.on('clientError', (_error, socket) => {
      if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      else socket.destroy();
    });
  }

  /** Listens; rejects with a sentence when the address cannot be used (port taken, address not here). */
  static async start(options: ReceiverOptions): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver(options);
    await new Promise<void>((resolve, reject) => {
      receiver.server.once('error', (error: NodeJS.ErrnoException) => reject(new Error(listenFailure(error, options))));
      receiver.server.listen(options.port, options.host, () => resolve());
    });
    receiver.port = (receiver.server.address() as AddressInfo).port;
    receiver.server.on('error', () => undefined);
    return receiver;
  }

  get host(): string {
    return this.options.host;
  }

  /** The port listened on (the one chosen when the setting is 0). */
  get listeningPort(): number {
    return this.port;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const receivedAt = new Date();
    const settings = this.options.settings();
    const event = headerText(request, settings.eventHeader);
    const deliveryId = headerText(request, settings.deliveryHeader);
    let connectionId: string | undefined;
    let bytes = 0;
    const report = (
      delivery: Omit<Delivery, 'connectionId' | 'receivedAt' | 'event' | 'deliveryId' | 'bytes'> &
        Partial<Pick<Delivery, 'event' | 'deliveryId'>>,
    ): void => {
      try {
        this.options.onDelivery({
          connectionId,
          receivedAt,
          bytes,
          ...delivery,
          event: delivery.event ?? event,
          deliveryId: delivery.deliveryId ?? deliveryId,
        });
      } catch {
        // The listener's problem, not the sender's.
      }
    };
    const refuse = (status: number, reason: string, early: boolean): void => {
      if (early) answerAndClose(request, response, () => sendJson(response, status, { error: reason }));
      else sendJson(response, status, { error: reason });
      report({ verdict: 'refused', status, reason, signed: false });
    };

    const path = PATH.exec(new URL(request.url ?? '/', 'http://receiver').pathname);
    if (!path) return refuse(404, 'Not a webhook address: deliveries go to /portal/<connection id>.', true);
    try {
      connectionId = decodeURIComponent(path[1]);
    } catch {
      return refuse(404, 'Not a webhook address: the connection id is not valid.', true);
    }
    if (request.method !== 'POST') {
      response.setHeader('Allow', 'POST');
      return refuse(405, `${request.method ?? 'This method'} is not accepted: webhooks are delivered with POST.`, true);
    }
    // A web page in the user's browser can POST here without a preflight (a CORS "simple" request: text/plain
    // or a form) and fake events on a receiver without a Secret Key. Browsers always send Origin with a
    // POST; a portal's server-to-server delivery does not, and sends JSON.
    if (request.headers.origin !== undefined)
      return refuse(403, "Requests from a web page are not accepted: deliveries come from the portal's server.", true);
    if (BROWSER_FORM_TYPES.test(request.headers['content-type'] ?? '')) {
      return refuse(415, `${request.headers['content-type']?.split(';')[0]} is not accepted: deliveries are JSON.`, true);
    }
    const route = await this.options.route(connectionId);
    if (!route) {
      const unknown = connectionId;
      connectionId = undefined;
      return refuse(404, `No portal is connected as "${unknown}".`, true);
    }

    const read = await readLimitedBody(request, settings.maxBodyBytes);
    if (!read.ok) {
      if (read.reason === 'aborted') {
        report({ verdict: 'refused', status: 0, reason: 'The sender broke off the delivery.', signed: false });
        return;
      }
      bytes = read.bytes;
      return refuse(413, `The body is larger than ${settings.maxBodyBytes} bytes (portal.webhooks.maxBodyBytes).`, true);
    }
    const raw = read.body;
    bytes = raw.length;

    let signed = false;
    if (route.secret !== undefined) {
      const verdict = verifySignature(route.secret, raw, request.headers[settings.scheme.header], settings.scheme);
      if (!verdict.valid) return refuse(401, verdict.message, false);
      signed = true;
    } else if (!route.acceptUnsigned) {
      const reason =
        'The delivery is not signed: no Secret Key is set for this portal, and unsigned deliveries are off. Set the Secret Key in VS Code (Portal: Set Webhook Secret Key…) and in the portal, or turn unsigned deliveries on for this portal.';
      sendJson(response, 401, { error: reason });
      report({ verdict: 'refused', status: 401, reason, signed: false, unsignedRefused: true });
      return;
    }

    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.toString('utf8'));
    } catch {
      return refuse(400, 'The body is not JSON.', false);
    }
    if (!isPlainObject(parsed)) return refuse(400, 'The body is not a JSON object.', false);

    let payload: WebhookPayload;
    try {
      payload = parseWebhookPayload(parsed, { event, deliveryId });
    } catch (error) {
      // JSON the portal sent but not about a record (a test "ping", say): taken, shown, not acted on.
      sendJson(response, 202);
      report({
        verdict: 'ignored',
        status: 202,
        reason: error instanceof Error ? error.message : 'Not a record event.',
        signed,
        body: parsed,
      });
      return;
    }
    // Keyed by connection: the same bytes to two portals are two deliveries.
    const keys = [`${connectionId}\u0000body\u0000${createHash('sha256').update(raw).digest('hex')}`];
    if (payload.delivery_id) keys.push(`${connectionId}\u0000id\u0000${payload.delivery_id}`);
    const now = Date.now();
    const repeat = this.recent.find(keys, now);
    if (repeat) {
      sendJson(response, 202);
      const same = repeat.key.includes('\u0000id\u0000') ? 'same delivery id' : 'same body';
      const reason = `A repeat of a delivery accepted ${Math.round((now - repeat.at) / 1000)} s ago (${same}): not acted on again.`;
      report({ verdict: 'ignored', status: 202, reason, signed, body: payload.raw, event: payload.event, deliveryId: payload.delivery_id });
      return;
    }
    this.recent.remember(keys, now);
    sendJson(response, 204);
    report({ verdict: 'accepted', status: 204, signed, payload, body: payload.raw, event: payload.event, deliveryId: payload.delivery_id });
  }
}

function listenFailure(error: NodeJS.ErrnoException, options: ReceiverOptions): string {
  const where = `${options.host}:${options.port}`;
  if (error.code === 'EADDRINUSE') {
    return `The webhook receiver cannot listen on ${where}: the port is in use (another VS Code window may be receiving webhooks already). Set portal.webhooks.port to another port, or 0 for any free port.`;
  }
  if (error.code === 'EADDRNOTAVAIL')
    return `The webhook receiver cannot listen on ${where}: this machine has no such address (portal.webhooks.bindAddress).`;
  if (error.code === 'EACCES') return `The webhook receiver may not listen on ${where}: choose a port above 1023 (portal.webhooks.port).`;
  return `The webhook receiver cannot listen on ${where}: ${error.message}`;
}
