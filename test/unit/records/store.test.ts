// The record store in plain node against the emulator over HTTP: the copies it reads and shares, the
// conflict check, update (only the changed fields) and create. The clock is the test's.
import * as assert from 'node:assert/strict';
import type { PortalClient } from '../../../src/api/client';
import type { RequestLogEntry } from '../../../src/api/http';
import type { Column } from '../../../src/api/types';
import { FRESH_MS, RecordGone, RecordStore, SaveRefused, checkConflict } from '../../../src/records/store';
import { clientFor, startPortal, testInterface, type Emulator } from '../api/portal';

const CUSTOMERS = '101';

describe('the record store', function () {
  this.timeout(20_000);
  let emulator: Emulator;
  let client: PortalClient;
  let requests: RequestLogEntry[];
  let now: number;
  let changes: string[];
  let store: RecordStore;
  const record = { portalId: 'prod', appId: CUSTOMERS, recordId: '1' };

  before(async () => {
    emulator = await startPortal();
  });
  after(() => emulator.close());

  beforeEach(async () => {
    await testInterface(emulator, 'POST', 'reset');
    ({ client, requests } = clientFor(emulator));
    now = 1_000_000;
    changes = [];
    const columns = new Map<string, Promise<readonly Column[]>>();
    store = new RecordStore({
      client: () => client,
      columns: (_portal, appId) => {
        const known = columns.get(appId) ?? client.listColumns(appId);
        columns.set(appId, known);
        return known;
      },
      now: () => now,
      log: { debug: () => undefined, info: () => undefined, warn: () => undefined },
      onChanged: (changed, kind) => changes.push(`${kind} ${changed.appId}/${changed.recordId}`),
    });
  });

  const reads = (): number => requests.filter((entry) => entry.method === 'GET' && /\/record\//.test(entry.path)).length;
  const puts = (): RequestLogEntry[] => requests.filter((entry) => entry.method === 'PUT');

  it('reads a record once for concurrent callers, reuses it while fresh, and reads again after', async () => {
    const [first, second] = await Promise.all([store.read(record), store.read(record)]);
    assert.equal(first, second, 'one read shared');
    assert.equal(reads(), 1);
    assert.equal(first.data.f2, 'Acme Corporation');
    now += FRESH_MS;
    assert.equal(await store.read(record), first, 'still fresh');
    now += 1;
    assert.notEqual(await store.read(record), first);
    assert.equal(reads(), 2);
  });

  it('sends only the fields changed against the copy the edit started from', async () => {
    const copy = await store.read(record);
    store.setBase(record, copy.data);
    const { sent } = await store.update(record, { ...copy.data, f3: 'billing@acme.example.com' });
    assert.deepEqual(sent, ['f3']);
    assert.equal(puts().length, 1);
    const stored = (await testInterface(emulator, 'GET', `records/${CUSTOMERS}/1`)) as { data: Record<string, string> };
    assert.equal(stored.data.f3, 'billing@acme.example.com');
    assert.deepEqual(changes, [`updated ${CUSTOMERS}/1`]);
    assert.equal(store.base(record)?.f3, 'billing@acme.example.com', 'the next edit starts from what was written');
  });

  it('refuses to write over a change made in the portal since the edit started, sending nothing', async () => {
    const copy = await store.read(record);
    store.setBase(record, copy.data);
    const { client: someoneElse } = clientFor(emulator);
    await someoneElse.updateRecord(CUSTOMERS, '1', { f4: '+1 (555) 010-9999' });
    now += FRESH_MS + 1;
    await assert.rejects(store.update(record, { ...copy.data, f3: 'mine@acme.example.com' }), (error: unknown) => error instanceof SaveRefused && /changed in the portal since you opened it/.test(error.message));
    assert.equal(puts().length, 0, 'nothing sent');
    assert.equal(checkConflict(copy.data, await store.read(record)), true);
    assert.deepEqual(changes, []);
  });

  it('refuses a read-only field changed, naming it, with nothing sent', async () => {
    const copy = await store.read(record);
    store.setBase(record, copy.data);
    await assert.rejects(store.update(record, { ...copy.data, f1: '9999' }), (error: unknown) => error instanceof SaveRefused && /^f1 \(Customer no\.\): read-only/.test(error.message));
    assert.equal(puts().length, 0);
  });

  it('creates a record from the writable fields with a value, and says its id', async () => {
    const id = await store.create({ portalId: 'prod', appId: CUSTOMERS }, { f2: 'Store Test Ltd', f3: 'store@example.com', f4: '' });
    assert.ok(id);
    const stored = (await testInterface(emulator, 'GET', `records/${CUSTOMERS}/${id}`)) as { data: Record<string, string> };
    assert.equal(stored.data.f2, 'Store Test Ltd');
    assert.deepEqual(changes, [`created ${CUSTOMERS}/${id}`]);
  });

  it('says a record is gone when the portal does not have it', async () => {
    await assert.rejects(store.read({ ...record, recordId: '999999' }), RecordGone);
  });

  it('lists the records it holds a copy of, as they were asked for', async () => {
    await store.read(record);
    store.setBase({ ...record, recordId: '2' }, {});
    assert.deepEqual(
      store.records().map((entry) => entry.record),
      [record],
      'a record with a base and no copy is not listed',
    );
    store.forget(record);
    assert.deepEqual(store.records(), []);
  });
});
