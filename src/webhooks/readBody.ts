// Reading a request body with a byte limit: the declared Content-Length is refused before a byte is read,
// and a body that grows past the limit (chunked, or lying about its length) stops being kept the moment it
// does. No `vscode` import.
import type { IncomingMessage, ServerResponse } from 'node:http';

export type BodyResult =
  | { readonly ok: true; readonly body: Buffer }
  | { readonly ok: false; readonly reason: 'too-large'; readonly bytes: number }
  | { readonly ok: false; readonly reason: 'aborted' };

/** The whole body when it is at most `limit` bytes. */
export function readLimitedBody(request: IncomingMessage, limit: number): Promise<BodyResult> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve({ ok: false, reason: 'too-large', bytes: declared });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (result: BodyResult): void => {
      if (settled) return;
      settled = true;
      request.off('data', onData);
      request.off('end', onEnd);
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        settle({ ok: false, reason: 'too-large', bytes: size });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => settle({ ok: true, body: Buffer.concat(chunks, size) });
    request.on('data', onData);
    request.on('end', onEnd);
    request.once('error', () => settle({ ok: false, reason: 'aborted' }));
    request.once('close', () => {
      if (!request.complete) settle({ ok: false, reason: 'aborted' });
    });
  });
}

/** Bytes of an unwanted body read (and thrown away) at most, so the sender can read the answer. */
const DRAIN_LIMIT = 64 * 1024 * 1024;
/** How long the rest of an unwanted body may take to arrive. */
const DRAIN_MS = 2000;

/**
 * Answers before (or without) reading the whole body, then closes the connection. The rest of the body is
 * read and discarded for a moment, within limits: a socket closed with unread bytes is reset, and the sender
 * would then see a broken connection instead of the answer.
 */
export function answerAndClose(request: IncomingMessage, response: ServerResponse, send: () => void): void {
  response.shouldKeepAlive = false;
  send();
  if (request.complete) return;
  let drained = 0;
  const stop = (): void => {
    clearTimeout(timer);
    request.socket.destroy();
  };
  const timer = setTimeout(stop, DRAIN_MS);
  timer.unref();
  request.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_LIMIT) stop();
  });
  request.once('end', () => clearTimeout(timer));
  request.once('close', () => clearTimeout(timer));
  request.resume();
}
