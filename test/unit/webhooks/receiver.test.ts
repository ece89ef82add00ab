// The webhook receiver over real HTTP on 127.0.0.1, as a portal (or anyone else) reaches it: signatures
// over the raw bytes, the size limit, bad bodies, wrong paths and methods, and that nothing a sender does
// stops it from taking the next delivery.
import * as assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect } from 'node:net';
import { computeSignature, type SignatureScheme } from '../../../src/api/webhookSignature';
import { WEBHOOK_DEFAULTS } from '../../../src/webhooks/config';
import { WebhookReceiver, type Delivery, type PortalRoute, type RequestSettings } from '../../../src/webhooks/receiver';

const SECRET = 'whsec-unit-3c9a';

interface Answer {
  status: number;
  text: string;
}

/** A POST with node's client (which, unlike fetch, lets a test send any headers and a body of any size). */
function send(port: number, path: string, body: string | Buffer, headers: Record<string, string> = {}, method = 'POST'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: '127.0.0.1', port, path, method, headers: { 'content-type': 'application/json', ...headers } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    // Writing a body the server refused early may fail after its answer arrived: the answer is what counts.
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** Sends a body in chunks without Content-Length (chunked transfer encoding). */
function sendChunked(port: number, path: string, chunk: Buffer, times: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-type': 'application/json' } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (data: Buffer) => chunks.push(data));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    outgoing.on('error', reject);
    let sent = 0;
    const more = (): void => {
      while (sent < times) {
        sent += 1;
        if (!outgoing.write(chunk)) {
          outgoing.once('drain', more);
          return;
        }
      }
      outgoing.end();
    };
    more();
  });
}

const payload = (recordId: string, extra = ''): string =>
  `{"event":"record.updated","app_id":"101","record_id":"${recordId}","data":{"f2":"Acme \u00e9"},"occurred_at":"2026-11-21T10:00:00Z","delivery_id":"d-${recordId}"${extra}}`;

/** signed: a Secret Key; open: none, unsigned turned on by the user; closed: none, unsigned left off (the default). */
const ROUTES: Record<string, PortalRoute | undefined> = {
  signed: { secret: SECRET, acceptUnsigned: false },
  open: { secret: undefined, acceptUnsigned: true },
  closed: { secret: undefined, acceptUnsigned: false },
};

describe('the webhook receiver', () => {
  let receiver: WebhookReceiver;
  let port: number;
  const deliveries: Delivery[] = [];
  let settings: RequestSettings = { ...WEBHOOK_DEFAULTS, maxBodyBytes: 64 * 1024 };
  let failListener = false;

  before(async () => {
    receiver = await WebhookReceiver.start({
      host: '127.0.0.1',
      port: 0,
      settings: () => settings,
      route: async (id) => ROUTES[id],
      onDelivery: (delivery) => {
        deliveries.push(delivery);
        if (failListener) throw new Error('listener failure');
      },
    });
    port = receiver.listeningPort;
  });
  after(() => receiver.close());
  beforeEach(() => {
    deliveries.length = 0;
    settings = { ...WEBHOOK_DEFAULTS, maxBodyBytes: 64 * 1024 };
    failListener = false;
  });

  /** The delivery reported for the last request (reported after the answer, so wait a moment for it). */
  async function lastDelivery(): Promise<Delivery> {
    for (let i = 0; i < 100 && deliveries.length === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(deliveries.length, 1, 'one delivery reported');
    return deliveries[0];
  }

  it('listens on an ephemeral loopback port when asked for port 0', () => {
    assert.ok(port > 0);
    assert.equal(receiver.host, '127.0.0.1');
  });

  it('accepts a delivery signed over its raw bytes, and hands over the parsed payload', async () => {
    // Unusual spacing and a non-ASCII character: re-serialising before checking would break the signature.
    const body = Buffer.from(payload('7').replace('{"event"', '{ "event" '), 'utf8');
    const answer = await send(port, '/portal/signed', body, {
      'x-portal-signature': computeSignature(SECRET, body),
      'x-portal-delivery': 'hdr-1',
    });
    assert.equal(answer.status, 204);
    const delivery = await lastDelivery();
    assert.equal(delivery.verdict, 'accepted');
    assert.equal(delivery.connectionId, 'signed');
    assert.equal(delivery.signed, true);
    assert.equal(delivery.payload?.record_id, '7');
    assert.equal(delivery.payload?.data.f2, 'Acme \u00e9');
    assert.equal(delivery.deliveryId, 'd-7', 'the body wins over the header');
    assert.equal(delivery.bytes, body.length);
  });

  it('refuses with 401 a missing, tampered, wrongly keyed or malformed signature', async () => {
    const body = payload('8');
    const cases: Array<[string, Record<string, string>, string | Buffer]> = [
      ['missing', {}, body],
      ['tampered', { 'x-portal-signature': computeSignature(SECRET, body) }, body.replace('Acme', 'Evil')],
      ['wrong secret', { 'x-portal-signature': computeSignature('another-secret', body) }, body],
      ['malformed', { 'x-portal-signature': 'sha256=not-hex' }, body],
    ];
    for (const [name, headers, sent] of cases) {
      deliveries.length = 0;
      const answer = await send(port, '/portal/signed', sent, headers);
      assert.equal(answer.status, 401, name);
      assert.match(JSON.parse(answer.text).error as string, /x-portal-signature/i, name);
      const delivery = await lastDelivery();
      assert.equal(delivery.verdict, 'refused', name);
      assert.equal(delivery.payload, undefined, `${name}: a refused body is not handed over`);
      assert.equal(delivery.body, undefined, name);
    }
  });

  it('accepts unsigned deliveries for a connection without a Secret Key, saying they were not checked', async () => {
    const answer = await send(port, '/portal/open', payload('9'));
    assert.equal(answer.status, 204);
    const delivery = await lastDelivery();
    assert.equal(delivery.verdict, 'accepted');
    assert.equal(delivery.signed, false);
  });

  it('refuses unsigned deliveries with 401 for a portal without a Secret Key unless the user turned them on for it', async () => {
    const answer = await send(port, '/portal/closed', payload('90'));
    assert.equal(answer.status, 401);
    assert.match(JSON.parse(answer.text).error as string, /no Secret Key is set for this portal, and unsigned deliveries are off/);
    const delivery = await lastDelivery();
    assert.equal(delivery.verdict, 'refused');
    assert.equal(delivery.unsignedRefused, true, 'the service can offer the two ways to take them');
    assert.equal(delivery.payload, undefined);
    assert.equal(delivery.body, undefined, 'a refused body is not kept');
  });

  it('ignores a repeat of a delivery it accepted (same delivery id, or same body) within the window, answering 202', async () => {
    const first = payload('91');
    assert.equal((await send(port, '/portal/open', first)).status, 204);
    assert.equal((await lastDelivery()).verdict, 'accepted');
    const repeats: Array<[string, string, Record<string, string>]> = [
      ['the same body', first, {}],
      ['the same delivery id in another body', payload('92').replace('"d-92"', '"d-91"'), {}],
    ];
    for (const [name, body, headers] of repeats) {
      deliveries.length = 0;
      const answer = await send(port, '/portal/open', body, headers);
      assert.equal(answer.status, 202, name);
      const delivery = await lastDelivery();
      assert.equal(delivery.verdict, 'ignored', name);
      assert.equal(delivery.payload, undefined, `${name}: not acted on`);
      assert.match(
        delivery.reason ?? '',
        /^A repeat of a delivery accepted \d+ s ago \((same delivery id|same body)\): not acted on again\.$/,
        name,
      );
    }
    deliveries.length = 0;
    assert.equal(
      (await send(port, '/portal/signed', first, { 'x-portal-signature': computeSignature(SECRET, first) })).status,
      204,
      "another portal's delivery is its own",
    );
  });

  it('takes a delivery again once the repeat window has passed', async () => {
    const short = await WebhookReceiver.start({
      host: '127.0.0.1',
      port: 0,
      settings: () => settings,
      route: async (id) => ROUTES[id],
      onDelivery: () => undefined,
      repeatWindowMs: 50,
    });
    try {
      const body = payload('93');
      assert.equal((await send(short.listeningPort, '/portal/open', body)).status, 204);
      assert.equal((await send(short.listeningPort, '/portal/open', body)).status, 202);
      await new Promise((resolve) => setTimeout(resolve, 80));
      assert.equal((await send(short.listeningPort, '/portal/open', body)).status, 204);
    } finally {
      await short.close();
    }
  });

  it('checks the scheme of the settings in force at each request: sha1, base64, no prefix, another header', async () => {
    const scheme: SignatureScheme = { header: 'x-hub-signature', prefix: '', algorithm: 'sha1', encoding: 'base64' };
    settings = { ...settings, scheme };
    const body = payload('10');
    assert.equal((await send(port, '/portal/signed', body, { 'x-hub-signature': computeSignature(SECRET, body, scheme) })).status, 204);
    assert.equal(
      (await send(port, '/portal/signed', body, { 'x-portal-signature': computeSignature(SECRET, body) })).status,
      401,
      'the default scheme no longer applies',
    );
  });

  it('takes the event and delivery id from the configured headers when the body has none', async () => {
    settings = { ...settings, eventHeader: 'x-event-name', deliveryHeader: 'x-event-id' };
    const answer = await send(port, '/portal/open', '{"app_id":"101","record_id":"3"}', {
      'x-event-name': 'record.deleted',
      'x-event-id': 'e-77',
    });
    assert.equal(answer.status, 204);
    const delivery = await lastDelivery();
    assert.equal(delivery.payload?.event, 'record.deleted');
    assert.equal(delivery.event, 'record.deleted');
    assert.equal(delivery.deliveryId, 'e-77');
  });

  it('refuses a body that is not JSON, or not a JSON object, with 400', async () => {
    for (const body of ['not json at all', '[1,2]', '"text"', '']) {
      deliveries.length = 0;
      const answer = await send(port, '/portal/signed', body, { 'x-portal-signature': computeSignature(SECRET, body) });
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.equal((await lastDelivery()).verdict, 'refused');
    }
  });

  it('a cross-origin text/plain POST is refused: a web page cannot post fake events to an open receiver', async () => {
    const fake = '{"event":"record.deleted","app_id":"101","record_id":"3"}';
    const cases: Array<[string, Record<string, string>, number]> = [
      ["a page's simple request", { 'content-type': 'text/plain;charset=UTF-8', origin: 'https://evil.example' }, 403],
      ['any request a browser sends with its Origin', { origin: 'https://evil.example' }, 403],
      ['text/plain', { 'content-type': 'text/plain' }, 415],
      ['a form', { 'content-type': 'application/x-www-form-urlencoded' }, 415],
      ['a multipart form', { 'content-type': 'multipart/form-data; boundary=x' }, 415],
    ];
    for (const [name, headers, status] of cases) {
      deliveries.length = 0;
      const answer = await send(port, '/portal/open', fake, headers);
      assert.equal(answer.status, status, name);
      const delivery = await lastDelivery();
      assert.equal(delivery.verdict, 'refused', name);
      assert.equal(delivery.payload, undefined, `${name}: not handed over`);
    }
    deliveries.length = 0;
    assert.equal(
      (await send(port, '/portal/open', payload('11'), { 'content-type': 'application/json; charset=utf-8' })).status,
      204,
      'JSON from a server still comes in',
    );
  });

  it('takes JSON that is not about a record (a ping) with 202, without acting on it', async () => {
    const answer = await send(port, '/portal/open', '{"event":"ping","zen":"hello"}');
    assert.equal(answer.status, 202);
    const delivery = await lastDelivery();
    assert.equal(delivery.verdict, 'ignored');
    assert.equal(delivery.payload, undefined);
    assert.deepEqual(delivery.body, { event: 'ping', zen: 'hello' });
    assert.match(delivery.reason ?? '', /no "app_id"/);
  });

  it('refuses a 10 MB body with 413 before reading it, and takes the next delivery', async () => {
    const big = Buffer.alloc(10 * 1024 * 1024, 0x20);
    const answer = await send(port, '/portal/signed', big);
    assert.equal(answer.status, 413);
    assert.match(JSON.parse(answer.text).error as string, /larger than 65536 bytes/);
    const refused = await lastDelivery();
    assert.equal(refused.verdict, 'refused');
    assert.equal(refused.status, 413);
    deliveries.length = 0;
    const body = payload('11');
    assert.equal((await send(port, '/portal/signed', body, { 'x-portal-signature': computeSignature(SECRET, body) })).status, 204);
  });

  it('refuses a chunked body once it passes the limit, keeping no more than the limit', async () => {
    const answer = await sendChunked(port, '/portal/open', Buffer.alloc(16 * 1024, 0x20), 640);
    assert.equal(answer.status, 413);
    const delivery = await lastDelivery();
    assert.equal(delivery.status, 413);
    assert.ok(delivery.bytes <= 64 * 1024 + 16 * 1024, `stopped reading at the limit (${delivery.bytes} bytes)`);
    deliveries.length = 0;
    assert.equal((await send(port, '/portal/open', payload('12'))).status, 204);
  });

  it('answers 404 off the webhook paths and for unknown connections, and 405 to other methods', async () => {
    assert.equal((await send(port, '/', payload('1'))).status, 404);
    assert.equal((await send(port, '/portal/signed/extra', payload('1'))).status, 404);
    assert.equal((await send(port, '/portal/%E0%A4%A', payload('1'))).status, 404);
    deliveries.length = 0;
    assert.equal((await send(port, '/portal/nobody', payload('1'))).status, 404);
    assert.equal((await lastDelivery()).connectionId, undefined);
    const get = await send(port, '/portal/signed', '', {}, 'GET');
    assert.equal(get.status, 405);
  });

  it('answers even when whoever listens to deliveries fails', async () => {
    failListener = true;
    assert.equal((await send(port, '/portal/open', payload('13'))).status, 204);
    assert.equal((await send(port, '/portal/open', payload('14'))).status, 204);
  });

  it('survives bytes that are not HTTP, and a sender that hangs up mid-body', async () => {
    const junk = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.end('\u0000\u0001 GARBAGE\r\n\r\n'));
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString('latin1')));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    assert.match(junk, /^HTTP\/1\.1 400/);
    await new Promise<void>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write('POST /portal/open HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"event":');
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 50);
      });
      socket.on('error', reject);
    });
    assert.equal((await send(port, '/portal/open', payload('15'))).status, 204);
  });

  it('says in a sentence why it cannot listen on a port in use', async () => {
    await assert.rejects(
      WebhookReceiver.start({
        host: '127.0.0.1',
        port,
        settings: () => settings,
        route: async () => undefined,
        onDelivery: () => undefined,
      }),
      /port is in use .*portal\.webhooks\.port/,
    );
  });
});
