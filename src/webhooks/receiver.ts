// The local webhook receiver: an HTTP server (loopback unless the user binds it elsewhere) that takes a
// portal's deliveries at /portal/<connectionId>. The path names the connection, because a payload names an
// app and a record but not the portal; it also selects that connection's Secret Key.
//
// Per request, in this order: the path and method; the connection; the body's size (413 past the limit,
// without keeping it); the signature over the RAW bytes when a Secret Key is set (401); JSON (400); the
// payload. The answer goes out before anyone hears of the delivery, and nothing a sender does can throw out
// of the handler. No `vscode` import: unit-tested in plain node.
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
  /** The connection's Secret Key for webhooks; undefined: unsigned deliveries are accepted. */
  readonly secret: string | undefined;
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
}

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
  // eslint-disable-next-line no-control-regex
  const clean = value.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, HEADER_TEXT_LIMIT);
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
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-store' }).end(text);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export class WebhookReceiver {
  private readonly server: Server;
  private port = 0;

  private constructor(private readonly options: ReceiverOptions) {
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
    const report = (delivery: Omit<Delivery, 'connectionId' | 'receivedAt' | 'event' | 'deliveryId' | 'bytes'> & Partial<Pick<Delivery, 'event' | 'deliveryId'>>): void => {
      try {
        this.options.onDelivery({ connectionId, receivedAt, bytes, ...delivery, event: delivery.event ?? event, deliveryId: delivery.deliveryId ?? deliveryId });
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
    if (request.headers.origin !== undefined) return refuse(403, 'Requests from a web page are not accepted: deliveries come from the portal\'s server.', true);
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
      report({ verdict: 'ignored', status: 202, reason: error instanceof Error ? error.message : 'Not a record event.', signed, body: parsed });
      return;
    }
    sendJson(response, 204);
    report({ verdict: 'accepted', status: 204, signed, payload, body: payload.raw, event: payload.event, deliveryId: payload.delivery_id });
  }
}

function listenFailure(error: NodeJS.ErrnoException, options: ReceiverOptions): string {
  const where = `${options.host}:${options.port}`;
  if (error.code === 'EADDRINUSE') {
    return `The webhook receiver cannot listen on ${where}: the port is in use (another VS Code window may be receiving webhooks already). Set portal.webhooks.port to another port, or 0 for any free port.`;
  }
  if (error.code === 'EADDRNOTAVAIL') return `The webhook receiver cannot listen on ${where}: this machine has no such address (portal.webhooks.bindAddress).`;
  if (error.code === 'EACCES') return `The webhook receiver may not listen on ${where}: choose a port above 1023 (portal.webhooks.port).`;
  return `The webhook receiver cannot listen on ${where}: ${error.message}`;
}
