// The emulator's webhook deliveries, received by a listener on 127.0.0.1 as the extension's receiver would:
// the signature module must accept the emulator's signature over the raw body (and refuse it under another
// secret), and the payload parser must read every event the client's calls cause.
import * as assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PortalClient } from '../../../src/api/client';
import { parseWebhookPayload } from '../../../src/api/webhookPayload';
import { DEFAULT_SIGNATURE_SCHEME, verifySignature } from '../../../src/api/webhookSignature';
import { clientFor, startPortal, testInterface, type Emulator } from './portal';

interface Delivery {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

describe('webhook deliveries from the emulator', function () {
  const SECRET = 'whsec-test-8d2f';
  let emulator: Emulator;
  let client: PortalClient;
  let receiver: Server;
  const deliveries: Delivery[] = [];
  let waiting: (() => void) | undefined;

  before(async () => {
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        deliveries.push({ headers: request.headers, body: Buffer.concat(chunks) });
        response.writeHead(204).end();
        waiting?.();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const { port } = receiver.address() as AddressInfo;
    emulator = await startPortal();
    ({ client } = clientFor(emulator));
    await testInterface(emulator, 'POST', 'webhooks', { app_id: '101', payload_url: `http://127.0.0.1:${port}/hook`, secret: SECRET });
  });
  after(async () => {
    await emulator.close();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  /** Waits until `count` deliveries have arrived (the emulator sends them after its response). */
  async function received(count: number): Promise<Delivery[]> {
    const deadline = Date.now() + 5000;
    while (deliveries.length < count && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        waiting = resolve;
        setTimeout(resolve, 200);
      });
    }
    assert.ok(deliveries.length >= count, `${count} deliveries expected, ${deliveries.length} arrived`);
    return deliveries.splice(0, count);
  }

  it('signs every event so that verifySignature accepts it, and the payload parses', async () => {
    const created = await client.createRecord('101', { f2: 'Webhook Co', f3: 'hook@example.com' });
    await client.updateRecord('101', created.id ?? '', { f4: '555 0100' });
    await client.addComment('101', created.id ?? '', 'A comment');
    await client.addAttachment('101', created.id ?? '', { fileName: 'a.txt', contentType: 'text/plain', content: Buffer.from('hello') });
    await client.deleteRecord('101', created.id ?? '');

    const events = await received(5);
    const parsed = events.map(({ headers, body }) => {
      const signature = header(headers, DEFAULT_SIGNATURE_SCHEME.header);
      assert.deepEqual(verifySignature(SECRET, body, signature), { valid: true });
      const wrong = verifySignature('another-secret', body, signature);
      assert.equal(wrong.valid ? 'valid' : wrong.reason, 'mismatch');
      return parseWebhookPayload(body, { event: header(headers, 'x-portal-event'), deliveryId: header(headers, 'x-portal-delivery') });
    });
    // Each delivery leaves after its response, so arrival order is not guaranteed; compare by event.
    assert.deepEqual(parsed.map((payload) => payload.event).sort(), [
      'attachment.created',
      'comment.created',
      'record.created',
      'record.deleted',
      'record.updated',
    ]);
    const byEvent = new Map(parsed.map((payload) => [payload.event, payload]));
    for (const payload of parsed) {
      assert.equal(payload.app_id, '101');
      assert.equal(payload.record_id, created.id);
      assert.ok(payload.delivery_id && payload.occurred_at);
    }
    assert.equal(byEvent.get('record.updated')?.data.f4, '555 0100');
    assert.equal((byEvent.get('comment.created')?.raw.comment as { comment?: string }).comment, 'A comment', 'extra fields are kept');
    assert.equal(new Set(parsed.map((payload) => payload.delivery_id)).size, 5);
  });

  it('a body altered on the way fails verification', async () => {
    await client.updateRecord('101', '1', { f4: '555 0199' });
    const [{ headers, body }] = await received(1);
    const altered = Buffer.from(body.toString('utf8').replace('555 0199', '555 0000'));
    const verdict = verifySignature(SECRET, altered, header(headers, 'x-portal-signature'));
    assert.equal(verdict.valid ? 'valid' : verdict.reason, 'mismatch');
  });
});
