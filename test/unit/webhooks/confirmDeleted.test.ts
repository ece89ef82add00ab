// A "deleted" webhook event is believed only once the portal confirms it: a record it still has is treated
// as changed (read anew), never removed from the tree, the grid or an open document. Anyone who can reach
// an unsigned receiver can send the event; the portal's own answer cannot be faked that way.
import * as assert from 'node:assert/strict';
import { appRecords } from '../../../src/records/store';
import { confirmedChange } from '../../../src/webhooks/recordChange';
import { clientFor, injectFault, startPortal, testInterface, type Emulator } from '../api/portal';

describe('a deleted event confirmed by a read', () => {
  let emulator: Emulator;
  before(async () => {
    emulator = await startPortal();
  });
  after(() => emulator.close());
  beforeEach(() => testInterface(emulator, 'POST', 'reset'));

  function reader(recordId: string) {
    const { client, requests } = clientFor(emulator);
    return { read: () => appRecords(client, '101').readCurrent(recordId), requests };
  }

  it('a record the portal still has is "updated", not "deleted"', async () => {
    const { read, requests } = reader('3');
    assert.equal(await confirmedChange('deleted', read), 'updated');
    assert.ok(
      requests.some((entry) => entry.method === 'GET' && entry.path.endsWith('/record/3')),
      'the record was read',
    );
  });

  it('a record the portal no longer has is "deleted"', async () => {
    const { client } = clientFor(emulator);
    await client.deleteRecord('101', '4');
    assert.equal(await confirmedChange('deleted', reader('4').read), 'deleted');
  });

  it('when the read fails the record is only read anew ("updated"), and other kinds need no read', async () => {
    await injectFault(emulator, { method: 'GET', path: '/record/5$', status: 500, count: -1 });
    assert.equal(await confirmedChange('deleted', reader('5').read), 'updated');
    let reads = 0;
    const counted = async () => ((reads += 1), {});
    assert.equal(await confirmedChange('updated', counted), 'updated');
    assert.equal(await confirmedChange('created', counted), 'created');
    assert.equal(reads, 0);
  });
});
