// PortalClient against the emulator over real HTTP: every endpoint, the answers' normalisation, and the
// write-response styles. Errors and filters have their own files.
import * as assert from 'node:assert/strict';
import { kindOfTypeName, type ColumnKind } from '../../../src/api/columnKinds';
import type { PortalClient } from '../../../src/api/client';
import { clientFor, configure, rejectsWith, startPortal, type Emulator } from './portal';

const CUSTOMERS = '101';
const ORDERS = '102';
const TICKETS = '201';
const KNOWLEDGE_BASE = '202';

describe('PortalClient against the emulator', function () {
  let emulator: Emulator;
  let client: PortalClient;

  before(async () => {
    emulator = await startPortal();
    ({ client } = clientFor(emulator));
  });
  after(() => emulator.close());

  it('lists the sites and their apps', async () => {
    const sites = await client.listSites();
    assert.deepEqual(
      sites.map((site) => [site.id, site.name, site.apps.map((app) => app.app_id)]),
      [
        ['1', 'Operations', [CUSTOMERS, ORDERS]],
        ['2', 'Support', [TICKETS, KNOWLEDGE_BASE]],
      ],
    );
    assert.equal(sites[0].manager, 'Grace Hopper');
  });

  it('lists the columns of the apps, every kind among them', async () => {
    const kinds = new Set<ColumnKind>();
    for (const appId of [CUSTOMERS, ORDERS, TICKETS, KNOWLEDGE_BASE]) {
      const columns = await client.listColumns(appId);
      assert.ok(columns.length > 5);
      for (const column of columns) {
        assert.match(column.field_id_in_data, /^f\d+$/);
        assert.equal(column.app_id, appId);
        kinds.add(kindOfTypeName(column.type_name, column.type));
      }
    }
    const expected: ColumnKind[] = [
      'text',
      'multiline',
      'email',
      'phone',
      'url',
      'number',
      'currency',
      'date',
      'datetime',
      'duration',
      'choice',
      'user',
      'autonumber',
      'lookup',
    ];
    assert.deepEqual([...kinds].sort(), [...expected].sort());
    const tags = (await client.listColumns(ORDERS)).find((column) => column.field_name === 'Tags');
    assert.equal(tags?.choice_type, '2');
    assert.ok(Array.isArray(tags?.choices) && tags.choices.length === 4);
  });

  it('creates, reads, updates and deletes a record (to trash)', async () => {
    const created = await client.createRecord(CUSTOMERS, { f2: 'Client test Ltd', f3: 'ct@example.com', f9: '21-11-2026' });
    assert.ok(created.id, 'the emulator sends the new id');
    assert.equal(created.data.f2, 'Client test Ltd');
    assert.equal(created.data.f9, '21-11-2026');
    assert.equal('id' in created.data, false, 'the id is not a field');

    const read = await client.readRecord(CUSTOMERS, created.id);
    assert.equal(read.id, created.id);
    assert.equal(read.draft, false);
    assert.equal(read.data.f3, 'ct@example.com');
    assert.ok(read.metadata.some((entry) => entry.field_id === '2' && entry.required === '1'));

    await client.updateRecord(CUSTOMERS, created.id, { f3: 'new@example.com', f4: '+1 555 0100' });
    const updated = await client.readRecord(CUSTOMERS, created.id);
    assert.equal(updated.data.f3, 'new@example.com');
    assert.equal(updated.data.f2, 'Client test Ltd', 'fields not sent are left alone');

    await client.deleteRecord(CUSTOMERS, created.id);
    await rejectsWith(client.readRecord(CUSTOMERS, created.id), { kind: 'http', status: 404, code: 'not_found' });
  });

  it('sends a value exactly, whatever characters it holds', async () => {
    const value = 'a&b=c+d %20 ü 😀 | "quoted"\nnext line';
    const created = await client.createRecord(ORDERS, { f11: value, f15: '01-01-2026', f17: '1' });
    assert.equal((await client.readRecord(ORDERS, created.id ?? '')).data.f11, value);
  });

  it('creates a draft and publishes it, with publishRecord or with an update', async () => {
    const first = await client.createRecord(ORDERS, { f11: 'Draft one', f15: '01-03-2026', f17: '10' }, { draft: true });
    assert.equal((await client.readRecord(ORDERS, first.id ?? '')).draft, true);
    await client.publishRecord(ORDERS, first.id ?? '');
    assert.equal((await client.readRecord(ORDERS, first.id ?? '')).draft, false);

    const second = await client.createRecord(ORDERS, { f11: 'Draft two', f15: '01-03-2026', f17: '10' }, { draft: true });
    await client.updateRecord(ORDERS, second.id ?? '', { f18: '3' }, { publish: true });
    const read = await client.readRecord(ORDERS, second.id ?? '');
    assert.deepEqual([read.draft, read.data.f18], [false, '3']);

    const plain = await client.createRecord(ORDERS, { f11: 'Not a draft', f15: '01-03-2026', f17: '10' });
    assert.equal((await client.readRecord(ORDERS, plain.id ?? '')).draft, false);
  });

  it('adds a comment', async () => {
    await client.addComment(CUSTOMERS, '1', 'Called them today: all good & <b>happy</b>.');
  });

  it('uploads an attachment with progress and downloads it as sent', async () => {
    const content = Buffer.alloc(300 * 1024);
    for (let i = 0; i < content.length; i += 1) content[i] = (i * 31) % 256;
    const progress: Array<[number, number]> = [];
    await client.addAttachment(
      ORDERS,
      '2',
      { fileName: 'quote ü.pdf', contentType: 'application/pdf', content },
      { onProgress: (sent, total) => progress.push([sent, total]) },
    );
    const total = progress[0][1];
    assert.ok(total > content.length, 'the total is the encoded multipart body');
    assert.deepEqual(progress[0], [0, total]);
    assert.deepEqual(progress[progress.length - 1], [total, total]);
    assert.ok(progress.length > 3, 'progress arrives in steps');
    for (let i = 1; i < progress.length; i += 1) assert.ok(progress[i][0] >= progress[i - 1][0]);

    const downloaded = await client.downloadAttachment(ORDERS, '2');
    assert.equal(downloaded.fileName, 'quote ü.pdf');
    assert.match(downloaded.contentType ?? '', /^application\/pdf/);
    assert.ok(Buffer.from(downloaded.content).equals(content), 'the same bytes come back');
  });

  it('says no_attachment for a record without one', async () => {
    await rejectsWith(client.downloadAttachment(CUSTOMERS, '3'), { kind: 'http', status: 404, code: 'no_attachment' });
  });

  it('reads a view: rows with id, draft and values keyed as the metadata says', async () => {
    const view = await client.readView(ORDERS, '3');
    assert.deepEqual(
      view.metadata.map((entry) => entry.field_id_in_data),
      ['f10', 'f11', 'f12', 'f13', 'f14', 'f15', 'f16', 'f17', 'f18', 'f19', 'f20', 'f21', 'f22'],
    );
    assert.ok(view.rows.length >= 8);
    const first = view.rows[0];
    assert.equal(first.id, '1');
    assert.equal(first.draft, false);
    assert.equal(first.values.f11, 'Office chairs');
    assert.equal(first.values.f13, 'Acme Corporation', 'a LookUp shows the linked record');
    assert.equal('id' in first.values || 'draft' in first.values, false, 'id and draft are not values');
    assert.ok(
      view.rows.some((row) => row.draft === true),
      'drafts are marked',
    );
  });

  it('reads the columns of a Lookup app under their l<N> keys', async () => {
    const view = await client.readView(ORDERS, '5');
    const lookups = view.metadata.filter((entry) => entry.field_id_in_data.startsWith('l'));
    assert.deepEqual(
      lookups.map((entry) => [entry.field_id_in_data, entry.app_id, entry.id]),
      [
        ['l3', CUSTOMERS, '3'],
        ['l4', CUSTOMERS, '4'],
        ['l6', CUSTOMERS, '6'],
      ],
    );
    assert.equal(view.rows[0].values.l3, 'orders@acme.example.com');
  });

  it('reads a view raw, as the JSON bytes the portal sent', async () => {
    const raw = await client.readViewRaw(KNOWLEDGE_BASE, '9');
    const parsed = JSON.parse(Buffer.from(raw).toString('utf8')) as { data: unknown[]; metadata: unknown[] };
    assert.equal(parsed.data.length, (await client.readView(KNOWLEDGE_BASE, '9')).rows.length);
  });

  it('reads the big view in full', async () => {
    const view = await client.readView(TICKETS, '6');
    assert.equal(view.rows.length, 300);
    assert.ok(view.rows.every((row) => typeof row.id === 'string' && typeof row.values.f31 === 'string'));
  });

  it('times its round trip to the portal from the last few small answers (the shortest), not from a view read', async () => {
    const { client: fresh } = clientFor(emulator);
    assert.equal(fresh.roundTripMs, undefined);
    await configure(emulator, { latencyMs: 80 });
    try {
      await fresh.readRecord(ORDERS, '1');
      assert.ok((fresh.roundTripMs ?? 0) >= 80, `${fresh.roundTripMs} ms`);
      await configure(emulator, { latencyMs: 0, bytesPerSecond: 200_000 });
      // Two views' answers of 80 KB, sent slowly (~400 ms each): they time a transfer, not a round trip.
      await fresh.readView(TICKETS, '6');
      await fresh.readView(TICKETS, '6');
      assert.ok((fresh.roundTripMs ?? 0) >= 80 && (fresh.roundTripMs ?? 0) < 300, `${fresh.roundTripMs} ms after the view reads`);
      await configure(emulator, { bytesPerSecond: 0 });
      for (let index = 0; index < 3; index += 1) await fresh.listColumns(CUSTOMERS);
      assert.ok((fresh.roundTripMs ?? 1000) < 80, `${fresh.roundTripMs} ms once the portal is near again`);
    } finally {
      await configure(emulator, { latencyMs: 0, bytesPerSecond: 0 });
    }
  });

  for (const style of ['json', 'empty', 'text'] as const) {
    it(`accepts the "${style}" answer to update, comment and attachment`, async () => {
      await configure(emulator, { writeResponse: style });
      try {
        await client.updateRecord(CUSTOMERS, '2', { f4: `+44 ${style.length}` });
        await client.addComment(CUSTOMERS, '2', `style ${style}`);
        await client.addAttachment(CUSTOMERS, '2', { fileName: `${style}.txt`, contentType: 'text/plain', content: Buffer.from(style) });
        assert.equal((await client.readRecord(CUSTOMERS, '2')).data.f4, `+44 ${style.length}`);
        assert.equal(Buffer.from((await client.downloadAttachment(CUSTOMERS, '2')).content).length > 0, true);
      } finally {
        await configure(emulator, { writeResponse: 'json' });
      }
    });
  }
});
