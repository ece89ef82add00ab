// The query session against the emulator: the chunks it sends add up to the view as the client reads it,
// the first chunk goes out before the rest, a bad filter is reported with its row, and a newer run wins.
import * as assert from 'node:assert/strict';
import type { HostToQueryMessage, QueryRowsMessage } from '../../../src/shared/protocol';
import { FIRST_CHUNK_ROWS, ViewQuerySession } from '../../../src/webviews/viewQuery/querySession';
import { clientFor, startPortal, type Emulator } from '../api/portal';

describe('ViewQuerySession', () => {
  let emulator: Emulator;
  before(async () => {
    emulator = await startPortal({ bigViewRecords: 1200 });
  });
  after(async () => emulator.close());

  function session(): { session: ViewQuerySession; messages: HostToQueryMessage[] } {
    const messages: HostToQueryMessage[] = [];
    const { client } = clientFor(emulator);
    return { session: new ViewQuerySession(client, '201', '6', (message) => messages.push(message)), messages };
  }

  it('sends the whole view in order: first a screenful, then chunks, then the total', async () => {
    const { session: query, messages } = session();
    await query.run(1, []);
    const { client } = clientFor(emulator);
    const view = await client.readView('201', '6');
    assert.equal(messages[0].type, 'query/result');
    const chunks = messages.filter((message): message is QueryRowsMessage => message.type === 'query/rows');
    assert.equal(chunks[0].rows.length, FIRST_CHUNK_ROWS);
    const rows = chunks.flatMap((chunk) => chunk.rows);
    assert.equal(rows.length, view.rows.length);
    const keys = view.metadata.map((entry) => entry.field_id_in_data);
    rows.forEach((row, index) => {
      const expected = view.rows[index];
      assert.deepEqual(row, [expected.id, expected.draft ? '1' : '0', ...keys.map((key) => expected.values[key])], `row ${index}`);
    });
    assert.deepEqual(messages[messages.length - 1], { type: 'query/done', runId: 1, total: view.rows.length });
    assert.equal(query.result?.rows.length, view.rows.length, 'kept for export');
  });

  it('reports a filter the portal refuses, naming its row', async () => {
    const { session: query, messages } = session();
    await query.run(2, [
      { column: '31', operator: 'contains', value: 'desk' },
      { column: '37', operator: 'lessThan', value: 'yesterday' },
    ]);
    const failed = messages.find((message) => message.type === 'query/failed');
    assert.ok(failed && failed.type === 'query/failed', JSON.stringify(messages.map((message) => message.type)));
    assert.equal(failed.runId, 2);
    assert.match(failed.message, /Due|37|date/);
  });

  it('refuses locally what cannot be encoded, naming the row', async () => {
    const { session: query, messages } = session();
    await query.run(3, [{ column: '31', operator: 'contains', value: 'a|b' }]);
    const failed = messages.find((message) => message.type === 'query/failed');
    assert.deepEqual(failed && failed.type === 'query/failed' ? failed.filterIndex : undefined, 0);
  });

  it('drops an older run when a newer one starts', async () => {
    const { session: query, messages } = session();
    const first = query.run(4, []);
    const second = query.run(5, [{ column: '35', operator: 'equals', value: '1' }]);
    await Promise.all([first, second]);
    assert.equal(messages.filter((message) => 'runId' in message && message.runId === 4 && message.type === 'query/done').length, 0);
    assert.equal(messages.filter((message) => message.type === 'query/done').length, 1);
  });
});
