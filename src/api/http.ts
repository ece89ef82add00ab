// The one request core of the portal client and the OAuth calls: a time limit combined with the caller's
// AbortSignal, and every failure turned into a PortalError (network, timeout, cancelled, http). The body is
// read whole, inside the same time limit, so a connection that drops mid-body is a network error too.
// Requests go through nodeTransport (node:http and node:https in fetch's shape; why not node-fetch is
// said there), or a FetchLike the caller brings. The transport is loaded on the first request, so that
// activation never loads https and zlib for it; the bundle keeps it in a chunk of its own.
import { PortalError } from './errors';
import { portalMessageOf, redactSecrets } from './errorBody';
import { Exchange } from './exchange';
import type * as NodeTransportModule from './nodeTransport';
import { DEFAULT_MAX_ANSWER_BYTES } from './limits';

/** The response as the client uses it; fetch's Response fits. */
export interface FetchResponseLike {
  readonly status: number;
  readonly statusText: string;
  readonly headers: { get(name: string): string | null };
  arrayBuffer(): Promise<ArrayBuffer>;
  /**
   * The whole body as a Buffer, where the transport has it without a copy. Beyond `maxBytes` (counted
   * after decompression) it stops reading and rejects with an error of code ERR_ANSWER_TOO_LARGE.
   */
  bytes?(maxBytes?: number): Promise<Buffer>;
  /** The body as it arrives (a Node stream); used when the caller reads it as a stream. */
  readonly body?: AsyncIterable<Uint8Array | string> | null;
}

/** A body: text, bytes, or a stream of bytes (an upload that reports its progress as it is read). */
export type RequestBody = string | Buffer | AsyncIterable<Uint8Array>;

/** A request as the default transport takes it: fetch's init without the signal. */
export interface TransportInit {
  method: string;
  headers: Record<string, string>;
  body?: RequestBody;
  redirect?: 'follow' | 'manual' | 'error';
}

export interface FetchInitLike extends TransportInit {
  signal: AbortSignal;
}

/**
 * How send() stops a request of the default transport: a plain slot instead of an AbortController per
 * request, whose signal and listener measured 2–4 µs of a short request's CPU (the grid's save, the import).
 */
export interface StopSwitch {
  /** Set once the request is stopped: what the transport fails with. */
  reason: Error | undefined;
  /** Set by the transport while a request of it is under way. */
  onStop: ((reason: Error) => void) | undefined;
}

/** fetch, or anything with its shape (e.g. a wrapper that records calls). */
export type FetchLike = (url: string, init: FetchInitLike) => Promise<FetchResponseLike>;

type NodeTransport = typeof NodeTransportModule;

/** The transport every request goes through unless the caller brings its own (tests record calls so). */
let loading: Promise<NodeTransport> | undefined;
/** Once loaded, used without an await per request. */
let loaded: NodeTransport | undefined;

function loadTransport(): Promise<NodeTransport> {
  loading ??= import('./nodeTransport').then((module) => (loaded = module));
  return loading;
}

/** The default transport in fetch's shape, for callers that wrap it (tests that record calls). */
export const defaultFetch: FetchLike = async (url, init) => (loaded ?? (await loadTransport())).nodeTransport(url, init);

export const DEFAULT_TIMEOUT_MS = 30_000;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RequestLogEntry {
  method: string;
  /** The URL's path, without query string: never a token. */
  path: string;
  status: number | 'error';
  durationMs: number;
}

export interface HttpRequest {
  method: HttpMethod;
  /** Text is taken as it is (the client builds it from a checked base); only its origin and path are read. */
  url: URL | string;
  headers?: Record<string, string>;
  body?: RequestBody;
  signal?: AbortSignal;
  timeoutMs?: number;
  fetch?: FetchLike;
  redirect?: 'follow' | 'manual';
  /** What the call does, as the start of a sentence: "Reading record 7 of app 3". */
  action: string;
  onRequest?: (entry: RequestLogEntry) => void;
  /**
   * Reads a 2xx body as it arrives instead of whole (the answer's `body` is then empty). The time limit
   * then runs until the headers and again between two pieces of the body, not over the whole body: a
   * million-row view may take longer than any fixed limit while it keeps arriving.
   */
  readBody?: (body: AsyncIterable<Uint8Array | string>) => Promise<void>;
  /** The most of an answer read whole, after decompression; DEFAULT_MAX_ANSWER_BYTES unless given. */
  maxAnswerBytes?: number;
}

export interface HttpResponse {
  status: number;
  headers: { get(name: string): string | null };
  body: Buffer;
}

function origin(url: URL | string): string {
  const { protocol, host } = typeof url === 'string' ? new URL(url) : url;
  return `${protocol}//${host}`;
}

/** The path of an absolute http(s) URL, without its query. */
function pathOf(url: URL | string): string {
  if (typeof url !== 'string') return url.pathname;
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start < 0) return '/';
  const query = url.indexOf('?', start);
  return url.slice(start, query < 0 ? undefined : query);
}

/** The system or undici code of a failure; fetch hides it in `cause` ("fetch failed", "terminated"). */
function errorCode(error: unknown, depth = 0): string | undefined {
  if (typeof error !== 'object' || error === null || depth > 3) return undefined;
  const code = (error as { code?: unknown; errno?: unknown }).code ?? (error as { errno?: unknown }).errno;
  if (typeof code === 'string') return code;
  return errorCode((error as { cause?: unknown }).cause, depth + 1);
}

const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was dropped',
  ERR_STREAM_PREMATURE_CLOSE: 'the connection closed before the answer was complete',
  EPIPE: 'the connection was dropped',
  ENOTFOUND: 'the host name is unknown',
  EAI_AGAIN: 'the host name could not be resolved',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  UND_ERR_SOCKET: 'the connection was dropped',
  UND_ERR_CLOSED: 'the connection was dropped',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  UND_ERR_HEADERS_TIMEOUT: 'the portal sent no answer in time',
  UND_ERR_BODY_TIMEOUT: 'the answer stopped arriving',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'the connection closed before the answer was complete',
};

/** The transport's codes for a redirect it did not follow (nodeTransport.ts), and the PortalError's code. */
const REFUSED_REDIRECTS: Record<string, string> = {
  ERR_CROSS_ORIGIN_REDIRECT: 'cross_origin_redirect',
  ERR_REDIRECT_REFUSED: 'redirect_refused',
};

const MB = 1024 * 1024;

function sizeText(bytes: number): string {
  if (bytes >= MB) return `${Math.round((bytes / MB) * 10) / 10} MB`;
  return `${Math.round((bytes / 1024) * 10) / 10} KB`;
}

/** What a transport's bytes() and send() fail with when an answer is beyond its bound. */
export function answerTooLarge(maxBytes: number): Error {
  return Object.assign(new Error(`The answer is larger than ${maxBytes} bytes.`), { code: 'ERR_ANSWER_TOO_LARGE', maxBytes });
}

/** Turns what fetch or the body read threw into a PortalError. */
function failure(
  error: unknown,
  request: HttpRequest,
  signals: { readonly caller?: AbortSignal; readonly timedOut: boolean },
  timeoutMs: number,
): PortalError {
  if (error instanceof PortalError) return error;
  if (signals.caller?.aborted) {
    return new PortalError({ kind: 'cancelled', message: `${request.action} was cancelled.`, cause: error });
  }
  if (signals.timedOut) {
    return new PortalError({
      kind: 'timeout',
      message: `${request.action} failed: the portal at ${origin(request.url)} did not answer within ${Math.round(timeoutMs / 100) / 10} s.`,
      cause: error,
    });
  }
  const code = errorCode(error);
  if (code === 'ERR_ANSWER_TOO_LARGE') {
    const maxBytes = (error as { maxBytes?: unknown }).maxBytes;
    return new PortalError({
      kind: 'invalid-response',
      code: 'answer_too_large',
      message: `${request.action} failed: the portal's answer is larger than ${typeof maxBytes === 'number' ? sizeText(maxBytes) : 'the limit'}, the most the extension reads at once (setting portal.http.maxAnswerBytes). Nothing of it was kept.`,
      cause: error,
    });
  }
  const refused = code === undefined ? undefined : REFUSED_REDIRECTS[code];
  if (refused && error instanceof Error) {
    const status = (error as { status?: unknown }).status;
    return new PortalError({
      kind: 'http',
      status: typeof status === 'number' ? status : undefined,
      code: refused,
      message: `${request.action} failed: ${error.message}`,
      cause: error,
    });
  }
  const reason = (code && NETWORK_REASONS[code]) ?? (code ? `network error ${code}` : 'the connection failed');
  return new PortalError({
    kind: 'network',
    message: `${request.action} failed: could not reach the portal at ${origin(request.url)} (${reason}).`,
    code,
    cause: error,
  });
}

/** A caller's FetchLike takes an AbortSignal: the switch drives one. */
function viaFetch(fetch: FetchLike, url: string, init: TransportInit, stop: StopSwitch): Promise<FetchResponseLike> {
  const controller = new AbortController();
  stop.onStop = (reason) => controller.abort(reason);
  return fetch(url, { ...init, signal: controller.signal });
}

const ACCEPT = 'application/json, text/plain;q=0.9, */*;q=0.8';

/**
 * Sends one request and reads its whole body. Resolves for every HTTP status (callers decide what a status
 * means); rejects with PortalError of kind cancelled, timeout or network.
 */
export async function send(request: HttpRequest): Promise<HttpResponse> {
  const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const caller = request.signal;
  // Stopped by the time limit or by the caller through one switch. Not AbortSignal.any(): that costs
  // twice as much per request and keeps a reference in the caller's signal until a collection, and an
  // import sends thousands of requests under one signal.
  const exchange = new Exchange(caller, timeoutMs);
  if (exchange.callerAborted) {
    exchange.end();
    throw failure(caller?.reason, request, { caller, timedOut: false }, timeoutMs);
  }
  const started = Date.now();
  let status: number | 'error' = 'error';
  try {
    const url = typeof request.url === 'string' ? request.url : request.url.href;
    const init: TransportInit = {
      method: request.method,
      headers: { Accept: ACCEPT, ...request.headers },
      body: request.body,
      redirect: request.redirect ?? 'follow',
    };
    const response = request.fetch
      ? await viaFetch(request.fetch, url, init, exchange)
      : await (loaded ?? (await loadTransport())).nodeRequest(url, init, exchange);
    status = response.status;
    if (request.readBody && isSuccess(response.status) && response.body) {
      await request.readBody(rearming(response.body, exchange));
      return { status: response.status, headers: response.headers, body: Buffer.alloc(0) };
    }
    const maxBytes = request.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
    // A caller's own fetch has no bound of its own: checked once the body is in, at least.
    const body = response.bytes ? await response.bytes(maxBytes) : Buffer.from(await response.arrayBuffer());
    if (body.length > maxBytes) throw answerTooLarge(maxBytes);
    return { status: response.status, headers: response.headers, body };
  } catch (error) {
    status = 'error';
    throw failure(error, request, exchange, timeoutMs);
  } finally {
    exchange.end();
    if (request.onRequest) {
      try {
        request.onRequest({ method: request.method, path: pathOf(request.url), status, durationMs: Date.now() - started });
      } catch {
        // A failing log line must not turn a good answer into an error.
      }
    }
  }
}

/** The body's pieces, restarting the time limit at each one. */
async function* rearming(body: AsyncIterable<Uint8Array | string>, exchange: Exchange): AsyncGenerator<Uint8Array | string> {
  for await (const piece of body) {
    exchange.rearm();
    yield piece;
  }
}

const STATUS_REASONS: Record<number, string> = {
  400: 'the portal refused the request',
  401: 'the portal did not accept the sign-in',
  403: 'the portal does not allow this',
  404: 'the portal does not know it',
  405: 'the portal does not offer this',
  409: 'the portal reports a conflict',
  413: 'too large for the portal',
  429: 'the portal is limiting requests; try again later',
};

function statusReason(status: number): string {
  if (STATUS_REASONS[status]) return STATUS_REASONS[status];
  if (status >= 500) return 'the portal had a problem on its side; try again later';
  if (status >= 300 && status < 400) return 'the portal redirected the request elsewhere';
  return 'the portal answered with an error';
}

/** Error codes used when the portal's body does not carry one. */
const DEFAULT_CODES: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  413: 'too_large',
  429: 'rate_limited',
};

export interface HttpErrorOptions {
  action: string;
  /** Strings that must never appear in the error: the token, the secret, the code. */
  secrets?: readonly (string | undefined)[];
  /** Code to use when the body has none, by status (overrides the generic defaults). */
  defaultCodes?: Partial<Record<number, string>>;
  /** Replaces the code whatever the body says (e.g. every final 401 is 'unauthorized'). */
  code?: string;
}

/** Retry-After (RFC 9110 §10.2.3): delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  const text = header?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) || !/[a-z]/i.test(text) ? undefined : Math.max(0, at - now);
}

/** The PortalError for a non-2xx response: status, the portal's code, message and field, and its Retry-After. */
export function httpError(response: HttpResponse, options: HttpErrorOptions): PortalError {
  const found = portalMessageOf(response.body, response.headers.get('content-type'));
  const secrets = options.secrets ?? [];
  const portalMessage = found.message === undefined ? undefined : redactSecrets(found.message, secrets);
  const code =
    options.code ??
    found.code ??
    options.defaultCodes?.[response.status] ??
    DEFAULT_CODES[response.status] ??
    (response.status >= 500 ? 'server_error' : undefined);
  const detail = portalMessage ? `: ${portalMessage}` : '.';
  return new PortalError({
    kind: 'http',
    status: response.status,
    message: `${options.action} failed: ${statusReason(response.status)} (HTTP ${response.status})${detail}`,
    portalMessage,
    code,
    field: found.field,
    // Kept whatever the status: whether and when to send again is the classification's and the retry
    // policy's (src/records/failures.ts, retry.ts), not this file's.
    retryAfterMs: retryAfterMs(response.headers.get('retry-after')),
  });
}

export function invalidResponse(action: string, detail: string): PortalError {
  return new PortalError({ kind: 'invalid-response', message: `${action} failed: the portal's answer is not usable: ${detail}` });
}

/** The body parsed as JSON, or a PortalError of kind invalid-response. */
export function parseJsonBody(response: HttpResponse, action: string): unknown {
  if (response.body.length === 0) throw invalidResponse(action, 'it is empty.');
  try {
    const text = response.body.toString('utf8');
    // A byte order mark, which RFC 8259 lets a parser ignore (the streamed view read does too).
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    const type = response.headers.get('content-type');
    throw invalidResponse(action, `it is not JSON${type ? ` (content type ${type.split(';')[0]})` : ''}.`);
  }
}

export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}
