// The store is the one place versions come from: what its rows API (the grid, the board, the import and
// bulk change) and its documents' store read and write is offered to the history, with what brought it;
// a write the portal refused offers nothing (against the emulator).
import * as assert from 'node:assert/strict';
import type { PortalClient } from '../../../src/api/client';
import type { Column } from '../../../src/api/types';
import { appRecords, RecordStore } from '../../../src/records/store';
import type { SeenVersion } from '../../../src/records/versions';
import { clientFor, injectFault, startPortal, testInterface, type Emulator } from '../api/portal';

describe('record store: the versions it offers', function () {
  this.timeout(30_000);
  let emulator: Emulator;
  let client: PortalClient;
  let offered: SeenVersion[];
  const versions = { offer: (version: SeenVersion): void => void offered.push(version) };
  before(async () => {
    emulator = await startPortal();
    ({ client } = clientFor(emulator));
  });
  after(() => emulator.close());
  beforeEach(async () => {
    offered = [];
    await testInterface(emulator, 'POST', 'reset');
  });

  const brief = (version: SeenVersion): string => `${version.cause} ${version.record.recordId} ${version.whole ? 'whole' : 'fields'}`;

  it("the rows API: a create's answer, an update on the copy it was decided against, a read; all with what brought them", async () => {
    const records = appRecords(client, '101', { history: { versions, portalId: 'prod', cause: 'import' } });
    const created = await records.create({ f2: 'Versioned Ltd', f3: 'v@example.com' }, undefined, { readBack: false });
    const id = created.recordId ?? assert.fail('the emulator says the id');
    await records.update(id, { f3: 'w@example.com' }, undefined, { base: { f2: 'Versioned Ltd', f3: 'v@example.com' } });
    const read = await records.readCurrent(id);
    assert.deepEqual(offered.map(brief), [`import ${id} whole`, `import ${id} fields`, `read ${id} whole`]);
    assert.deepEqual(offered[0].record, { portalId: 'prod', appId: '101', recordId: id });
    assert.equal(offered[0].data.f2, 'Versioned Ltd');
    assert.deepEqual(offered[1].data, { f2: 'Versioned Ltd', f3: 'w@example.com' }, 'the fields sent over the copy they were decided on');
    assert.deepEqual(offered[2].data, read);
  });

  it('a write the portal refused, or a read of a record gone, offers nothing; without a history nothing is offered', async () => {
    const records = appRecords(client, '101', { history: { versions, portalId: 'prod', cause: 'bulk' } });
    await injectFault(emulator, { path: '/record/1$', method: 'PUT', status: 400 });
    await assert.rejects(records.update('1', { f3: 'x@example.com' }));
    assert.equal(await records.readCurrent('999999'), undefined);
    await appRecords(client, '101').update('1', { f3: 'y@example.com' });
    assert.deepEqual(offered, []);
  });

  it("a record document's store: the copy read as opened, the copy saved as saved", async () => {
    const store = new RecordStore({
      client: () => client,
      columns: (_portalId, appId): Promise<readonly Column[]> => client.listColumns(appId),
      now: () => Date.now(),
      log: { debug: () => undefined, info: () => undefined, warn: () => undefined },
      versions: { to: versions, read: 'opened', write: 'saved' },
    });
    const record = { portalId: 'prod', appId: '101', recordId: '1' };
    const copy = await store.read(record);
    store.setBase(record, copy.data);
    await store.update(record, { ...copy.data, f3: 'saved@example.com' }, { checked: true });
    assert.deepEqual(offered.map(brief), ['opened 1 whole', 'saved 1 whole']);
    assert.equal(offered[1].data.f3, 'saved@example.com');
    assert.equal(offered[1].data.f2, copy.data.f2, 'the whole copy as written');
  });
});
