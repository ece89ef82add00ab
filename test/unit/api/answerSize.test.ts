// How much of an answer the client holds (issue 30, item 9): an answer read whole stops at a bound counted
// after decompression, so a small gzip or brotli body that inflates to gigabytes (or a server that never
// stops sending) fails with a clear error instead of filling the extension host's memory. Small node:http
// servers play a broken or hostile edge; the client's bound is checked against the emulator too, where a
// streamed view read keeps to its own bounds.
import * as assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { PortalClient } from '../../../src/api/client';
import { PortalError } from '../../../src/api/errors';
import { send } from '../../../src/api/http';
import { DEFAULT_MAX_ANSWER_BYTES } from '../../../src/api/limits';
import { CredentialsTokens, startPortal, type Emulator } from './portal';

const MB = 1024 * 1024;

async function serve(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<{ base: string; close(): Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function tooLarge(limit: number): (error: unknown) => boolean {
  return (error: unknown) => {
    assert.ok(error instanceof PortalError, String(error));
    assert.equal(error.code, 'answer_too_large');
    assert.equal(error.kind, 'invalid-response');
    assert.match(error.message, /^Reading the answer failed: the portal's answer is larger than/);
    assert.ok(error.message.includes(`${limit / MB} MB`), error.message);
    assert.ok(error.message.includes('portal.http.maxAnswerBytes'), error.message);
    return true;
  };
}

describe('the size of an answer read whole (issue 30)', () => {
  let edge: { base: string; close(): Promise<void> };
  /** 8 MB of zeros: about 8 KB gzipped, far less as brotli. */
  const bomb = Buffer.alloc(8 * MB);
  const gzipped = gzipSync(bomb);
  const brotli = brotliCompressSync(bomb);

  before(async () => {
    edge = await serve((request, response) => {
      const url = request.url ?? '/';
      if (url === '/gzip') response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }).end(gzipped);
      else if (url === '/br') response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'br' }).end(brotli);
      else if (url === '/declared')
        response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(2 * MB) }).end(Buffer.alloc(2 * MB));
      else if (url === '/error') response.writeHead(500, { 'Content-Type': 'text/plain', 'Content-Encoding': 'gzip' }).end(gzipped);
      else if (url === '/endless') {
        // Chunked, no length: keeps sending until the client hangs up.
        response.writeHead(200, { 'Content-Type': 'application/json' });
        const piece = Buffer.alloc(256 * 1024, 0x20);
        const more = (): void => {
          while (!response.destroyed && response.write(piece));
          if (!response.destroyed) response.once('drain', more);
        };
        more();
        response.on('close', () => response.removeAllListeners('drain'));
      } else response.end(JSON.stringify({ ok: true }));
    });
  });
  after(() => edge.close());

  const get = (path: string, maxAnswerBytes?: number) =>
    send({ method: 'GET', url: `${edge.base}${path}`, action: 'Reading the answer', maxAnswerBytes });

  it('has a generous default', () => {
    assert.ok(DEFAULT_MAX_ANSWER_BYTES >= 128 * MB);
  });

  for (const path of ['/gzip', '/br']) {
    it(`stops a ${path.slice(1)} answer once it inflates beyond the bound`, async () => {
      await assert.rejects(get(path, 1 * MB), tooLarge(1 * MB));
    });
  }

  it('refuses an answer whose declared length is beyond the bound, and one that never ends', async () => {
    await assert.rejects(get('/declared', 1 * MB), tooLarge(1 * MB));
    await assert.rejects(get('/endless', 1 * MB), tooLarge(1 * MB));
  });

  it('bounds an error answer as well', async () => {
    await assert.rejects(get('/error', 1 * MB), tooLarge(1 * MB));
  });

  it('reads an answer within the bound as before', async () => {
    const answer = await get('/gzip', 9 * MB);
    assert.equal(answer.body.length, 8 * MB);
    assert.equal((await get('/small', 1024)).body.toString(), '{"ok":true}');
  });

  describe('the client', () => {
    let emulator: Emulator;
    before(async () => {
      emulator = await startPortal({ bigViewRecords: 3000 });
    });
    after(() => emulator.close());

    it('takes the bound as the setting is now, and leaves a streamed view read to its own bounds', async () => {
      let bound = 64 * 1024;
      const client = new PortalClient({ baseUrl: emulator.baseUrl, tokens: new CredentialsTokens(emulator), maxAnswerBytes: () => bound });
      await assert.rejects(
        client.readView('201', '6'),
        (error: unknown) =>
          error instanceof PortalError && error.code === 'answer_too_large' && error.message.startsWith('Reading view 6 of app 201 failed'),
      );
      const streamed = await client.streamView('201', '6', []);
      assert.equal(streamed.failure, undefined);
      assert.ok(streamed.rowsRead >= 3000, String(streamed.rowsRead));
      streamed.rows.release();
      bound = 64 * MB;
      assert.equal((await client.readView('201', '6')).rows.length, streamed.rowsRead);
    });
  });
});
