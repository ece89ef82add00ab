import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import { sequentialRoundTrips, type LoggedRequest } from '../../emulator/requestLog';
import { call, useSeededEmulator } from './helpers';

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Milliseconds from the request to the first byte of the body, and to its end (or the drop). */
  firstByteMs: number;
  endMs: number;
  bytes: Buffer;
  /** Why the body stopped early, if it did. */
  aborted?: string;
}

/** A GET over node's own http, which reports what arrived even when the connection drops midway. */
function rawGet(baseUrl: string, path: string, token: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const request = http.get(`${baseUrl}${path}`, { headers: { Authorization: `Bearer ${token}` } }, (response) => {
      const chunks: Buffer[] = [];
      let firstByteMs = -1;
      const finish = (aborted?: string): void =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          firstByteMs,
          endMs: Date.now() - started,
          bytes: Buffer.concat(chunks),
          aborted,
        });
      response.on('data', (chunk: Buffer) => {
        if (firstByteMs < 0) firstByteMs = Date.now() - started;
        chunks.push(chunk);
      });
      response.on('end', () => finish());
      response.on('aborted', () => finish('aborted'));
      response.on('error', (error) => finish(error.message));
    });
    request.on('error', reject);
  });
}

describe('emulator: big views, latency and transfer rate', () => {
  const running = useSeededEmulator();
  const config = async (body: Record<string, unknown>) => {
    const answer = await call(running.emulator, 'POST', '/_emulator/config', { body });
    assert.equal(answer.status, 200, answer.text);
  };

  it('streams a 1,000,000-row view without holding it: chunked, valid JSON, rows in id order', async function () {
    this.timeout(120_000);
    await config({ bigViewRecords: 1_000_000 });
    const before = process.memoryUsage().rss;
    let rows = 0;
    let lastId = '';
    let bytes = 0;
    let peakRss = before;
    // Counted as it arrives, never kept: the test must not hold 250 MB either.
    const counted = await new Promise<{ status: number; transfer?: string; length?: string; tail: string }>((resolve, reject) => {
      http
        .get(`${running.emulator.baseUrl}/api/v1/app/201/view/6`, { headers: { Authorization: `Bearer ${running.token}` } }, (response) => {
          let carry = '';
          let tail = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            bytes += Buffer.byteLength(chunk);
            // Rows are counted up to the last row start of the text; that start is carried to the next chunk.
            const text = carry + chunk;
            const last = text.lastIndexOf('{"id":');
            const done = last < 0 ? text : text.slice(0, last);
            for (const match of done.matchAll(/\{"id":"(\d+)"/g)) {
              rows += 1;
              lastId = match[1];
            }
            carry = last < 0 ? '' : text.slice(last);
            tail = (tail + chunk).slice(-5000);
            peakRss = Math.max(peakRss, process.memoryUsage().rss);
          });
          response.on('end', () => {
            const final = /^\{"id":"(\d+)"/.exec(carry);
            if (final) {
              rows += 1;
              lastId = final[1];
            }
            resolve({
              status: response.statusCode ?? 0,
              transfer: response.headers['transfer-encoding'],
              length: response.headers['content-length'],
              tail,
            });
          });
        })
        .on('error', reject);
    });
    assert.equal(counted.status, 200);
    assert.equal(counted.transfer, 'chunked', 'streamed, not sent as one buffer');
    assert.equal(counted.length, undefined);
    assert.match(counted.tail, /"metadata":\[.*\]\}$/, 'the body ends with the metadata');
    assert.equal(rows, 1_000_000);
    assert.equal(lastId, '1000000');
    assert.ok(bytes > 200 * 1024 * 1024, `${bytes} bytes`);
    // Emulator and test share this process: a held body would show as hundreds of MB.
    assert.ok(peakRss - before < 200 * 1024 * 1024, `memory grew by ${Math.round((peakRss - before) / 1024 / 1024)} MB`);
  });

  it('gives a streamed view the same body as a cached one', async () => {
    const small = JSON.parse((await call(running.emulator, 'GET', '/api/v1/app/201/view/8', { token: running.token })).text) as {
      data: unknown[];
      metadata: unknown[];
    };
    await config({ bigViewRecords: 300_000 });
    const big = await rawGet(running.emulator.baseUrl, '/api/v1/app/201/view/8', running.token);
    assert.equal(big.headers['transfer-encoding'], 'chunked');
    const parsed = JSON.parse(big.bytes.toString('utf8')) as { data: unknown[]; metadata: unknown[] };
    assert.equal(parsed.data.length, 300_000);
    assert.deepEqual(parsed.data.slice(0, 500), small.data, 'the first 500 records are the same records');
    assert.deepEqual(parsed.metadata, small.metadata);
  });

  it('returns to the startup size of Tickets on reset', async () => {
    await config({ bigViewRecords: 3 });
    const three = JSON.parse((await call(running.emulator, 'GET', '/api/v1/app/201/view/6', { token: running.token })).text) as {
      data: unknown[];
    };
    assert.equal(three.data.length, 3);
    await call(running.emulator, 'POST', '/_emulator/reset');
    const reset = JSON.parse((await call(running.emulator, 'GET', '/api/v1/app/201/view/6', { token: running.token })).text) as {
      data: unknown[];
    };
    assert.equal(reset.data.length, 500);
  });

  it('waits latencyMs before the first byte of every answer', async () => {
    await config({ latencyMs: 250 });
    const answer = await rawGet(running.emulator.baseUrl, '/api/v1/site', running.token);
    assert.equal(answer.status, 200);
    assert.ok(answer.firstByteMs >= 240, `first byte after ${answer.firstByteMs} ms`);
    await config({ latencyMs: 0 });
    const fast = await rawGet(running.emulator.baseUrl, '/api/v1/site', running.token);
    assert.ok(fast.firstByteMs < 200, `first byte after ${fast.firstByteMs} ms`);
  });

  it('sends bodies no faster than bytesPerSecond, whole', async () => {
    const whole = (await call(running.emulator, 'GET', '/api/v1/app/201/view/6', { token: running.token })).text;
    await config({ bytesPerSecond: 200_000 });
    const answer = await rawGet(running.emulator.baseUrl, '/api/v1/app/201/view/6', running.token);
    const expectedMs = (answer.bytes.length / 200_000) * 1000;
    assert.equal(answer.bytes.toString('utf8'), whole);
    assert.ok(
      answer.endMs >= expectedMs * 0.9,
      `${answer.bytes.length} bytes in ${answer.endMs} ms, at least ${Math.round(expectedMs)} ms expected`,
    );
    assert.ok(answer.firstByteMs < answer.endMs / 2, 'the first bytes come early: it is a rate, not a delay');
  });

  it('drops the connection midway after drop_after_bytes, with the bytes before it delivered', async () => {
    const fault = await call(running.emulator, 'POST', '/_emulator/faults', { body: { path: '/view/', drop_after_bytes: 10_000 } });
    assert.equal(fault.status, 200, fault.text);
    const answer = await rawGet(running.emulator.baseUrl, '/api/v1/app/201/view/6', running.token);
    assert.equal(answer.status, 200);
    assert.ok(answer.aborted, 'the body did not end normally');
    assert.equal(answer.bytes.length, 10_000);
    assert.match(answer.bytes.toString('utf8'), /^\{"data":\[\{"id":"1",/);
    const logged = ((await call(running.emulator, 'GET', '/_emulator/requests')).json as LoggedRequest[]).at(-1);
    assert.equal(logged?.fault, 'drop-midway');
    const next = await rawGet(running.emulator.baseUrl, '/api/v1/app/201/view/6', running.token);
    assert.equal(next.aborted, undefined, 'once: the next answer is whole');
  });

  it('refuses drop_after_bytes with another effect, and bad knob values', async () => {
    for (const body of [{ drop_after_bytes: 0 }, { drop_after_bytes: 10, status: 500 }, { drop_after_bytes: 10, drop: true }]) {
      assert.equal((await call(running.emulator, 'POST', '/_emulator/faults', { body })).status, 400, JSON.stringify(body));
    }
    for (const body of [{ latencyMs: -1 }, { bytesPerSecond: 1.5 }, { bigViewRecords: 'many' }]) {
      assert.equal((await call(running.emulator, 'POST', '/_emulator/config', { body })).status, 400, JSON.stringify(body));
    }
  });
});

describe('emulator: counting sequential round trips from the request log', () => {
  const at = (endMs: number, durationMs: number) => ({
    time: new Date(Date.UTC(2026, 0, 1) + endMs).toISOString(),
    duration_ms: durationMs,
  });

  it('counts requests that overlap as one round trip, and one after another as two', () => {
    assert.equal(sequentialRoundTrips([]), 0);
    assert.equal(sequentialRoundTrips([at(1200, 200), at(1210, 205)]), 1, 'sent together');
    assert.equal(sequentialRoundTrips([at(1200, 200), at(1450, 210)]), 2, 'the second started after the first ended');
    assert.equal(sequentialRoundTrips([at(1450, 210), at(1200, 200), at(1230, 220), at(1700, 200)]), 3, 'in any order: the longest chain');
  });
});
