// The query session against the emulator: the chunks it sends add up to the view as the client reads it,
// the first chunk goes out before the rest, a bad filter is reported with its row, and a newer run wins.
import * as assert from 'node:assert/strict';
import type { HostToQueryMessage, QueryRowsMessage } from '../../../src/shared/protocol';
import { shownInPanel } from '../../../src/ui/failures';
import { csvLines } from '../../../src/webviews/viewQuery/exportRows';
import { FIRST_CHUNK_ROWS, ViewQuerySession } from '../../../src/webviews/viewQuery/querySession';
import { clientFor, configure, injectFault, startPortal, testInterface, type Emulator } from '../api/portal';

/** Costs that are set (an empty cell reads as 0). */
const row0 = (value: number): boolean => value > 0;

describe('ViewQuerySession', () => {
  let emulator: Emulator;
  before(async () => {
    emulator = await startPortal({ bigViewRecords: 1200 });
  });
  after(async () => emulator.close());

  function session(): { session: ViewQuerySession; messages: HostToQueryMessage[]; logged: string[] } {
    const messages: HostToQueryMessage[] = [];
    const logged: string[] = [];
    const { client } = clientFor(emulator);
    return {
      session: new ViewQuerySession(
        client,
        '201',
        '6',
        (message) => messages.push(message),
        shownInPanel((line) => logged.push(line)),
      ),
      messages,
      logged,
    };
  }

  it('reads selected positions only in the order they were chosen in (a sort or a newer run refuses them)', async () => {
    const { session: query } = session();
    await query.run(1, []);
    const unsorted = query.selectedRecordIds(1, 0, [{ start: 0, end: 3 }]);
    assert.equal(unsorted.length, 3);
    await query.sort(1, { key: 'f39', direction: 'descending' });
    assert.throws(() => query.selectedRecordIds(1, 0, [{ start: 0, end: 3 }]), /The order changed: select the rows again/);
    const sorted = query.selectedRecordIds(1, 1, [{ start: 0, end: 3 }]);
    assert.notDeepEqual(sorted, unsorted, "the sorted order differs from the portal's");
    await query.run(2, []);
    assert.throws(() => query.selectedRecordIds(1, 1, [{ start: 0, end: 3 }]), /The order changed: select the rows again/);
  });

  it("keeps an export's rows and their order together when a newer run is read and sorted meanwhile", async () => {
    const { session: query } = session();
    await query.run(1, []);
    await query.sort(1, { key: 'f39', direction: 'descending' });
    const snapshot = query.snapshot();
    assert.ok(snapshot?.order, 'a sorted result');
    const before = [...csvLines(snapshot.result.columns, snapshot.result.rows, snapshot.order)];
    const order = [...snapshot.order];
    // While the save dialog is up (the export keeps its rows, as the panel does): a narrower run, sorted another way.
    await query.reading(snapshot.result.rows, async () => {
      await query.run(2, [{ column: '35', operator: 'equals', value: '1' }]);
      await query.sort(2, { key: 'f39', direction: 'ascending' });
      assert.ok(
        (query.result?.rows.length ?? 0) < snapshot.result.rows.length,
        `the newer result is smaller: ${query.result?.rows.length} of ${snapshot.result.rows.length}`,
      );
      assert.notDeepEqual([...(query.order ?? [])], order, "the session's order is now the newer result's (what the export read before)");
      assert.deepEqual([...(snapshot.order ?? [])], order, 'the snapshot keeps its own order');
      assert.deepEqual(
        [...csvLines(snapshot.result.columns, snapshot.result.rows, snapshot.order)],
        before,
        'every line, in the order it had',
      );
    });
  });

  it('sends the first screenful at once, keeps the rest, and answers windows in the current order', async () => {
    const { session: query, messages } = session();
    await query.run(1, []);
    const { client } = clientFor(emulator);
    const view = await client.readView('201', '6');
    const keys = view.metadata.map((entry) => entry.field_id_in_data);
    const expectedRow = (index: number): string[] => {
      const row = view.rows[index];
      return [row.id ?? '', row.draft ? '1' : '0', ...keys.map((key) => row.values[key])];
    };
    assert.equal(messages[0].type, 'query/result');
    const rowsMessages = (): QueryRowsMessage[] => messages.filter((message): message is QueryRowsMessage => message.type === 'query/rows');
    const [first] = rowsMessages();
    assert.equal(first.start, 0);
    assert.equal(first.rows.length, FIRST_CHUNK_ROWS, 'only a screenful is sent unasked');
    first.rows.forEach((row, index) => assert.deepEqual(row, expectedRow(index)));
    // 1,200 rows are the first batch and one more: its count comes with 'done', not in a progress message too.
    assert.deepEqual(messages.map((message) => message.type).slice(0, 2), ['query/result', 'query/rows']);
    assert.equal(messages.filter((message) => message.type === 'query/progress').length, 0);
    assert.deepEqual(messages[messages.length - 1], { type: 'query/done', runId: 1, total: view.rows.length });
    assert.equal(query.result?.rows.length, view.rows.length, 'the whole result is kept for windows and export');

    await query.window(1, 0, 1000, 1100);
    const window = rowsMessages().pop();
    assert.equal(window?.start, 1000);
    assert.deepEqual(
      window?.rows,
      Array.from({ length: 100 }, (_, index) => expectedRow(1000 + index)),
    );
    await query.window(1, 0, view.rows.length - 5, view.rows.length + 50);
    assert.equal(rowsMessages().pop()?.rows.length, 5, 'clamped to the rows there are');

    await query.sort(1, { key: 'f39', direction: 'descending' });
    const sorted = messages[messages.length - 1];
    assert.deepEqual(sorted, { type: 'query/sorted', runId: 1, sortVersion: 1, sort: { key: 'f39', direction: 'descending' } });
    const before = rowsMessages().length;
    await query.window(1, 0, 0, 10);
    assert.equal(rowsMessages().length, before, 'a window asked for in the old order is not answered');
    await query.window(1, 1, 0, 10);
    const top = rowsMessages().pop()?.rows ?? [];
    const costs = view.rows.map((row) => Number(row.values.f39)).filter((value) => !Number.isNaN(value) && row0(value));
    assert.equal(Number(top[0][2 + keys.indexOf('f39')]), Math.max(...costs), 'the highest cost of the whole result first');
  });

  it('reads on while the page has not taken its messages yet, as VS Code delivers them in order without waiting', async () => {
    // webview.postMessage resolves only after a round trip to the workbench: a run that waited for each
    // would hold up the rest of the answer (and the final count) behind it. Here no message is ever taken
    // until the run has ended: a run that waits never ends, and the test times out.
    const messages: HostToQueryMessage[] = [];
    const taken: Array<(ok: boolean) => void> = [];
    const { client } = clientFor(emulator);
    const post = (message: HostToQueryMessage): Promise<boolean> => {
      messages.push(message);
      return new Promise<boolean>((resolve, reject) => taken.push((ok) => (ok ? resolve(true) : reject(new Error('Webview is disposed')))));
    };
    const query = new ViewQuerySession(
      client,
      '201',
      '6',
      post,
      shownInPanel(() => undefined),
    );
    await query.run(1, []);
    assert.deepEqual(
      messages.map((message) => message.type),
      ['query/result', 'query/rows', 'query/done'],
    );
    // The page closed meanwhile: its messages are refused, and that is no unhandled rejection.
    for (const take of taken) take(false);
    await new Promise((resolve) => setImmediate(resolve));
    query.dispose();
  });

  it('reports a filter the portal refuses, naming its row, in the panel and in one log line', async () => {
    const { session: query, messages, logged } = session();
    await query.run(2, [
      { column: '31', operator: 'contains', value: 'desk' },
      { column: '37', operator: 'lessThan', value: 'yesterday' },
    ]);
    const failed = messages.find((message) => message.type === 'query/failed');
    assert.ok(failed && failed.type === 'query/failed', JSON.stringify(messages.map((message) => message.type)));
    assert.equal(failed.runId, 2);
    assert.match(failed.message, /Due|37|date/);
    assert.deepEqual(logged, [`portal.viewQuery query/run: ${failed.message}`]);
  });

  it('refuses locally what cannot be encoded, naming the row', async () => {
    const { session: query, messages } = session();
    await query.run(3, [{ column: '31', operator: 'contains', value: 'a|b' }]);
    const failed = messages.find((message) => message.type === 'query/failed');
    assert.deepEqual(failed && failed.type === 'query/failed' ? failed.filterIndex : undefined, 0);
  });

  it('keeps the rows read before a connection dropped midway, visible and marked partial', async () => {
    const { session: query, messages, logged } = session();
    await injectFault(emulator, { path: '/view/', drop_after_bytes: 150_000 });
    await query.run(6, []);
    const done = messages.find((message) => message.type === 'query/done');
    assert.ok(done && done.type === 'query/done', JSON.stringify(messages.map((message) => message.type)));
    assert.ok(done.total > 400 && done.total < 600, `${done.total} rows read`);
    assert.match(done.partial ?? '', /connection.*\d+ rows were read before it broke off/);
    assert.equal(query.result?.rows.length, done.total, 'kept for the grid, sorting and export');
    assert.equal(messages.filter((message) => message.type === 'query/failed').length, 0);
    assert.deepEqual(logged, [], 'a partial result is no failure');
    await query.sort(6, { key: 'f39', direction: 'ascending' });
    assert.equal(messages.at(-1)?.type, 'query/sorted', 'what arrived can be sorted');
  });

  it('stops reading on cancel and keeps what arrived, marked partial', async () => {
    await configure(emulator, { bytesPerSecond: 100_000 });
    try {
      const { session: query, messages, logged } = session();
      const running = query.run(7, []);
      while (!messages.some((message) => message.type === 'query/rows')) await new Promise((resolve) => setTimeout(resolve, 20));
      query.cancel(7);
      await running;
      const done = messages.filter((message) => message.type === 'query/done');
      assert.equal(done.length, 1);
      assert.deepEqual(logged, [], 'a cancelled run shows nothing and logs nothing');
      assert.ok(
        done[0].type === 'query/done' && done[0].total > 0 && done[0].total < 1200 && /Cancelled after/.test(done[0].partial ?? ''),
        JSON.stringify(done[0]),
      );
      // What arrived stays readable: the grid's windows, sorting and export read it after the cancel.
      const total = done[0].type === 'query/done' ? done[0].total : 0;
      await query.window(7, 0, total - 3, total);
      const last = messages.filter((message): message is QueryRowsMessage => message.type === 'query/rows').at(-1);
      assert.deepEqual(
        last?.rows.map((row) => row[0]),
        [total - 2, total - 1, total].map(String),
      );
      assert.equal(query.result?.rows.isReleased, false);
      await query.sort(7, { key: 'f39', direction: 'ascending' });
      assert.equal(messages.at(-1)?.type, 'query/sorted');
    } finally {
      await testInterface(emulator, 'POST', 'reset');
    }
  });

  it("names the grid's columns from the metadata that follows the rows (a Lookup app's column too)", async () => {
    const messages: HostToQueryMessage[] = [];
    const { client } = clientFor(emulator);
    const query = new ViewQuerySession(
      client,
      '201',
      '8',
      (message) => messages.push(message),
      shownInPanel(() => undefined),
    );
    await query.run(8, []);
    const results = messages.filter((message) => message.type === 'query/result');
    const last = results.at(-1);
    assert.ok(last && last.type === 'query/result');
    assert.deepEqual(
      last.columns.map((column) => column.name),
      ['Ticket no.', 'Subject', 'Customer', 'Tier', 'Priority', 'State'],
    );
    assert.equal(results.length, 2, "first the first row's keys (l6 unnamed yet), then the metadata's names");
    query.dispose();
    assert.equal(query.result, undefined);
  });

  it("shows a saved query's columns in its order and its rows in its sort once they are in", async () => {
    const plain = session();
    await plain.session.run(1, []);
    const all = plain.messages.filter((message) => message.type === 'query/result').at(-1);
    assert.ok(all && all.type === 'query/result');
    const [first, second, third] = all.columns.map((column) => column.key);
    plain.session.dispose();

    const { session: query, messages } = session();
    const sort = { key: first, direction: 'descending' as const };
    await query.run(2, [], { columns: [third, first, 'not-a-column'], sort });
    const result = messages.filter((message) => message.type === 'query/result').at(-1);
    assert.ok(result && result.type === 'query/result');
    assert.deepEqual(
      result.columns.map((column) => column.key),
      [third, first],
      "the query's columns, in its order; one the view lacks is left out",
    );
    const types = messages.map((message) => message.type);
    const sorted = messages.find((message) => message.type === 'query/sorted');
    assert.deepEqual(sorted, { type: 'query/sorted', runId: 2, sortVersion: 1, sort });
    assert.ok(types.lastIndexOf('query/sorted') < types.indexOf('query/done'), 'sorted before done');
    const window = messages.find((message): message is QueryRowsMessage => message.type === 'query/rows' && message.sortVersion === 1);
    assert.ok(window, 'the first rows again, in the sorted order');
    assert.equal(window.rows[0].length, 4, 'id, draft and the two columns');
    assert.ok(query.order, 'the result is kept in that order (export follows it)');
    assert.notEqual(second, undefined);
    query.dispose();
  });

  it('drops an older run when a newer one starts, silently', async () => {
    const { session: query, messages, logged } = session();
    const first = query.run(4, []);
    const second = query.run(5, [{ column: '35', operator: 'equals', value: '1' }]);
    await Promise.all([first, second]);
    assert.equal(messages.filter((message) => 'runId' in message && message.runId === 4 && message.type === 'query/done').length, 0);
    assert.equal(messages.filter((message) => message.type === 'query/done').length, 1);
    assert.deepEqual(logged, []);
    assert.equal(messages.filter((message) => message.type === 'query/failed').length, 0);
  });
});
