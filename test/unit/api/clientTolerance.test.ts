// Answers a real portal may give where the documentation is silent, served by the emulator's fault
// injection (status 200 with another body): the client must read them without crashing, and say what is
// wrong only when something documented is missing or a write says it failed.
import * as assert from 'node:assert/strict';
import type { PortalClient } from '../../../src/api/client';
import { clientFor, injectFault, rejectsWith, startPortal, testInterface, type Emulator } from './portal';

describe('PortalClient with answers shaped otherwise', function () {
  let emulator: Emulator;
  let client: PortalClient;

  before(async () => {
    emulator = await startPortal();
    ({ client } = clientFor(emulator));
  });
  afterEach(() => testInterface(emulator, 'DELETE', 'faults'));
  after(() => emulator.close());

  function answer(path: string, body: unknown, method = 'GET'): Promise<unknown> {
    return injectFault(emulator, { path, method, status: 200, body });
  }

  it('a read record without id and draft, with numbers and nulls for strings', async () => {
    await answer('^/api/v1/app/101/record/5$', {
      data: { f2: 'Numbers Inc', f6: 3, f8: null, f9: '01-01-2020' },
      metadata: [{ app_id: 101, field_id: 2, field_name: 'Name', type: '0', type_name: 'Text Field', position: '1', required: '1' }],
      audit: { by: 'ann' },
    });
    const record = await client.readRecord('101', '5');
    assert.equal(record.id, '5', 'the id asked for');
    assert.equal(record.draft, undefined, 'unknown, not false');
    assert.deepEqual(record.data, { f2: 'Numbers Inc', f6: '3', f8: '', f9: '01-01-2020' });
    assert.equal(record.metadata.length, 1);
  });

  it('view rows keyed record_id, with numeric ids and true/false drafts', async () => {
    await answer('^/api/v1/app/101/view/1$', {
      data: [{ record_id: 7, f2: 'A', draft: true }, { record_id: '8', f2: 'B', f6: 2, draft: 0 }, { f2: 'C' }],
      metadata: [
        {
          view_id: '1',
          field_id_in_data: 'f2',
          field_name: 'Name',
          field_description: '',
          app_id: '101',
          id: '2',
          type_name: 'Text Field',
        },
      ],
      total: 3,
    });
    const view = await client.readView('101', '1');
    assert.deepEqual(
      view.rows.map((row) => [row.id, row.draft, row.values]),
      [
        ['7', true, { f2: 'A' }],
        ['8', false, { f2: 'B', f6: '2' }],
        [undefined, undefined, { f2: 'C' }],
      ],
    );
  });

  it('a view without metadata, or with a row that is not an object, is an invalid response naming it', async () => {
    await answer('^/api/v1/app/101/view/1$', { data: [] });
    assert.match((await rejectsWith(client.readView('101', '1'), { kind: 'invalid-response' })).message, /no "metadata"/);
    await answer('^/api/v1/app/101/view/1$', { data: [{ id: '1' }, 'row'], metadata: [] });
    assert.match((await rejectsWith(client.readView('101', '1'), { kind: 'invalid-response' })).message, /row 2 is not an object/);
  });

  it('a create answer wrapped in "data", or without an id', async () => {
    await answer('^/api/v1/app/101/record/$', { data: { f2: 'Wrapped', id: 42 } }, 'POST');
    assert.deepEqual(await client.createRecord('101', { f2: 'Wrapped' }), { id: '42', data: { f2: 'Wrapped', id: '42' } });
    await answer('^/api/v1/app/101/record/$', { f2: 'No id' }, 'POST');
    assert.deepEqual(await client.createRecord('101', { f2: 'No id' }), { id: undefined, data: { f2: 'No id' } });
  });

  it('columns and sites with extra fields keep them; a column without its key is named', async () => {
    const columns = await client.listColumns('102');
    const amount = columns.find((column) => column.field_id_in_data === 'f17');
    assert.equal(amount?.currency_symbol, '€', 'undocumented currency_symbol kept');
    assert.equal(columns.find((column) => column.field_id_in_data === 'f13')?.lookup_app_id, '101');
    await answer('^/api/v1/app/102/columns$', [{ field_id: 5, type: 0, field_name: 'No key' }]);
    assert.match(
      (await rejectsWith(client.listColumns('102'), { kind: 'invalid-response' })).message,
      /column 1 has no "field_id_in_data"/,
    );
    await answer('^/api/v1/site$', [{ id: 1, name: 'Numbers', apps: [{ app_id: 9 }], region: 'eu' }]);
    const [site] = await client.listSites();
    assert.deepEqual([site.id, site.name, site.manager, site.apps, site.region], ['1', 'Numbers', '', [{ app_id: '9', name: '' }], 'eu']);
  });

  it('a write whose answer says it failed is not taken as done', async () => {
    await answer('^/api/v1/app/101/record/1$', { success: '0' }, 'PUT');
    await rejectsWith(client.updateRecord('101', '1', { f4: '1' }), { kind: 'invalid-response' });
    await answer('^/api/v1/app/101/record/1$', { deleted: { id: '1', deleted: '0' } }, 'DELETE');
    await rejectsWith(client.deleteRecord('101', '1'), { kind: 'invalid-response' });
    await answer('^/api/v1/app/101/record/1$', { done: true }, 'PUT');
    await client.updateRecord('101', '1', { f4: '1' });
  });

  it('an attachment without Content-Disposition', async () => {
    await injectFault(emulator, { path: '^/api/v1/app/101/record/1/attachment$', method: 'GET', status: 200, body: 'plain bytes' });
    const file = await client.downloadAttachment('101', '1');
    assert.equal(file.fileName, undefined);
    assert.equal(Buffer.from(file.content).toString(), 'plain bytes');
  });
});
