import * as assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { viewOf } from '../../../src/api/answers';
import { ViewStreamReader } from '../../../src/api/viewStream';
import type { RowStore } from '../../../src/api/rowStore';
import { clientFor, startPortal, type Emulator } from './portal';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** The memory the process holds now: JS heap plus array buffers (where the row bytes live). */
function held(): number {
  gc();
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

/** Feeds a body to a reader in pieces of `size` bytes, as a connection would. */
async function readInPieces(body: Buffer, size: number): Promise<RowStore> {
  const reader = new ViewStreamReader('Reading view 1 of app 1');
  await reader.read(
    (async function* () {
      for (let at = 0; at < body.length; at += size) yield body.subarray(at, at + size);
    })(),
  );
  return reader.rows;
}

describe('api: compact rows of a view (RowStore)', () => {
  it('gives back every row as the whole read does, across 1 MB blocks and multi-byte characters split between pieces', async () => {
    const data = Array.from({ length: 20_000 }, (_, index) => ({
      id: String(index + 1),
      f1: `Zoë ${'€'.repeat(index % 7)} "quoted" \\ ${index}`,
      f2: index % 3 === 0 ? 12.5 : 'x',
      draft: index % 5 === 0 ? '1' : '0',
    }));
    const body = Buffer.from(JSON.stringify({ data, metadata: [{ field_id_in_data: 'f1' }, { field_id_in_data: 'f2' }] }));
    assert.ok(body.length > 1_100_000, 'the body spans several blocks');
    const rows = await readInPieces(body, 777);
    const whole = viewOf(JSON.parse(body.toString()), 'whole');
    assert.equal(rows.length, 20_000);
    assert.deepEqual([...rows.rows()], whole.rows);
    assert.deepEqual(rows.metadata, whole.metadata);
  });

  it('holds a small view in blocks that fit it (no megabyte for a few rows)', async () => {
    const data = Array.from({ length: 300 }, (_, index) => ({ id: String(index + 1), f1: 'Printer does not start in Berlin' }));
    const body = Buffer.from(JSON.stringify({ data, metadata: [{ field_id_in_data: 'f1' }] }));
    const rows = await readInPieces(body, 16_384);
    assert.equal(rows.length, 300);
    assert.ok(rows.heldBytes <= 2 * body.length, `${rows.heldBytes} bytes held for ${body.length}`);
    assert.equal(rows.row(299).values.f1, 'Printer does not start in Berlin');
  });

  it('keeps id and draft among the values when the metadata names them as columns', async () => {
    const body = Buffer.from(
      JSON.stringify({ data: [{ id: '7', draft: '1', f1: 'a' }], metadata: [{ field_id_in_data: 'id' }, { field_id_in_data: 'f1' }] }),
    );
    const rows = await readInPieces(body, 3);
    assert.deepEqual(rows.row(0), { id: '7', draft: true, values: { id: '7', draft: '1', f1: 'a' } });
  });

  it('finds every row edge whatever the pieces: braces, brackets and escaped quotes inside values, nested values, keys before and after', async () => {
    const data = [
      { id: '1', f1: 'a } b ] c { d [', f2: 'say \\"}\\" twice \\\\', f3: { nested: [1, { deep: '}' }] } },
      { id: '2', f1: '', f2: [], f3: {} },
      { id: '3', f1: '\\', f2: '"', f3: 'ünïcødé ✓ 𝄞' },
    ];
    const body = Buffer.from(
      ` { "before" : {"data": [0]} ,"data" : [ ${data.map((row) => JSON.stringify(row)).join(' ,\n ')} ] , "metadata":[{"field_id_in_data":"f1"}], "after": "]}" } `,
    );
    for (const size of [1, 2, 3, 5, 64]) {
      const rows = await readInPieces(body, size);
      assert.deepEqual(
        [...Array(rows.length).keys()].map((index) => rows.raw(index)),
        data,
        `pieces of ${size}`,
      );
      assert.deepEqual(
        rows.metadata?.map((entry) => entry.field_id_in_data),
        ['f1'],
      );
    }
  });

  it('refuses a row whose own JSON is broken while reading, naming it, as the whole read does', async () => {
    await assert.rejects(
      readInPieces(Buffer.from('{"data":[{"id":"1"},{"id":"2",,},{"id":"3"}],"metadata":[]}'), 4),
      (error: Error) =>
        error.name === 'PortalError' && /not JSON \("," where a key after a comma should be, at byte 30, in row 2\)/.test(error.message),
    );
  });

  it('refuses what is not a view answer, naming the problem', async () => {
    const cases: Array<[string, RegExp]> = [
      ['[1,2]', /not a JSON object/],
      ['{"data":{"a":1},"metadata":[]}', /"data" is not a list/],
      ['{"data":[1],"metadata":[]}', /row 1 is not an object/],
      ['{"data":[{"id":"1"}],"metadata":[]} {}', /more follows/],
      ['{"data":[{"id":"1"}],"metadata":[{"x":1}]}', /metadata entry 1 has no "field_id_in_data"/],
      ['{"data":[{"id":"1"]}', /brackets do not match/],
      ['{"data":[{"id":"1"}', /ends before the JSON does/],
      ['{"data":[{"id":"1"}],"metadata":[nope]}', /not JSON/],
    ];
    for (const [text, expected] of cases) {
      await assert.rejects(readInPieces(Buffer.from(text), 4), (error: Error) => expected.test(error.message), text);
    }
  });

  describe('memory, against the emulator', () => {
    let emulator: Emulator;
    before(async () => {
      emulator = await startPortal({ bigViewRecords: 50_000 });
    });
    after(async () => {
      await emulator.close();
    });

    it('holds a 50,000-row view in less than twice its size, and gives it all back when released', async function () {
      this.timeout(60_000);
      const { client } = clientFor(emulator);
      // The emulator runs in this process and caches the view's body: read once so that it is counted out.
      (await client.streamView('201', '6', [])).rows.release();
      const before = held();
      const result = await client.streamView('201', '6', []);
      const bodyBytes = result.rows.receivedBytes;
      const during = held() - before;
      assert.equal(result.rowsRead, 50_000);
      assert.ok(bodyBytes > 12_500_000, `${bodyBytes} bytes`);
      assert.ok(during < 2 * bodyBytes, `holds ${(during / 1e6).toFixed(1)} MB for a ${(bodyBytes / 1e6).toFixed(1)} MB answer`);
      assert.ok(result.rows.heldBytes < 1.2 * bodyBytes, `its own count: ${result.rows.heldBytes}`);
      result.rows.release();
      const after = held() - before;
      assert.ok(after < 0.1 * bodyBytes, `${(after / 1e6).toFixed(1)} MB still held after release`);
      assert.throws(() => result.rows.row(0), /released|No row/);
    });
  });
});
