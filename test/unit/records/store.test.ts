// The record store's reads: a change announced (markStale) while a read is in flight is not hidden by
// that read's answer, which left before the change. A save with no copy to start from (against the emulator).
import * as assert from 'node:assert/strict';
import type { PortalClient } from '../../../src/api/client';
import type { RequestLogEntry } from '../../../src/api/http';
import { isCancellation } from '../../../src/api/errors';
import { clientFor, startPortal, testInterface, type Emulator } from '../api/portal';
import { storeOver } from './support';

/** Holds the answer to the next GET of record 1 of app 101 back by `ms`: it carries the record as it was when asked. */
async function holdNextRead(emulator: Emulator, ms: number): Promise<void> {
  await testInterface(emulator, 'POST', 'faults', { method: 'GET', path: '^/api/v1/app/101/record/1$', answer_delay_ms: ms });
}

/** Until the emulator has taken the held read (its fault is used up): the record was read as it stood. */
async function readTaken(emulator: Emulator): Promise<void> {
  for (let tries = 0; ((await testInterface(emulator, 'GET', 'faults')) as unknown[]).length > 0; tries += 1) {
    if (tries > 400) throw new Error('The held read never reached the emulator.');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('record store: reads and webhooks (a read whose answer comes late)', function () {
  this.timeout(30_000);
  let emulator: Emulator;
  let client: PortalClient;
  let requests: RequestLogEntry[];
  const record = { portalId: 'prod', appId: '101', recordId: '1' };
  before(async () => {
    emulator = await startPortal();
    ({ client, requests } = clientFor(emulator));
  });
  after(() => emulator.close());
  beforeEach(() => testInterface(emulator, 'POST', 'reset'));

  it('a read after markStale sends a new GET, and the older answer is not taken for fresh', async () => {
    let now = 1000;
    const store = storeOver(client, () => now);
    await client.updateRecord('101', '1', { f8: 'v1' });
    await holdNextRead(emulator, 1500);
    const gets = (): number => requests.filter((request) => request.method === 'GET' && request.path.endsWith('/record/1')).length;
    const before = gets();
    const first = store.read(record, 'stat');
    await readTaken(emulator);
    await client.updateRecord('101', '1', { f8: 'v2' });
    store.markStale(record);
    const second = await store.read(record, 'stat');
    assert.equal(second.data.f8, 'v2', 'the read after the change asks the portal again');
    assert.equal((await first).data.f8, 'v1', 'the held answer carries the record as it was');
    assert.equal(gets() - before, 2);
    now += 1;
    assert.equal(store.last(record)?.data.f8, 'v2', 'the newer copy stays');
  });

  it('a caller that stops waiting (a hover that went) cancels the request, unless another caller waits for it', async () => {
    const store = storeOver(client, () => 1000);
    await holdNextRead(emulator, 2_000);
    const logged = requests.length;
    const hover = new AbortController();
    const alone = store.read(record, 'hover', 0, hover.signal);
    await readTaken(emulator);
    hover.abort();
    await assert.rejects(alone, (error) => isCancellation(error));
    const ended = (): RequestLogEntry[] => requests.slice(logged).filter((request) => request.path.endsWith('/record/1'));
    // The request's line is written when it ends: cancelled, or answered once the emulator lets it go.
    while (ended().length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.deepEqual(
      ended().map((request) => request.status),
      ['error'],
      'the request itself was cancelled, not answered two seconds later',
    );

    await holdNextRead(emulator, 300);
    const another = new AbortController();
    const hovered = store.read(record, 'hover', 0, another.signal);
    const saved = store.read(record, 'stat', 0);
    another.abort();
    await assert.rejects(hovered, (error) => isCancellation(error));
    assert.equal((await saved).data.f1, '1001', 'the read the other caller waits for goes on to its answer');

    // A caller that comes just after the last one stopped waiting gets a read of its own, not the cancelled one.
    store.markStale(record);
    await holdNextRead(emulator, 300);
    const gone = new AbortController();
    const left = store.read(record, 'hover', 0, gone.signal);
    gone.abort();
    const after = store.read(record, 'stat', 0);
    await assert.rejects(left, (error) => isCancellation(error));
    assert.equal((await after).data.f1, '1001', 'a new read, answered');
  });

  it('an answer that left before markStale is stored stale: the next read asks again', async () => {
    const store = storeOver(client, () => 1000);
    await holdNextRead(emulator, 300);
    const first = store.read(record, 'stat');
    await readTaken(emulator);
    store.markStale(record);
    await first;
    assert.equal(store.isFresh(record), false);
    const mark = requests.length;
    await store.read(record, 'stat');
    assert.equal(
      requests.slice(mark).filter((request) => request.method === 'GET' && request.path.endsWith('/record/1')).length,
      1,
      'the next read asks the portal',
    );
  });
});

describe('record store: a save with no copy to start from (an editor restored with unsaved changes)', function () {
  this.timeout(30_000);
  let emulator: Emulator;
  let client: PortalClient;
  let requests: RequestLogEntry[];
  before(async () => {
    emulator = await startPortal();
    ({ client, requests } = clientFor(emulator));
  });
  after(() => emulator.close());

  it("is refused with nothing sent, rather than sending back the fields someone else changed; the next save goes on from the portal's copy", async () => {
    await testInterface(emulator, 'POST', 'reset');
    const store = storeOver(client);
    const record = { portalId: 'prod', appId: '101', recordId: '1' };
    // The text as the editor kept it (its copy was read in an earlier session); someone changed the e-mail since.
    const restored = (await client.readRecord('101', '1')).data;
    await client.updateRecord('101', '1', { f3: 'someone.else@example.com' });
    const mine = { ...restored, f8: 'My note' };
    const mark = requests.length;
    // Overwrite: VS Code's own check has just run (checked), the store has no base for this record.
    await assert.rejects(store.update(record, mine, { checked: true }), /Compare .* or Revert/);
    assert.deepEqual(
      requests.slice(mark).filter((request) => request.method === 'PUT'),
      [],
      'nothing sent',
    );
    assert.equal((await client.readRecord('101', '1')).data.f3, 'someone.else@example.com');
    // Saved again (after Compare, the text is what the person wants): sent against the copy read at the refusal.
    const merged = { ...mine, f3: 'someone.else@example.com' };
    const { sent } = await store.update(record, merged, { checked: true });
    assert.deepEqual(sent, ['f8']);
    assert.equal((await client.readRecord('101', '1')).data.f3, 'someone.else@example.com', "the other person's change stays");
  });
});
