// The transport in what node-fetch did for the client and the emulator never asks for: compressed answers,
// redirects (the token never follows to another origin), streamed uploads, abort, a body cut short. Small
// node:http servers on 127.0.0.1 play the portal's edge (a proxy, a CDN) here; the portal's own answers
// are covered by every other client test, which runs against the emulator.
import * as assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { getEventListeners } from 'node:events';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { PortalError } from '../../../src/api/errors';
import { send } from '../../../src/api/http';
import { nodeTransport } from '../../../src/api/nodeTransport';

interface Seen {
  method: string;
  url: string;
  authorization?: string;
  body: string;
}

type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => void;

async function serve(handler: Handler): Promise<{ base: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: request.method ?? '', url: request.url ?? '', authorization: request.headers.authorization, body });
      handler(request, response, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const init = (extra: Partial<Parameters<typeof nodeTransport>[1]> = {}): Parameters<typeof nodeTransport>[1] => ({
  method: 'GET',
  headers: {},
  signal: new AbortController().signal,
  ...extra,
});

async function text(url: string, options = init()): Promise<{ status: number; text: string }> {
  const response = await nodeTransport(url, options);
  return { status: response.status, text: Buffer.from(await response.arrayBuffer()).toString('utf8') };
}

describe('nodeTransport (node:http in fetch’s shape)', () => {
  const servers: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  async function start(handler: Handler): ReturnType<typeof serve> {
    const server = await serve(handler);
    servers.push(server);
    return server;
  }

  it('asks for compressed answers and decodes gzip, deflate and br', async () => {
    const json = JSON.stringify({ rows: Array.from({ length: 50 }, (_, index) => ({ id: String(index) })) });
    const encoders: Record<string, (input: Buffer) => Buffer> = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync };
    let accepted = '';
    const server = await start((request, response) => {
      accepted = String(request.headers['accept-encoding']);
      const encoding = (request.url ?? '').slice(1);
      response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': encoding });
      response.end(encoders[encoding](Buffer.from(json)));
    });
    for (const encoding of Object.keys(encoders)) assert.equal((await text(`${server.base}/${encoding}`)).text, json, encoding);
    assert.match(accepted, /gzip/);
  });

  it('takes what servers send in the wild as node-fetch did: raw deflate, and an empty body labelled compressed', async () => {
    const json = '{"ok":true}';
    const server = await start((request, response) => {
      if (request.url === '/raw') response.writeHead(200, { 'Content-Encoding': 'deflate' }).end(deflateRawSync(Buffer.from(json)));
      else response.writeHead(200, { 'Content-Encoding': (request.url ?? '').slice('/empty-'.length) }).end();
    });
    assert.equal((await text(`${server.base}/raw`)).text, json, 'deflate without its zlib header');
    for (const encoding of ['gzip', 'deflate'])
      assert.deepEqual(
        await text(`${server.base}/empty-${encoding}`),
        { status: 200, text: '' },
        `an empty ${encoding} answer is an empty body`,
      );
  });

  it('names itself in a User-Agent header (some firewalls refuse requests without one)', async () => {
    let agent: string | undefined;
    const server = await start((request, response) => {
      agent = request.headers['user-agent'];
      response.end();
    });
    await text(`${server.base}/`);
    assert.match(agent ?? '', /^Portal-Explorer/);
  });

  it('follows a redirect on the same origin with the token, and drops the token when it leads elsewhere', async () => {
    const other = await start((_request, response) => response.end('elsewhere'));
    const server = await start((request, response) => {
      if (request.url === '/same') response.writeHead(307, { Location: '/final' }).end();
      else if (request.url === '/away') response.writeHead(302, { Location: `${other.base}/landing` }).end();
      else response.end('here');
    });
    const withToken = init({ headers: { Authorization: 'Bearer secret-token' } });
    assert.deepEqual(await text(`${server.base}/same`, withToken), { status: 200, text: 'here' });
    assert.equal(server.seen.at(-1)?.authorization, 'Bearer secret-token');
    assert.deepEqual(await text(`${server.base}/away`, withToken), { status: 200, text: 'elsewhere' });
    assert.equal(other.seen.at(-1)?.authorization, undefined, 'no token sent to another origin');
  });

  it('turns a POST redirected by 303 into a GET without its body, and keeps a 307’s method and body', async () => {
    const server = await start((request, response) => {
      if (request.url === '/see-other') response.writeHead(303, { Location: '/result' }).end();
      else if (request.url === '/temporary') response.writeHead(307, { Location: '/result' }).end();
      else response.end('ok');
    });
    await text(
      `${server.base}/see-other`,
      init({ method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'a=1' }),
    );
    await text(
      `${server.base}/temporary`,
      init({ method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'b=2' }),
    );
    assert.deepEqual(
      server.seen.map(({ method, url, body }) => `${method} ${url} ${body}`),
      ['POST /see-other a=1', 'GET /result ', 'POST /temporary b=2', 'POST /result b=2'],
    );
  });

  it('hands back a redirect unfollowed when asked to, and refuses one when told to', async () => {
    const server = await start((_request, response) => response.writeHead(302, { Location: '/elsewhere' }).end());
    const manual = await nodeTransport(`${server.base}/start`, init({ redirect: 'manual' }));
    assert.equal(manual.status, 302);
    assert.equal(manual.headers.get('location'), '/elsewhere');
    await assert.rejects(nodeTransport(`${server.base}/start`, init({ redirect: 'error' })), /redirected/);
  });

  it('sends a streamed upload as it is read', async () => {
    const server = await start((_request, response, body) => response.end(String(body.length)));
    async function* pieces(): AsyncGenerator<Uint8Array> {
      for (let index = 0; index < 64; index += 1) yield Buffer.alloc(16 * 1024, index);
    }
    assert.deepEqual(
      await text(
        `${server.base}/upload`,
        init({ method: 'POST', headers: { 'Content-Type': 'application/octet-stream' }, body: pieces() }),
      ),
      { status: 200, text: String(64 * 16 * 1024) },
    );
  });

  it('joins a header sent twice, as fetch does', async () => {
    const server = await start((_request, response) => {
      response.setHeader('X-Portal', ['one', 'two']);
      response.end();
    });
    const response = await nodeTransport(`${server.base}/`, init());
    assert.equal(response.headers.get('X-Portal'), 'one, two');
    assert.equal(response.headers.get('X-Missing'), null);
  });

  it('stops a body that is still coming when the caller cancels, as a cancellation', async () => {
    const server = await start((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.write('{"rows":[');
    });
    const controller = new AbortController();
    const sending = send({ method: 'GET', url: new URL(`${server.base}/slow`), action: 'Reading view 3', signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(sending, (error: unknown) => error instanceof PortalError && error.kind === 'cancelled');
  });

  it('cancels every request under way under one signal, each as a cancellation, and the signal keeps nothing after', async () => {
    let waiting = 0;
    let allWaiting: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => (allWaiting = resolve));
    const server = await start((request, response) => {
      if (request.url === '/quick') {
        response.end('{}');
        return;
      }
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.write('{"rows":[');
      waiting += 1;
      if (waiting === 3) allWaiting();
    });
    const controller = new AbortController();
    const { signal } = controller;
    assert.equal((await send({ method: 'GET', url: `${server.base}/quick`, action: 'Reading record 1', signal })).status, 200);
    const sending = [2, 3, 4].map((record) =>
      send({ method: 'GET', url: `${server.base}/slow/${record}`, action: `Reading record ${record}`, signal }),
    );
    await arrived;
    assert.equal(getEventListeners(signal, 'abort').length, 1, 'one listener for the requests under way, not one each');
    controller.abort();
    const outcomes = await Promise.allSettled(sending);
    assert.deepEqual(
      outcomes.map((outcome) =>
        outcome.status === 'rejected' && outcome.reason instanceof PortalError ? outcome.reason.kind : outcome.status,
      ),
      ['cancelled', 'cancelled', 'cancelled'],
    );
    assert.equal(getEventListeners(signal, 'abort').length, 0);
  });

  it('leaves nothing on the caller’s signal once a request is over, answered or failed (an import sends thousands under one)', async () => {
    const server = await start((request, response) => {
      if (request.url === '/fails') response.socket?.destroy();
      else response.end('{}');
    });
    const signal = new AbortController().signal;
    for (let index = 0; index < 3; index += 1) {
      assert.equal((await send({ method: 'GET', url: `${server.base}/`, action: 'Reading record 7', signal })).status, 200);
    }
    await assert.rejects(
      send({ method: 'GET', url: `${server.base}/fails`, action: 'Reading record 8', signal }),
      (error: unknown) => error instanceof PortalError && error.kind === 'network',
    );
    assert.equal(getEventListeners(signal, 'abort').length, 0);
  });

  it('reports an answer cut short by the connection as a network failure, not as a short body', async () => {
    const server = await start((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '1000' });
      response.write('{"rows":[', () => response.socket?.destroy());
    });
    await assert.rejects(
      send({ method: 'GET', url: new URL(`${server.base}/cut`), action: 'Reading view 3' }),
      (error: unknown) =>
        error instanceof PortalError && error.kind === 'network' && /Reading view 3 failed: could not reach the portal/.test(error.message),
    );
  });

  it('reports a refused connection with its reason', async () => {
    const server = await start((_request, response) => response.end());
    const { base } = server;
    await server.close();
    servers.length = 0;
    await assert.rejects(
      send({ method: 'GET', url: new URL(`${base}/`), action: 'Listing sites' }),
      (error: unknown) => error instanceof PortalError && error.kind === 'network' && /connection was refused/.test(error.message),
    );
  });
});
