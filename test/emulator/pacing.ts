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
