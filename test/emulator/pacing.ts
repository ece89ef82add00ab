// How a response body leaves the emulator when a knob asks for it: at most `bytesPerSecond` (a portal
// behind a slow link), and/or cut off after `dropAfterBytes` (a connection dropped midway). The body
// becomes a stream of bytes in small pieces, so a client sees it arrive the way it would from afar.
import { Readable } from 'node:stream';

export interface Pacing {
  /** 0 or undefined: as fast as the socket takes it. */
  bytesPerSecond?: number;
  /** Destroy the connection once this many bytes have gone. */
  dropAfterBytes?: number;
  /** Called when the body is cut off (fastify logs no response for a destroyed connection). */
  onDrop?: () => void;
}

/** Pieces of about 50 ms each at the paced rate, so the rate holds at every scale. */
const PIECES_PER_SECOND = 20;
const MIN_PIECE = 1024;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms).unref());

async function* bytesOf(payload: unknown): AsyncGenerator<Buffer> {
  if (payload === null || payload === undefined) return;
  if (typeof payload === 'string') yield Buffer.from(payload, 'utf8');
  else if (Buffer.isBuffer(payload)) yield payload;
  else if (payload instanceof Uint8Array) yield Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
  else if (typeof payload === 'object' && Symbol.asyncIterator in payload) {
    for await (const chunk of payload as AsyncIterable<unknown>) yield* bytesOf(chunk);
  } else yield Buffer.from(String(payload), 'utf8');
}

async function* paced(payload: unknown, pacing: Pacing): AsyncGenerator<Buffer> {
  const rate = pacing.bytesPerSecond ?? 0;
  const piece = rate > 0 ? Math.max(MIN_PIECE, Math.floor(rate / PIECES_PER_SECOND)) : Number.POSITIVE_INFINITY;
  const started = Date.now();
  let sent = 0;
  for await (const chunk of bytesOf(payload)) {
    for (let at = 0; at < chunk.length; at += piece) {
      let part = chunk.subarray(at, Math.min(chunk.length, at + piece));
      const cut = pacing.dropAfterBytes !== undefined && sent + part.length >= pacing.dropAfterBytes;
      if (cut) part = part.subarray(0, (pacing.dropAfterBytes ?? 0) - sent);
      if (part.length > 0) yield part;
      sent += part.length;
      if (cut) {
        // Let what was written reach the socket before it goes, so the client really holds the first bytes.
        await sleep(20);
        pacing.onDrop?.();
        throw new Error(`Connection dropped after ${sent} bytes (injected fault).`);
      }
      if (rate > 0) {
        const due = started + (sent / rate) * 1000;
        const wait = due - Date.now();
        if (wait > 0) await sleep(wait);
      }
    }
  }
}

/** The payload as a paced stream; fastify destroys the connection when the stream fails midway. */
export function pacedBody(payload: unknown, pacing: Pacing): Readable {
  return Readable.from(paced(payload, pacing), { objectMode: false });
}

export function needsPacing(pacing: Pacing): boolean {
  return (pacing.bytesPerSecond ?? 0) > 0 || pacing.dropAfterBytes !== undefined;
}

// How requests are let in when a knob asks for it: a distant portal that limits each client to a rate
// (a token bucket of `rateBurst` requests, refilled at `rateLimit` per second) and to a number of requests
// at once (`maxInFlight`). A request refused answers 429, or `overLimitStatus` beyond the requests at once,
// with Retry-After in whole seconds (RFC 9110 allows no less than 1).

export interface AdmissionConfig {
  rateLimit: number;
  rateBurst: number;
  maxInFlight: number;
  overLimitStatus: number;
}

export type Admission =
  { admitted: true; release: () => void } | { admitted: false; status: number; retryAfterSeconds: number; why: 'rate' | 'in-flight' };

interface Bucket {
  tokens: number;
  at: number;
}

export class Admissions {
  private readonly buckets = new Map<string, Bucket>();
  private readonly inFlight = new Map<string, number>();
  /** What the buckets were filled for: a new rate or burst starts them full again. */
  private filledFor = '';

  constructor(private readonly now: () => number = () => performance.now()) {}

  admit(client: string, config: AdmissionConfig): Admission {
    const busy = this.inFlight.get(client) ?? 0;
    if (config.maxInFlight > 0 && busy >= config.maxInFlight)
      return { admitted: false, status: config.overLimitStatus, retryAfterSeconds: 1, why: 'in-flight' };
    if (config.rateLimit > 0) {
      const burst = config.rateBurst > 0 ? config.rateBurst : config.rateLimit;
      const key = `${config.rateLimit}/${burst}`;
      if (key !== this.filledFor) {
        this.buckets.clear();
        this.filledFor = key;
      }
      const now = this.now();
      const bucket = this.buckets.get(client) ?? { tokens: burst, at: now };
      bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * config.rateLimit);
      bucket.at = now;
      this.buckets.set(client, bucket);
      if (bucket.tokens < 1)
        return {
          admitted: false,
          status: 429,
          retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / config.rateLimit)),
          why: 'rate',
        };
      bucket.tokens -= 1;
    }
    this.inFlight.set(client, busy + 1);
    let released = false;
    return {
      admitted: true,
      release: () => {
        if (released) return;
        released = true;
        const left = (this.inFlight.get(client) ?? 1) - 1;
        if (left > 0) this.inFlight.set(client, left);
        else this.inFlight.delete(client);
      },
    };
  }

  /** Every client's bucket full again and nothing in flight counted (the test interface's reset). */
  clear(): void {
    this.buckets.clear();
    this.filledFor = '';
  }
}
