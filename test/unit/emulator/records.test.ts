import * as assert from 'node:assert/strict';
import type { ReadRecordResponse } from '../../../src/api/types';
import { call, form, nestedError, useSeededEmulator } from './helpers';

const ORDERS = '102';
const CUSTOMERS = '101';
const KNOWLEDGE_BASE = '202';

describe('emulator: records', () => {
  const running = useSeededEmulator();

  const order = (extra: Record<string, string> = {}) => form({ f11: 'Paper', f15: '03-03-2026', f17: '12.50', ...extra });

  it('creates a record and answers its values keyed by field_id_in_data, with its id, all as strings', async () => {
    const created = await call(running.emulator, 'POST', `/api/v1/app/${ORDERS}/record/`, {
      token: running.token,
      body: order({ f12: '1', f18: '3' }),
    });
    assert.equal(created.status, 200);
    const body = created.json as Record<string, unknown>;
    assert.equal(body.id, '9');
    assert.equal(body.f11, 'Paper');
    assert.equal(body.f10, '5009', 'Auto Number assigned');
    assert.equal(body.f13, 'Acme Corporation', 'LookUp read through the link');
    assert.equal(body.f19, '1', 'Choice default applied');
    assert.ok(Object.values(body).every((value) => typeof value === 'string'));
  });

  it('reads a record with data, metadata, id and draft', async () => {
    const read = await call(running.emulator, 'GET', `/api/v1/app/${CUSTOMERS}/record/1`, { token: running.token });
    assert.equal(read.status, 200);
    const body = read.json as ReadRecordResponse;
    assert.equal(body.data.f2, 'Acme Corporation');
    assert.equal(body.id, '1');
    assert.equal(body.draft, '0');
    const name = body.metadata.find((entry) => entry.field_id === '2');
    assert.deepEqual(name, {
      app_id: CUSTOMERS,
      field_id: '2',
      field_name: 'Name',
      field_description: 'Company name as on the contract',
      type: '0',
      type_name: 'Text Field',
      position: '2',
      required: '1',
    });
  });

  it('updates the given fields only and answers {"success": "1"}', async () => {
    const updated = await call(running.emulator, 'PUT', `/api/v1/app/${CUSTOMERS}/record/2`, {
      token: running.token,
      body: form({ f4: '+49 30 1234' }),
    });
    assert.equal(updated.status, 200);
    assert.deepEqual(updated.json, { success: '1' });
    const read = (await call(running.emulator, 'GET', `/api/v1/app/${CUSTOMERS}/record/2`, { token: running.token }))
      .json as ReadRecordResponse;
    assert.equal(read.data.f4, '+49 30 1234');
    assert.equal(read.data.f2, 'Globex');
  });

  it('refuses an empty update', async () => {
    const updated = await call(running.emulator, 'PUT', `/api/v1/app/${CUSTOMERS}/record/2`, { token: running.token, body: form({}) });
    assert.equal(updated.status, 400);
    assert.equal(nestedError(updated).code, 'invalid_request');
  });

  it('deletes to trash: the record is then neither readable, updatable nor deletable', async () => {
    const deleted = await call(running.emulator, 'DELETE', `/api/v1/app/${CUSTOMERS}/record/3`, { token: running.token });
    assert.deepEqual(deleted.json, { deleted: { id: '3', deleted: '1' } });
    for (const [method, body] of [['GET'], ['PUT', form({ f2: 'x' })], ['DELETE']] as const) {
      const again = await call(running.emulator, method, `/api/v1/app/${CUSTOMERS}/record/3`, { token: running.token, body });
      assert.equal(again.status, 404, method);
      assert.equal(nestedError(again).code, 'not_found');
    }
    const raw = (await call(running.emulator, 'GET', `/_emulator/records/${CUSTOMERS}/3`)).json as { trashed: boolean };
    assert.equal(raw.trashed, true, 'archived, not destroyed');
  });

  it('creates a Draft with draft "1" in a Draft-mode app and publishes it with draft "0"', async () => {
    const created = (
      await call(running.emulator, 'POST', `/api/v1/app/${ORDERS}/record/`, { token: running.token, body: order({ draft: '1' }) })
    ).json as { id: string };
    const read = async () =>
      (await call(running.emulator, 'GET', `/api/v1/app/${ORDERS}/record/${created.id}`, { token: running.token }))
        .json as ReadRecordResponse;
    assert.equal((await read()).draft, '1');
    await call(running.emulator, 'PUT', `/api/v1/app/${ORDERS}/record/${created.id}`, { token: running.token, body: form({ f18: '2' }) });
    assert.equal((await read()).draft, '1', 'an update without draft keeps the Draft');
    await call(running.emulator, 'PUT', `/api/v1/app/${ORDERS}/record/${created.id}`, { token: running.token, body: form({ draft: '0' }) });
    assert.equal((await read()).draft, '0');
    await call(running.emulator, 'PUT', `/api/v1/app/${ORDERS}/record/${created.id}`, { token: running.token, body: form({ draft: '1' }) });
    assert.equal((await read()).draft, '0', 'Published does not go back to Draft');
  });

  it('creates a Published record when draft is not "1"', async () => {
    const created = (
      await call(running.emulator, 'POST', `/api/v1/app/${ORDERS}/record/`, { token: running.token, body: order({ draft: 'yes' }) })
    ).json as { id: string };
    const read = (await call(running.emulator, 'GET', `/api/v1/app/${ORDERS}/record/${created.id}`, { token: running.token }))
      .json as ReadRecordResponse;
    assert.equal(read.draft, '0');
  });

  it('ignores draft in an app without Draft mode', async () => {
    const created = (
      await call(running.emulator, 'POST', `/api/v1/app/${CUSTOMERS}/record/`, {
        token: running.token,
        body: form({ f2: 'New Co', draft: '1' }),
      })
    ).json as { id: string };
    const read = (await call(running.emulator, 'GET', `/api/v1/app/${CUSTOMERS}/record/${created.id}`, { token: running.token }))
      .json as ReadRecordResponse;
    assert.equal(read.draft, '0');
  });

  it('adds a comment, and refuses one when the comments plugin is off', async () => {
    const added = await call(running.emulator, 'POST', `/api/v1/app/${ORDERS}/record/1/comment`, {
      token: running.token,
      body: form({ comment: 'Shipped early' }),
    });
    assert.equal(added.status, 200);
    assert.deepEqual(added.json, { success: '1' });
    const raw = (await call(running.emulator, 'GET', `/_emulator/records/${ORDERS}/1`)).json as { comments: Array<{ comment: string }> };
    assert.deepEqual(
      raw.comments.map((c) => c.comment),
      ['Shipped early'],
    );
    const refused = await call(running.emulator, 'POST', `/api/v1/app/${KNOWLEDGE_BASE}/record/1/comment`, {
      token: running.token,
      body: form({ comment: 'Hello' }),
    });
    assert.equal(refused.status, 403);
    assert.equal(nestedError(refused).code, 'comments_disabled');
    assert.match(nestedError(refused).message, /comments plugin/);
  });

  it('refuses an empty comment, naming the parameter', async () => {
    const refused = await call(running.emulator, 'POST', `/api/v1/app/${ORDERS}/record/1/comment`, {
      token: running.token,
      body: form({ comment: '  ' }),
    });
    assert.equal(refused.status, 400);
    assert.deepEqual(nestedError(refused).field, 'comment');
  });

  it('answers 404 for an unknown app, record or endpoint', async () => {
    assert.equal(nestedError(await call(running.emulator, 'GET', '/api/v1/app/999/record/1', { token: running.token })).code, 'not_found');
    assert.equal((await call(running.emulator, 'GET', `/api/v1/app/${ORDERS}/record/999`, { token: running.token })).status, 404);
    assert.equal((await call(running.emulator, 'GET', `/api/v1/app/${ORDERS}/record/abc`, { token: running.token })).status, 404);
    assert.equal((await call(running.emulator, 'GET', '/api/v1/nothing', { token: running.token })).status, 404);
  });

  it('takes the documented path exactly: create needs its trailing slash', async () => {
    const withoutSlash = await call(running.emulator, 'POST', `/api/v1/app/${ORDERS}/record`, { token: running.token, body: order() });
    assert.equal(withoutSlash.status, 404);
  });

  it('refuses a body that is not form-encoded', async () => {
    const json = await call(running.emulator, 'POST', `/api/v1/app/${ORDERS}/record/`, {
      token: running.token,
      body: { f11: 'x', f15: '01-01-2026', f17: '1' },
    });
    assert.equal(json.status, 400);
    assert.equal(nestedError(json).code, 'invalid_request');
    assert.match(nestedError(json).message, /form/);
    const multipart = new FormData();
    multipart.append('f11', 'x');
    const asMultipart = await call(running.emulator, 'PUT', `/api/v1/app/${ORDERS}/record/1`, { token: running.token, body: multipart });
    assert.equal(nestedError(asMultipart).code, 'invalid_request');
  });
});
