// Go to Record's search over a view's rows as the emulator sends them: by id, title and text columns,
// every word of the query, the record with that id first, built in slices while rows arrive.
import * as assert from 'node:assert/strict';
import type { RowStore } from '../../../src/api/rowStore';
import { RecordIndex } from '../../../src/catalog/recordIndex';
import { clientFor, startPortal, type Emulator } from '../api/portal';

describe('Go to Record: the record index', () => {
  let emulator: Emulator;
  let rows: RowStore;
  before(async () => {
    emulator = await startPortal({ bigViewRecords: 5_000 });
    rows = (await clientFor(emulator).client.streamView('201', '6', [])).rows;
  });
  after(async () => {
    rows.release();
    await emulator.close();
  });

  const index = (): RecordIndex => {
    const built = new RecordIndex(rows, { titleKey: 'f31', textKeys: ['f31', 'f33', 'f40', 'f41'] });
    built.extend();
    return built;
  };
  const ids = (found: number[]): string[] => found.map((row) => rows.row(row).id ?? '');

  it('finds by title words in any order, every word required, in the view order', () => {
    const found = index().search('BERLIN printer', 50);
    assert.ok(found.length > 0);
    for (const row of found) {
      const subject = rows.row(row).values.f31.toLowerCase();
      assert.ok(subject.includes('printer') && subject.includes('berlin'), subject);
    }
    assert.deepEqual(
      found,
      [...found].sort((a, b) => a - b),
    );
  });

  it('puts the record whose id is typed first, then other matches', () => {
    const found = index().search('1234', 10);
    assert.equal(rows.row(found[0]).id, '1234');
    assert.ok(found.length > 1, 'other records holding 1234 (ticket no. 101234, e-mails) follow');
    assert.equal(ids(found).filter((id) => id === '1234').length, 1, 'once');
  });

  it('finds by a text column that is not the title (e-mail, customer)', () => {
    const someone = rows.row(42).values.f41;
    assert.ok(ids(index().search(someone, 100)).includes('43'));
    const customer = index().search('tyrell', 20);
    assert.ok(customer.length === 20 && customer.every((row) => rows.row(row).values.f33 === 'Tyrell Systems'));
  });

  it('gives the first rows for an empty query and nothing for text no record holds', () => {
    assert.deepEqual(ids(index().search('  ', 3)), ['1', '2', '3']);
    assert.deepEqual(index().search('no such words anywhere', 10), []);
  });

  it('searches what is indexed so far, and more as it grows', () => {
    const growing = new RecordIndex(rows, { titleKey: 'f31', textKeys: [] });
    growing.extend(1_000);
    assert.equal(growing.upToDate, false);
    assert.deepEqual(growing.search('4321', 5), []);
    growing.extend();
    assert.equal(growing.upToDate, true);
    assert.equal(rows.row(growing.search('4321', 5)[0]).id, '4321');
  });

  it('finds what a row-by-row check finds, across the chunks of a large index', async () => {
    const big = await startPortal({ bigViewRecords: 30_000 });
    const store = (await clientFor(big).client.streamView('201', '6', [])).rows;
    try {
      const built = new RecordIndex(store, { titleKey: 'f31', textKeys: ['f31', 'f33', 'f40', 'f41'] });
      built.extend();
      const texts = Array.from({ length: store.length }, (_, index) => {
        const row = store.row(index);
        return [row.id, row.values.f31, row.values.f33, row.values.f40, row.values.f41].join(' ').toLowerCase();
      });
      for (const query of ['user29999@customers', 'lyon laptop', '29999', 'globex', 'zzz']) {
        const words = query.split(' ');
        const expected = texts.flatMap((text, index) => (words.every((word) => text.includes(word)) ? [index] : []));
        const exact = texts.findIndex((_, index) => store.row(index).id === query);
        const ordered = exact >= 0 ? [exact, ...expected.filter((index) => index !== exact)] : expected;
        assert.deepEqual(built.search(query, 1_000_000), ordered, query);
      }
    } finally {
      store.release();
      await big.close();
    }
  });
});
