// A watched read compared with the last by the digest of its rows' bytes: new, changed and removed rows
// found by id whatever the rows' order, nothing reported on the first read, and 16 bytes a row kept.
import * as assert from 'node:assert/strict';
import { RowStore } from '../../../src/api/rowStore';
import { rowId, ViewDigest, type RowChange } from '../../../src/watch/rowDigest';

/** A store holding `rows` as a view's answer would (the rows' JSON texts, one after another). */
function storeOf(rows: readonly string[]): RowStore {
  const store = new RowStore();
  let at = 0;
  const body = Buffer.from(`{"data":[${rows.join(',')}]}`, 'utf8');
  store.appendBytes(body);
  at = '{"data":['.length;
  for (const row of rows) {
    const length = Buffer.byteLength(row, 'utf8');
    store.addRow(at, at + length);
    at += length + 1;
  }
  store.seal();
  return store;
}

const row = (id: number | string, status: string, extra = ''): string => `{"id":${JSON.stringify(id)},"f1":"${status}"${extra}}`;
const sorted = (changes: readonly RowChange[]): string[] => changes.map((change) => `${change.kind} ${change.recordId}`).sort();

describe('watch: the row digest', () => {
  it('reports nothing on the first read', () => {
    const { changes, digest } = ViewDigest.compare(undefined, storeOf([row('1', 'Open'), row('2', 'Done')]));
    assert.deepEqual(changes, []);
    assert.equal(digest.length, 2);
  });

  it('finds new, changed and removed rows by id, whatever their order', () => {
    const before = ViewDigest.compare(undefined, storeOf([row('1', 'Open'), row('2', 'Open'), row('3', 'Open')])).digest;
    const after = storeOf([row('4', 'New'), row('3', 'Open'), row('1', 'Done')]);
    const { changes } = ViewDigest.compare(before, after);
    assert.deepEqual(sorted(changes), ['changed 1', 'new 4', 'removed 2']);
    const changed = changes.find((change) => change.kind === 'changed');
    assert.equal(changed?.index, 2, 'the changed row is found in the new read by its index');
    assert.equal(after.row(changed?.index ?? -1).values.f1, 'Done');
  });

  it('sees a change of one byte, and none when only the order moved', () => {
    const before = ViewDigest.compare(undefined, storeOf([row('1', 'Open'), row('2', 'Open')])).digest;
    assert.deepEqual(ViewDigest.compare(before, storeOf([row('2', 'Open'), row('1', 'Open')])).changes, []);
    assert.deepEqual(sorted(ViewDigest.compare(before, storeOf([row('2', 'Open'), row('1', 'Opem')])).changes), ['changed 1']);
  });

  it('reads ids as numbers or strings, from "id" else "record_id", past nested values and escapes', () => {
    assert.equal(rowId(Buffer.from('{"id":"1042","f1":"a"}')), 1042);
    assert.equal(rowId(Buffer.from('{ "f1" : "x\\"id\\":9" , "f2":[{"id":3}], "id" : 77 }')), 77);
    assert.equal(rowId(Buffer.from('{"f1":"a","record_id":"12"}')), 12);
    assert.equal(rowId(Buffer.from('{"id":"TCK-7"}')), 'TCK-7');
    assert.equal(rowId(Buffer.from('{"id":"007"}')), '007');
    assert.equal(rowId(Buffer.from('{"f1":"a"}')), undefined);
  });

  it('follows rows whose id is not a number too', () => {
    const before = ViewDigest.compare(undefined, storeOf([row('A-1', 'Open'), row('A-2', 'Open')])).digest;
    const { changes } = ViewDigest.compare(before, storeOf([row('A-1', 'Done'), row('A-3', 'Open')]));
    assert.deepEqual(sorted(changes), ['changed A-1', 'new A-3', 'removed A-2']);
  });

  it('keeps 16 bytes a row between reads, however wide the rows', () => {
    const wide = 'x'.repeat(2_000);
    const rows = Array.from({ length: 1_000 }, (_, index) => row(String(index + 1), 'Open', `,"f2":"${wide}"`));
    const { digest } = ViewDigest.compare(undefined, storeOf(rows));
    assert.equal(digest.heldBytes, 16 * 1_000);
  });

  it('counts a record listed twice once, and a change of either copy', () => {
    const before = ViewDigest.compare(undefined, storeOf([row('5', 'a'), row('5', 'b')])).digest;
    assert.equal(before.length, 1);
    assert.deepEqual(sorted(ViewDigest.compare(before, storeOf([row('5', 'a'), row('5', 'c')])).changes), ['changed 5']);
  });

  it('hashes a row that spans two blocks of the store as one', () => {
    const long = 'y'.repeat(20 * 1024);
    const before = ViewDigest.compare(undefined, storeOf([row('1', long)])).digest;
    assert.deepEqual(ViewDigest.compare(before, storeOf([row('1', long)])).changes, []);
    assert.deepEqual(sorted(ViewDigest.compare(before, storeOf([row('1', `${long}z`)])).changes), ['changed 1']);
  });
});
