// Go to Record as the user types (RecordFinder): each keystroke's matches are those a whole search finds,
// also when a query is narrowed from the last one's matches or searched again as rows are indexed; a
// keystroke drops the search under way; the pick's items are set again only when the rows found change.
import * as assert from 'node:assert/strict';
import type { RowStore } from '../../../src/api/rowStore';
import { RecordFinder, type RecordPickItem, type RecordPickSink } from '../../../src/catalog/recordFinder';
import { RecordIndex } from '../../../src/catalog/recordIndex';
import { clientFor, startPortal, type Emulator } from '../api/portal';

const COLUMNS = { titleKey: 'f31', textKeys: ['f31', 'f33', 'f40', 'f41'] };

/** A quick pick that counts how often its items are set. */
class Sink implements RecordPickSink {
  sets = 0;
  busy = false;
  refreshes = 0;
  private shown: readonly RecordPickItem[] = [];
  get items(): readonly RecordPickItem[] {
    return this.shown;
  }
  set items(items: readonly RecordPickItem[]) {
    this.sets += 1;
    this.shown = items;
  }
  refreshed(): void {
    this.refreshes += 1;
  }
}

describe('Go to Record: finding as the user types', () => {
  let emulator: Emulator;
  let rows: RowStore;
  before(async () => {
    emulator = await startPortal({ bigViewRecords: 20_000 });
    rows = (await clientFor(emulator).client.streamView('201', '6', [])).rows;
  });
  after(async () => {
    rows.release();
    await emulator.close();
  });

  /** Types `text` key by key, waiting for each keystroke's search to end; the shown queries in order. */
  async function typeInto(finder: RecordFinder, text: string, shown: string[]): Promise<void> {
    for (let length = 1; length <= text.length; length += 1) {
      const query = text.slice(0, length);
      finder.find(query);
      while (shown.at(-1) !== query) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  it('shows for each keystroke what a whole search finds, narrowing from the last matches', async () => {
    const index = new RecordIndex(rows, COLUMNS);
    index.extend();
    const whole = new RecordIndex(rows, COLUMNS);
    whole.extend();
    const sink = new Sink();
    const shown: string[] = [];
    const finder = new RecordFinder(index, rows, undefined, sink, { limit: 50, sliceMs: 1 }, (query) => shown.push(query));
    for (const text of ['user1999@customers', 'laptop lyon', 'tyrell', '4321', 'zzzz nothing']) {
      await typeInto(finder, text, shown);
      assert.deepEqual(
        sink.items.map((item) => item.recordId),
        whole.search(text, 50).map((row) => rows.row(row).id),
        text,
      );
    }
    assert.equal(sink.busy, false);
  });

  it('drops the search under way when the user types on: only the last query is shown', async () => {
    const index = new RecordIndex(rows, COLUMNS);
    index.extend();
    const sink = new Sink();
    const shown: string[] = [];
    const finder = new RecordFinder(index, rows, undefined, sink, { limit: 50, sliceMs: 0 }, (query) => shown.push(query));
    finder.find('user1999@customers');
    finder.find('zzz');
    finder.find('berlin printer');
    while (!shown.includes('berlin printer')) await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(shown, ['berlin printer']);
    assert.deepEqual(
      sink.items.map((item) => item.recordId),
      index.search('berlin printer', 50).map((row) => rows.row(row).id),
    );
    assert.ok(sink.items.length > 0);
  });

  it('says the view was refreshed, rather than throwing, when the rows it searched were released', async () => {
    const own = (await clientFor(emulator).client.streamView('201', '6', [])).rows;
    const index = new RecordIndex(own, COLUMNS);
    index.extend();
    const sink = new Sink();
    const shown: string[] = [];
    const finder = new RecordFinder(index, own, undefined, sink, { limit: 50, sliceMs: 1_000 }, (query) => shown.push(query));
    await typeInto(finder, 'tyrell', shown);
    assert.ok(sink.items.length > 0);
    own.release(); // the view was refreshed while the pick is open
    assert.doesNotThrow(() => finder.find('berlin printer'));
    assert.doesNotThrow(() => finder.indexed());
    assert.equal(sink.refreshes > 0, true, 'the pick is told the view was refreshed');
    assert.deepEqual(sink.items, [], 'no items of rows that are gone');
    assert.equal(sink.busy, false);
    assert.equal(finder.searching, false);
  });

  it('sets the items again only when the rows found change, and searches again as rows are indexed', async () => {
    const index = new RecordIndex(rows, COLUMNS);
    index.extend(2_000);
    const sink = new Sink();
    const shown: string[] = [];
    const finder = new RecordFinder(index, rows, undefined, sink, { limit: 50 }, (query) => shown.push(query));
    await typeInto(finder, '12345', shown);
    assert.equal(sink.items.length, 0, 'record 12345 is not indexed yet');
    const sets = sink.sets;
    finder.find('12345');
    while (shown.length < 6) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(sink.sets, sets, 'the same rows: the items are not sent again');
    index.extend();
    finder.indexed();
    while (shown.length < 7) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(sink.items[0]?.recordId, '12345', 'found once indexed, first as its id was typed');
  });
});
