import * as assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import type { IncomingHttpHeaders, Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { call, clientToken, eventually, form, useEmulator } from './helpers';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on 127.0.0.1: records what arrives and answers `status`. */
class Receiver {
  readonly received: Received[] = [];
  status = 200;
  private server?: Server;

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        this.received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
        response.writeHead(this.status).end();
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

interface DeliveryJson {
  webhook_id: string;
  event: string;
  state: string;
  status: number | null;
  attempts: number;
  error?: string;
}

describe('emulator: webhooks', () => {
  const running = useEmulator();
  const receiver = new Receiver();
  let url: string;
  let token: string;

  before(async () => {
    url = await receiver.start();
  });
  after(() => receiver.stop());

  beforeEach(async () => {
    await call(running.emulator, 'POST', '/_emulator/reset');
    receiver.received.length = 0;
    receiver.status = 200;
    token = await clientToken(running.emulator);
  });

  const register = async (body: Record<string, unknown>) => {
    const result = await call(running.emulator, 'POST', '/_emulator/webhooks', {
      body: { app_id: '102', payload_url: url, active: true, ...body },
    });
    assert.equal(result.status, 200, result.text);
    return (result.json as { id: string }).id;
  };
  const deliveries = async () => (await call(running.emulator, 'GET', '/_emulator/deliveries')).json as DeliveryJson[];
  const settled = (count: number) =>
    eventually(async () => {
      const list = await deliveries();
      return list.length >= count && list.every((d) => d.state !== 'pending') ? list : undefined;
    });
  const arrived = (count: number) => eventually(async () => (receiver.received.length >= count ? receiver.received : undefined));

  it('POSTs a signed JSON payload naming the event, app, record and data', async () => {
    await register({ events: ['record.created'], secret: 's3cret' });
    const created = (
      await call(running.emulator, 'POST', '/api/v1/app/102/record/', { token, body: form({ f11: 'Hooked', f15: '01-03-2026', f17: '5' }) })
    ).json as { id: string };
    const [hit] = await arrived(1);
    assert.equal(hit.headers['content-type'], 'application/json');
    assert.equal(hit.headers['x-portal-event'], 'record.created');
    assert.equal(hit.headers['x-portal-signature'], `sha256=${createHmac('sha256', 's3cret').update(hit.body).digest('hex')}`);
    const payload = JSON.parse(hit.body) as Record<string, unknown>;
    assert.equal(payload.event, 'record.created');
    assert.equal(payload.app_id, '102');
    assert.equal(payload.record_id, created.id);
    assert.equal((payload.data as Record<string, string>).f11, 'Hooked');
    assert.equal(payload.delivery_id, hit.headers['x-portal-delivery']);
    assert.ok(!Number.isNaN(Date.parse(String(payload.occurred_at))));
    const [delivery] = await settled(1);
    assert.equal(delivery.state, 'delivered');
    assert.equal(delivery.status, 200);
  });

  it('sends no signature without a secret', async () => {
    await register({ events: ['record.updated'] });
    await call(running.emulator, 'PUT', '/api/v1/app/102/record/1', { token, body: form({ f18: '11' }) });
    const [hit] = await arrived(1);
    assert.equal(hit.headers['x-portal-signature'], undefined);
    assert.equal(hit.headers['x-portal-event'], 'record.updated');
  });

  it('announces updated, deleted, commented and attachment added, each with its event name', async () => {
    await register({ events: ['record.updated', 'record.deleted', 'comment.created', 'attachment.created'], secret: 'k' });
    await call(running.emulator, 'PUT', '/api/v1/app/102/record/2', { token, body: form({ f18: '7' }) });
    await call(running.emulator, 'POST', '/api/v1/app/102/record/2/comment', { token, body: form({ comment: 'Nice' }) });
    const upload = new FormData();
    upload.append('attachment_file', new Blob(['hello'], { type: 'text/plain' }), 'hello.txt');
    await call(running.emulator, 'POST', '/api/v1/app/102/record/2/attachment', { token, body: upload });
    await call(running.emulator, 'DELETE', '/api/v1/app/102/record/2', { token });
    const hits = await arrived(4);
    const payloads = hits.map((hit) => JSON.parse(hit.body) as Record<string, unknown>);
    assert.deepEqual(payloads.map((p) => p.event).sort(), ['attachment.created', 'comment.created', 'record.deleted', 'record.updated']);
    const comment = payloads.find((p) => p.event === 'comment.created');
    assert.equal((comment?.comment as { comment: string }).comment, 'Nice');
    const attachment = payloads.find((p) => p.event === 'attachment.created');
    assert.deepEqual(
      [(attachment?.attachment as { file_name: string }).file_name, (attachment?.attachment as { size: number }).size],
      ['hello.txt', 5],
    );
    const deleted = payloads.find((p) => p.event === 'record.deleted');
    assert.equal((deleted?.data as Record<string, string>).f18, '7', 'the data before the delete');
    for (const hit of hits)
      assert.equal(hit.headers['x-portal-signature'], `sha256=${createHmac('sha256', 'k').update(hit.body).digest('hex')}`);
  });

  it('sends nothing to an inactive webhook, for other events or other apps', async () => {
    await register({ events: ['record.updated'], active: false });
    await register({ events: ['record.deleted'] });
    await register({ app_id: '101', events: ['record.updated'] });
    await call(running.emulator, 'PUT', '/api/v1/app/102/record/1', { token, body: form({ f18: '1' }) });
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(receiver.received.length, 0);
    assert.deepEqual(await deliveries(), []);
  });

  it('records a failed delivery, tries again as configured, and keeps serving', async () => {
    receiver.status = 500;
    await call(running.emulator, 'POST', '/_emulator/config', { body: { webhookRetries: 2 } });
    await register({ events: ['record.updated'] });
    await call(running.emulator, 'PUT', '/api/v1/app/102/record/1', { token, body: form({ f18: '2' }) });
    const [delivery] = await settled(1);
    assert.equal(delivery.state, 'failed');
    assert.equal(delivery.status, 500);
    assert.equal(delivery.attempts, 3);
    assert.equal(receiver.received.length, 3);
    assert.equal((await call(running.emulator, 'GET', '/api/v1/site', { token })).status, 200);
  });

  it('records a delivery to a receiver that is gone', async () => {
    const gone = new Receiver();
    const goneUrl = await gone.start();
    await gone.stop();
    await register({ payload_url: goneUrl, events: ['record.updated'] });
    await call(running.emulator, 'PUT', '/api/v1/app/102/record/1', { token, body: form({ f18: '3' }) });
    const [delivery] = await settled(1);
    assert.equal(delivery.state, 'failed');
    assert.equal(delivery.status, null);
    assert.match(delivery.error ?? '', /ECONNREFUSED/);
  });

  it('refuses payload URLs off loopback, unknown events and unknown apps', async () => {
    for (const body of [
      { app_id: '102', payload_url: 'http://example.com/hook', events: ['record.created'] },
      { app_id: '102', payload_url: 'http://10.0.0.1/hook', events: ['record.created'] },
      { app_id: '102', payload_url: url, events: ['record.exploded'] },
      { app_id: '999', payload_url: url, events: ['record.created'] },
    ]) {
      const result = await call(running.emulator, 'POST', '/_emulator/webhooks', { body });
      assert.equal(result.status, 400, JSON.stringify(body));
    }
  });

  it('lists and deletes webhooks; reset forgets them', async () => {
    const id = await register({ events: ['record.created'], secret: 'x' });
    const listed = (await call(running.emulator, 'GET', '/_emulator/webhooks')).json as Array<Record<string, unknown>>;
    assert.deepEqual(listed, [{ id, app_id: '102', payload_url: url, events: ['record.created'], active: true, has_secret: true }]);
    assert.equal((await call(running.emulator, 'DELETE', `/_emulator/webhooks/${id}`)).status, 200);
    assert.deepEqual((await call(running.emulator, 'GET', '/_emulator/webhooks')).json, []);
    assert.equal((await call(running.emulator, 'DELETE', `/_emulator/webhooks/${id}`)).status, 404);
    await register({ events: ['record.created'] });
    await call(running.emulator, 'POST', '/_emulator/reset');
    assert.deepEqual((await call(running.emulator, 'GET', '/_emulator/webhooks')).json, []);
  });
});
