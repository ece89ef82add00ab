// The record store's reads: a change announced (markStale) while a read is in flight is not hidden by
// that read's answer, which left before the change. A save with no copy to start from (against the emulator).
import * as assert from 'node:assert/strict';
import type { RecordRead } from '../../../src/api/answers';
import type { Column, RecordData } from '../../../src/api/types';
import { RecordStore } from '../../../src/records/store';
import type { PortalClient } from '../../../src/api/client';
import type { RequestLogEntry } from '../../../src/api/http';
import { clientFor, startPortal, testInterface, type Emulator } from '../api/portal';

const columns = [{ app_id: 'a', field_id: '1', field_id_in_data: 'f1', field_name: 'Name', field_description: '', type: '0', type_name: 'Text Field', position: '1', unique_value: '0' }] as unknown as Column[];

/** A portal whose GET captures the record when it arrives and answers when told to. */
function slowPortal(): { data: RecordData; gets: number; answer(): void; client: { readRecord(): Promise<RecordRead>; updateRecord(): Promise<void>; createRecord(): Promise<{ id: undefined; data: RecordData }> } } {
  const waiting: Array<() => void> = [];
  const portal = {
    data: { f1: 'v1' } as RecordData,
    gets: 0,
    answer: (): void => waiting.splice(0).forEach((release) => release()),
    client: {
      readRecord: (): Promise<RecordRead> => {
        portal.gets += 1;
        const snapshot = { ...portal.data };
        return new Promise((resolve) => waiting.push(() => resolve({ data: snapshot, draft: undefined } as unknown as RecordRead)));
      },
      updateRecord: (): Promise<void> => Promise.resolve(),
      createRecord: () => Promise.resolve({ id: undefined, data: {} }),
    },
  };
  return portal;
}

describe('record store: reads and webhooks', () => {
  it('a read after markStale sends a new GET, and the older answer is not taken for fresh', async () => {
    const portal = slowPortal();
    let now = 1000;
    const store = new RecordStore({ client: () => portal.client as never, columns: () => Promise.resolve(columns), now: () => now, log: { debug: () => undefined, info: () => undefined, warn: () => undefined } });
    const record = { portalId: 'p', appId: 'a', recordId: '1' };
    const first = store.read(record, 'stat');
    await Promise.resolve();
    portal.data = { f1: 'v2' };
    store.markStale(record);
    const second = store.read(record, 'stat');
    assert.equal(portal.gets, 2, 'the read after the change asks the portal again');
    portal.answer();
    assert.equal((await second).data.f1, 'v2');
    assert.equal((await first).data.f1, 'v1');
    now += 1;
    assert.equal(store.last(record)?.data.f1, 'v2', 'the newer copy stays');
  });

  it('an answer that left before markStale is stored stale: the next read asks again', async () => {
    const portal = slowPortal();
    const store = new RecordStore({ client: () => portal.client as never, columns: () => Promise.resolve(columns), now: () => 1000, log: { debug: () => undefined, info: () => undefined, warn: () => undefined } });
    const record = { portalId: 'p', appId: 'a', recordId: '1' };
    const first = store.read(record, 'stat');
    await Promise.resolve();
    store.markStale(record);
    portal.answer();
    await first;
    assert.equal(store.isFresh(record), false);
    const again = store.read(record, 'stat');
    assert.equal(portal.gets, 2);
    portal.answer();
    await again;
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
    const store = new RecordStore({
      client: () => client,
      columns: (_portalId, appId): Promise<readonly Column[]> => client.listColumns(appId),
      now: () => Date.now(),
      log: { debug: () => undefined, info: () => undefined, warn: () => undefined },
    });
    const record = { portalId: 'prod', appId: '101', recordId: '1' };
    // The text as the editor kept it (its copy was read in an earlier session); someone changed the e-mail since.
    const restored = (await client.readRecord('101', '1')).data;
    await client.updateRecord('101', '1', { f3: 'someone.else@example.com' });
    const mine = { ...restored, f8: 'My note' };
    const mark = requests.length;
    // Overwrite: VS Code's own check has just run (checked), the store has no base for this record.
    await assert.rejects(store.update(record, mine, { checked: true }), /Compare .* or Revert/);
    assert.deepEqual(requests.slice(mark).filter((request) => request.method === 'PUT'), [], 'nothing sent');
    assert.equal((await client.readRecord('101', '1')).data.f3, 'someone.else@example.com');
    // Saved again (after Compare, the text is what the person wants): sent against the copy read at the refusal.
    const merged = { ...mine, f3: 'someone.else@example.com' };
    const { sent } = await store.update(record, merged, { checked: true });
    assert.deepEqual(sent, ['f8']);
    assert.equal((await client.readRecord('101', '1')).data.f3, 'someone.else@example.com', "the other person's change stays");
  });
});
