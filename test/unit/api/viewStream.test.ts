import * as assert from 'node:assert/strict';
import type { ViewBatch, ViewRow } from '../../../src/api/client';
import { ViewStreamReader } from '../../../src/api/viewStream';
import { clientFor, configure, injectFault, rejectsWith, startPortal, testInterface, type Emulator } from './portal';

describe('api: reading a view as it arrives (streamView)', () => {
  let emulator: Emulator;
  before(async () => {
    emulator = await startPortal({ bigViewRecords: 20_000 });
  });
  after(async () => {
    await emulator.close();
  });
  afterEach(async () => {
    await testInterface(emulator, 'POST', 'reset');
  });

  /** The batches as they came, each with its rows read at once (as a grid would). */
  const collect = () => {
    const batches: Array<{ rows: ViewRow[]; total: number }> = [];
    return {
      batches,
      onBatch: (batch: ViewBatch) => void batches.push({ rows: [...batch.rows.rows(batch.from, batch.to)], total: batch.to }),
    };
  };

  it('delivers the rows in batches, the first one small, the same rows as reading it whole', async () => {
    const { client } = clientFor(emulator);
    const whole = await client.readView('201', '6');
    const { batches, onBatch } = collect();
    const result = await client.streamView('201', '6', [], { onBatch, firstBatchRows: 100, batchRows: 3_000 });
    assert.equal(result.failure, undefined);
    assert.equal(result.rowsRead, 20_000);
    assert.deepEqual(result.metadata, whole.metadata);
    assert.ok(batches.length >= 7, `${batches.length} batches`);
    assert.ok(batches[0].rows.length >= 100 && batches[0].rows.length < 1_000, `first batch ${batches[0].rows.length}`);
    assert.equal(batches.at(-1)?.total, 20_000);
    assert.deepEqual(
      batches.flatMap((batch) => batch.rows),
      whole.rows,
    );
    assert.deepEqual([...result.rows.rows()], whole.rows, 'the store holds them all');
  });

  it('hands over the first rows long before the last byte of a slow answer', async () => {
    await configure(emulator, { bytesPerSecond: 2_000_000 }); // 5.2 MB: about 2.6 s
    const { client } = clientFor(emulator);
    const started = Date.now();
    let firstAt = 0;
    const result = await client.streamView('201', '6', [], {
      onBatch: () => {
        firstAt ||= Date.now() - started;
      },
    });
    const wholeAt = Date.now() - started;
    assert.equal(result.rowsRead, 20_000);
    assert.ok(firstAt < wholeAt / 4, `first rows after ${firstAt} ms, all after ${wholeAt} ms`);
  });

  it('reports how many rows were read when the connection drops midway, after delivering them', async () => {
    await injectFault(emulator, { path: '/view/', drop_after_bytes: 1_000_000 });
    const { client } = clientFor(emulator);
    const { batches, onBatch } = collect();
    const result = await client.streamView('201', '6', [], { onBatch });
    assert.ok(result.failure, 'a failure is reported');
    assert.equal(result.failure.kind, 'network');
    assert.match(result.failure.message, /Reading view 6 of app 201 failed/);
    const delivered = batches.reduce((sum, batch) => sum + batch.rows.length, 0);
    assert.equal(result.rowsRead, delivered);
    // ~260 bytes a row: about 3,800 whole rows fit in the first million bytes.
    assert.ok(delivered > 3_000 && delivered < 4_000, `${delivered} rows before the drop`);
    assert.equal(batches.at(-1)?.rows.at(-1)?.id, String(delivered), 'rows in order, none lost before the break');
    assert.equal(result.metadata, undefined);
  });

  it('rejects when the answer breaks before any row', async () => {
    await injectFault(emulator, { path: '/view/', drop_after_bytes: 5 });
    const { client } = clientFor(emulator);
    await rejectsWith(client.streamView('201', '6', [], { onBatch: () => undefined }), { kind: 'network' });
  });

  it('reports a body that is cut off before its first row as an invalid answer', async () => {
    await injectFault(emulator, { path: '/view/', malformed: true });
    const { client } = clientFor(emulator);
    await rejectsWith(client.streamView('201', '6', [], { onBatch: () => undefined }), { kind: 'invalid-response' });
  });

  it('stops reading when cancelled, and says cancelled', async () => {
    await configure(emulator, { bytesPerSecond: 1_000_000 });
    const { client } = clientFor(emulator);
    const controller = new AbortController();
    let seen = 0;
    const reading = client.streamView('201', '6', [], {
      signal: controller.signal,
      onBatch: (batch) => {
        seen = batch.to;
        controller.abort();
      },
    });
    await rejectsWith(reading, { kind: 'cancelled' });
    assert.ok(seen > 0 && seen < 20_000, `${seen} rows before the cancel`);
  });

  it('stops when asked, keeping the rows read and closing the connection', async () => {
    await configure(emulator, { bytesPerSecond: 1_000_000 });
    const { client } = clientFor(emulator);
    const stop = new AbortController();
    const { batches, onBatch } = collect();
    const result = await client.streamView('201', '6', [], {
      stop: stop.signal,
      onBatch: (batch) => {
        onBatch(batch);
        stop.abort();
      },
    });
    assert.equal(result.stopped, true);
    assert.equal(result.failure, undefined);
    assert.ok(result.rowsRead > 0 && result.rowsRead < 20_000, `${result.rowsRead} rows before the stop`);
    assert.equal(result.rows.length, result.rowsRead);
    assert.equal(result.rows.isReleased, false, 'the rows stay readable');
    assert.deepEqual([...result.rows.rows(0, 2)], batches[0].rows.slice(0, 2));
    assert.equal(result.rows.row(result.rowsRead - 1).id, String(result.rowsRead));
  });

  it('stops before the first row with an empty result, not an error', async () => {
    await configure(emulator, { latencyMs: 2_000 });
    const { client } = clientFor(emulator);
    const stop = new AbortController();
    const reading = client.streamView('201', '6', [], { stop: stop.signal });
    setTimeout(() => stop.abort(), 50);
    const result = await reading;
    assert.equal(result.stopped, true);
    assert.equal(result.rowsRead, 0);
  });

  it('waits for the caller between batches (back-pressure)', async () => {
    const { client } = clientFor(emulator);
    let inside = false;
    let overlapped = false;
    await client.streamView('201', '7', [], {
      batchRows: 500,
      onBatch: async () => {
        overlapped ||= inside;
        inside = true;
        await new Promise((resolve) => setTimeout(resolve, 2));
        inside = false;
      },
    });
    assert.equal(overlapped, false);
  });

  it('refuses an answer without metadata or without rows as not usable', async () => {
    const { client } = clientFor(emulator);
    await injectFault(emulator, { path: '/view/', status: 200, body: { data: [{ id: '1' }] } });
    const rowsOnly = await client.streamView('201', '6', [], { onBatch: () => undefined });
    assert.equal(rowsOnly.rowsRead, 1);
    assert.equal(rowsOnly.failure?.kind, 'invalid-response');
    assert.match(rowsOnly.failure.message, /no "metadata" list/);
    await injectFault(emulator, { path: '/view/', status: 200, body: { metadata: [] } });
    await rejectsWith(client.streamView('201', '6', [], { onBatch: () => undefined }), { kind: 'invalid-response' });
  });

  it('reads an answer that begins with a UTF-8 byte order mark, wherever the pieces split it', async () => {
    const { client } = clientFor(emulator);
    const plain = Buffer.from(await client.readViewRaw('201', '6'));
    const whole = await client.readView('201', '6');
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), plain]);
    for (const splits of [[], [1], [2], [1, 2], [3], [5, 4_000]]) {
      const reader = new ViewStreamReader('Reading view 6 of app 201');
      async function* pieces(): AsyncGenerator<Uint8Array> {
        let at = 0;
        for (const end of [...splits, body.length]) {
          yield body.subarray(at, end);
          at = end;
        }
      }
      await reader.read(pieces());
      const result = reader.result();
      assert.equal(result.rows.length, whole.rows.length, `split at ${splits.join(', ')}`);
      assert.deepEqual(result.rows.row(0), whole.rows[0]);
      assert.deepEqual(result.rows.row(whole.rows.length - 1), whole.rows.at(-1));
      assert.deepEqual(result.metadata, whole.metadata);
      result.rows.release();
    }
  });

  it('finds the rows after a long outline in one piece (metadata first, a string that looks like "data")', async () => {
    const { client } = clientFor(emulator);
    const whole = await client.readView('201', '6');
    const plain = JSON.parse(Buffer.from(await client.readViewRaw('201', '6')).toString('utf8')) as {
      data: unknown[];
      metadata: unknown[];
    };
    // The outline is fed in growing slices until "data" begins: these bytes cross several slices' ends.
    const body = Buffer.from(
      JSON.stringify({
        note: `${'x'.repeat(300)}"data":[{"id":"0"}]${'é'.repeat(2_000)}`,
        metadata: plain.metadata,
        data: plain.data.slice(0, 300),
      }),
    );
    const reader = new ViewStreamReader('Reading view 6 of app 201');
    await reader.read(
      (async function* (): AsyncGenerator<Uint8Array> {
        yield body;
      })(),
    );
    const result = reader.result();
    assert.equal(result.rows.length, 300);
    assert.deepEqual(result.rows.row(0), whole.rows[0]);
    assert.deepEqual(result.rows.row(299), whole.rows[299]);
    assert.deepEqual(result.metadata, whole.metadata);
    result.rows.release();
  });

  it('refuses an answer with only the start of a byte order mark as not JSON', async () => {
    const reader = new ViewStreamReader('Reading view 6 of app 201');
    async function* pieces(): AsyncGenerator<Uint8Array> {
      yield Buffer.from([0xef, 0xbb]);
      yield Buffer.from('{"data":[],"metadata":[]}');
    }
    await assert.rejects(reader.read(pieces()), /not JSON/);
  });
});
