// The portal client's transport: fetch's shape (FetchLike) over Node's own http and https modules.
// Why not node-fetch, which the client used before: node-fetch 3 turns every body, even a short string,
// into a stream and runs two stream pipelines per request (request body, response body), each ending with
// an AbortController and a DOMException. Measured on a bulk import (test/bench/import.bench.ts), that cost
// 3–3.5 × the CPU of node:http per request, and made the import and the grid's save CPU-bound in the
// extension host.
//
// Why not undici, Node's own HTTP client (issue 31, decided by test/bench/transport.bench.ts: each plugged
// into the same PortalClient, 50 ms away, up to 32 requests in flight, on the import and a grid save that
// checks each row with a GET before its PUT; 2 December 2026, a shared 2-core machine):
// - undici's request over an Agent (the npm package, which the extension does not ship) did 0.76 × this
//   transport's import rate and 0.74 × its save rate, at 421 and 337 µs of CPU a request against 348 and
//   296; Node's built-in fetch (undici inside Node) 0.29 × and 0.27 ×, at 1,414 and 984 µs. Far away the
//   rate follows the requests in flight, and a client's CPU a request then decides how many it can keep there.
// - VS Code's proxy support (http.proxy, http.proxySupport, proxy sign-in) patches the http and https
//   modules this file goes through; a bundled undici opens its own sockets and is never patched, and Node's
//   fetch only when http.fetchAdditionalSupport is on. Portals behind a company proxy would stop working.
// - The redirect rules (issue 30) would still be ours: undici follows no redirect unless told, and its
//   redirect interceptor would follow a write to another origin and a downgrade to http:, which we refuse.
//   What we keep here is the ~400 lines of this file, tested by test/unit/api (redirects, credentials
//   dropped, decompression, abort, oversize answers); a Node release that changes node:http shows there.
// What node-fetch did for us is kept: redirects (to another origin only a read follows, without the
// Authorization header), gzip/deflate/br answers, streamed uploads, abort by signal, and the system error codes.
// The modules themselves, their `request` looked up at each call: VS Code's proxy support replaces it on the
// module object after load, which a named import's binding would not see.
import http, { type ClientRequest, type IncomingMessage, type OutgoingHttpHeaders, type RequestOptions } from 'node:http';
import https from 'node:https';
import { PassThrough, pipeline, type Readable } from 'node:stream';
import { urlToHttpOptions } from 'node:url';
import zlib from 'node:zlib';
import {
  answerTooLarge,
  type FetchInitLike,
  type FetchLike,
  type FetchResponseLike,
  type RequestBody,
  type StopSwitch,
  type TransportInit,
} from './http';

const MAX_REDIRECTS = 20;
/** Some firewalls (web application firewalls' common rules) refuse a request that names no client. */
const USER_AGENT = 'Portal-Explorer (VS Code extension)';
/** Headers that carry credentials: dropped when a redirect leads to another origin. */
const CREDENTIALS = ['authorization', 'cookie', 'proxy-authorization', 'www-authenticate'];

class TransportResponse implements FetchResponseLike {
  readonly headers: { get(name: string): string | null };
  constructor(
    readonly status: number,
    readonly statusText: string,
    rawHeaders: IncomingMessage['headers'],
    readonly body: Readable,
  ) {
    this.headers = {
      get: (name) => {
        const value = rawHeaders[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    };
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.bytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  /**
   * The whole body, without the copy arrayBuffer() makes. Read by its events, not an async iterator:
   * the iterator's promise per chunk and end-of-stream watch cost more than a short answer (the import
   * bench). A body that closes before its end (the connection cut, the request aborted) rejects. Beyond
   * `maxBytes`, decoded (a small gzip body may inflate to gigabytes), the connection is closed and it
   * rejects: a declared length says so before anything is read.
   */
  bytes(maxBytes = Number.POSITIVE_INFINITY): Promise<Buffer> {
    const declared = this.headers.get('content-encoding') ? null : this.headers.get('content-length');
    if (declared !== null && Number(declared) > maxBytes) {
      this.body.destroy();
      return Promise.reject(answerTooLarge(maxBytes));
    }
    return new Promise((resolve, reject) => void new BodyRead(this.body, maxBytes, resolve, reject));
  }
}

/**
 * What the listeners of one request hold, let go of once it is settled. Node keeps listeners in arrays and
 * objects that V8 may allocate straight in the old generation (pretenuring, see exchange.ts); dead there,
 * they keep what a listener holds alive through young collections until a full one. A closure over the
 * request's scope would hold the whole request (its answer, the caller's frames awaiting it); these hold
 * nothing once it is over.
 */
class BodyRead {
  private chunks: Buffer[] | undefined = [];
  private size = 0;
  private body: Readable | undefined;

  constructor(
    body: Readable,
    private readonly maxBytes: number,
    private resolve: ((bytes: Buffer) => void) | undefined,
    private reject: ((error: unknown) => void) | undefined,
  ) {
    this.body = body;
    // on, not once: each comes once anyway, and once's wrapper per listener is garbage per request.
    body.on('data', this.data);
    body.on('end', this.end);
    body.on('error', this.failed);
    body.on('close', this.closed);
  }

  private readonly data = (chunk: Buffer | string): void => {
    const piece = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.size += piece.length;
    if (this.size <= this.maxBytes) {
      this.chunks?.push(piece);
      return;
    }
    const { body } = this;
    this.failed(answerTooLarge(this.maxBytes));
    // Closes the connection too: the decoder's pipeline takes the socket down with it.
    body?.destroy();
  };

  private readonly end = (): void => {
    const { chunks, resolve } = this;
    this.release();
    if (chunks && resolve) resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
  };

  private readonly failed = (error: unknown): void => {
    const { reject } = this;
    this.release();
    reject?.(error);
  };

  /** After the end it is over already; before it, the body was cut short. */
  private readonly closed = (): void => {
    if (this.reject)
      this.failed(Object.assign(new Error('The answer ended before it was complete.'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
  };

  private release(): void {
    this.chunks = undefined;
    this.body = undefined;
    this.resolve = undefined;
    this.reject = undefined;
  }
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  const error = new Error('The request was aborted.');
  error.name = 'AbortError';
  return error;
}

// Lenient as browsers and node-fetch are: a body that ends early or is empty still yields what came.
const LENIENT = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };

/** A decoder for "deflate": zlib-wrapped as the standard says, or raw as some servers send it (first byte tells). */
function deflateDecoder(response: IncomingMessage): Readable {
  const decoded = new PassThrough();
  let started = false;
  response.once('data', (first: Buffer) => {
    started = true;
    const decoder = (first[0] & 0x0f) === 0x08 ? zlib.createInflate(LENIENT) : zlib.createInflateRaw(LENIENT);
    decoder.write(first);
    pipeline(response, decoder, decoded, () => undefined);
  });
  response.once('end', () => {
    if (!started) decoded.end(); // an empty body
  });
  response.once('error', (error) => decoded.destroy(error));
  return decoded;
}

/** The answer's body, decoded when the portal compressed it. */
function decoded(response: IncomingMessage, method: string): Readable {
  const encoding = (response.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (method === 'HEAD' || response.statusCode === 204 || response.statusCode === 304) return response;
  if (encoding === 'deflate') return deflateDecoder(response);
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip(LENIENT)
      : encoding === 'br'
        ? zlib.createBrotliDecompress()
        : undefined;
  if (!decoder) return response;
  // A truncated compressed body would otherwise end quietly: pipeline passes the socket's error on.
  return pipeline(response, decoder, () => undefined);
}

interface Attempt {
  address: Address;
  method: string;
  headers: Record<string, string>;
  body?: RequestBody;
}

/** An address parsed, and what http.request makes of it (urlToHttpOptions), both read-only. */
interface Address {
  readonly url: URL;
  readonly options: Readonly<RequestOptions>;
}

/**
 * Addresses parsed, by text: an import sends every create to one address, and parsing it again for each
 * (the URL, then http.request's own conversion of it) cost about 1.5 us per request of the 65 an import
 * spends (test/bench/import.profile.ts). Bounded: the addresses of updates name each record.
 */
const addresses = new Map<string, Address>();
const KEPT_ADDRESSES = 64;

function addressOf(url: URL): Address {
  return { url, options: urlToHttpOptions(url) };
}

function parsedAddress(text: string): Address {
  let address = addresses.get(text);
  if (!address) {
    address = addressOf(new URL(text));
    if (addresses.size >= KEPT_ADDRESSES) addresses.clear();
    addresses.set(text, address);
  }
  return address;
}

/** How a stop ends the exchange: the request before its answer came, the answer (its body still coming) after. */
class Halt {
  answer: IncomingMessage | undefined = undefined;
  constructor(private readonly request: ClientRequest) {}
  readonly stop = (reason: Error): void => {
    if (this.answer) this.answer.destroy(reason);
    else this.request.destroy(reason);
  };
}

/** What the request's listeners hold until its answer (or failure) came, and nothing after (see BodyRead). */
class Answering {
  constructor(
    private resolve: ((response: IncomingMessage) => void) | undefined,
    private reject: ((error: unknown) => void) | undefined,
    private stop: StopSwitch | undefined,
    private halt: Halt | undefined,
  ) {}

  readonly failed = (error: unknown): void => {
    const { reject } = this;
    this.release();
    reject?.(error);
  };

  readonly answered = (response: IncomingMessage): void => {
    const { resolve, stop, halt } = this;
    this.release();
    if (halt) halt.answer = response;
    if (stop?.reason) response.destroy(stop.reason);
    resolve?.(response);
  };

  private release(): void {
    this.resolve = undefined;
    this.reject = undefined;
    this.stop = undefined;
    this.halt = undefined;
  }
}

/** Sends one request and resolves with its response head; the body is left to the caller. */
function sendOnce(attempt: Attempt, stop: StopSwitch): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    if (stop.reason) {
      reject(stop.reason);
      return;
    }
    const headers: OutgoingHttpHeaders = { 'User-Agent': USER_AGENT, 'Accept-Encoding': 'gzip, deflate, br', ...attempt.headers };
    const { body } = attempt;
    const sized = typeof body === 'string' || Buffer.isBuffer(body);
    if (sized) headers['Content-Length'] = Buffer.byteLength(body);
    else if (body === undefined && (attempt.method === 'POST' || attempt.method === 'PUT')) headers['Content-Length'] = 0;
    let request: ClientRequest;
    try {
      const options: RequestOptions = { ...attempt.address.options, method: attempt.method, headers };
      request = attempt.address.url.protocol === 'https:' ? https.request(options) : http.request(options);
    } catch (error) {
      reject(error);
      return;
    }
    // One switch for the whole exchange: before the answer a stop ends the request; once it came, the body
    // still coming (read by the caller), with the stop's error. Once the exchange is over, destroying what
    // is already closed does nothing; send() (http.ts) drops the switch then.
    const halt = new Halt(request);
    stop.onStop = halt.stop;
    const answering = new Answering(resolve, reject, stop, halt);
    request.on('error', answering.failed);
    request.on('response', answering.answered);
    if (sized || body === undefined) request.end(body);
    else streamBody(body, request);
  });
}

/** Resolves when the request takes more, or is gone; either way neither listener stays behind. */
function drained(request: ClientRequest): Promise<void> {
  return new Promise((resume) => {
    const done = (): void => {
      request.off('drain', done).off('close', done);
      resume();
    };
    request.on('drain', done).on('close', done);
  });
}

/** Writes a streamed body (an upload reporting its progress as it is read), minding back-pressure. */
function streamBody(body: AsyncIterable<Uint8Array>, request: ClientRequest): void {
  // Runs on its own: every failure ends in request.destroy, which the request's 'error' listener reports.
  void (async () => {
    try {
      for await (const chunk of body) {
        if (request.destroyed) return;
        if (!request.write(chunk)) await drained(request);
      }
      request.end();
    } catch (error) {
      request.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  })();
}

/** Where a redirect leads, and what is sent there (fetch's rules: 303, and 301/302 after a POST, become a GET). */
function redirected(attempt: Attempt, status: number, url: URL): Attempt {
  const elsewhere = url.origin !== attempt.address.url.origin;
  const becomesGet = status === 303 ? attempt.method !== 'HEAD' : (status === 301 || status === 302) && attempt.method === 'POST';
  const kept = (name: string): boolean =>
    !(elsewhere && CREDENTIALS.includes(name.toLowerCase())) && !(becomesGet && name.toLowerCase().startsWith('content-'));
  const headers = Object.fromEntries(Object.entries(attempt.headers).filter(([name]) => kept(name)));
  if (!becomesGet) return { address: addressOf(url), method: attempt.method, headers, body: attempt.body };
  return { address: addressOf(url), method: attempt.method === 'HEAD' ? 'HEAD' : 'GET', headers };
}

function isRedirect(status: number | undefined): status is 301 | 302 | 303 | 307 | 308 {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/** Reads and GETs may follow to another origin (the credentials stay behind); nothing else may. */
const FOLLOWS_ELSEWHERE = new Set(['GET', 'HEAD']);

/**
 * A redirect not followed, as http.ts reports it (PortalError code `redirect_refused`, or
 * `cross_origin_redirect` for ERR_CROSS_ORIGIN_REDIRECT). The message is the reason, to follow "… failed: ".
 */
function refusedRedirect(
  status: number,
  reason: string,
  code: 'ERR_REDIRECT_REFUSED' | 'ERR_CROSS_ORIGIN_REDIRECT' = 'ERR_REDIRECT_REFUSED',
): Error {
  return Object.assign(new Error(reason), { code, status });
}

/**
 * One request over node:http or node:https, following redirects, stopped through `stop` (http.ts sets
 * it from its time limit and the caller's signal). The answer's body is left to the caller.
 */
export async function nodeRequest(url: string, init: TransportInit, stop: StopSwitch): Promise<FetchResponseLike & { body: Readable }> {
  let attempt: Attempt = { address: parsedAddress(url), method: init.method, headers: init.headers, body: init.body };
  for (let hops = 0; ; hops += 1) {
    const response = await sendOnce(attempt, stop);
    const location = response.headers.location;
    const status = response.statusCode;
    if (!isRedirect(status) || location === undefined || init.redirect === 'manual') {
      return new TransportResponse(status ?? 0, response.statusMessage ?? '', response.headers, decoded(response, attempt.method));
    }
    response.resume(); // the redirect's own body is not wanted; reading it frees the connection
    const from = attempt.address.url.origin;
    if (init.redirect === 'error')
      throw refusedRedirect(status, `the portal at ${from} redirected the request (HTTP ${status}), and redirects are refused here.`);
    if (hops >= MAX_REDIRECTS)
      throw refusedRedirect(status, `the portal at ${from} redirected the request more than ${MAX_REDIRECTS} times.`);
    let next: URL;
    try {
      next = new URL(location, attempt.address.url);
    } catch {
      throw refusedRedirect(status, `the portal at ${from} redirected the request (HTTP ${status}) to an address that is not a URL.`);
    }
    if (next.protocol !== 'http:' && next.protocol !== 'https:')
      throw refusedRedirect(status, `the portal at ${from} redirected the request to a ${next.protocol} address, which is not followed.`);
    const followed = redirected(attempt, status, next);
    // A sign-in's form (the client secret, a refresh token or a code) or a record's change is meant for this
    // portal alone: following it elsewhere would hand it to whoever answers there, whatever the status
    // says. The original method decides, not the redirected one: a POST turned into a GET by 303 would
    // still land the other server's answer (a token, say) in the caller's hands as if the portal sent it.
    if (next.origin !== from && (!FOLLOWS_ELSEWHERE.has(init.method) || followed.body !== undefined)) {
      throw refusedRedirect(
        status,
        `the portal at ${from} redirected the request (HTTP ${status}) to ${next.origin}, another server. A sign-in or a change is never sent on to another server, so nothing was sent there; check the portal's address.`,
        'ERR_CROSS_ORIGIN_REDIRECT',
      );
    }
    if (followed.body !== undefined && typeof followed.body !== 'string' && !Buffer.isBuffer(followed.body)) {
      throw refusedRedirect(
        status,
        `the portal at ${from} redirected the request (HTTP ${status}), and a streamed upload cannot be sent twice.`,
      );
    }
    attempt = followed;
  }
}

/** fetch's shape over node:http and node:https (nodeRequest stopped by an AbortSignal). */
export const nodeTransport: FetchLike = async (url: string, init: FetchInitLike) => {
  const { signal } = init;
  signal.throwIfAborted();
  const stop: StopSwitch = { reason: undefined, onStop: undefined };
  const onAbort = (): void => {
    stop.reason = abortError(signal);
    stop.onStop?.(stop.reason);
  };
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const response = await nodeRequest(url, init, stop);
    response.body.once('close', () => signal.removeEventListener('abort', onAbort));
    return response;
  } catch (error) {
    signal.removeEventListener('abort', onAbort);
    throw error;
  }
};
