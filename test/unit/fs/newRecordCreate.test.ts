// A new record's save whose answer is lost (the portal created it, the answer never came): saving the same
// text again must not create a second record. Against the emulator, with its lose_answer fault.
import * as assert from 'node:assert/strict';
import type { PortalClient } from '../../../src/api/client';
import { createGuarded, NewRecords } from '../../../src/fs/newRecords';
import { clientFor, injectFault, startPortal, testInterface, type Emulator } from '../api/portal';
import type { RequestLogEntry } from '../../../src/api/http';
import { storeOver } from '../records/support';

describe('new record documents: a create whose answer was lost', function () {
  this.timeout(30_000);
  let emulator: Emulator;
  let client: PortalClient;
  let requests: RequestLogEntry[];
  before(async () => {
    emulator = await startPortal();
    ({ client, requests } = clientFor(emulator));
  });
  after(() => emulator.close());

  it('lost answer, saved again: one POST, and the save says the record may exist', async () => {
    await testInterface(emulator, 'POST', 'reset');
    const store = storeOver(client);
    const app = { portalId: 'prod', appId: '201' };
    const entry = new NewRecords().add(app, '{}', false, 0);
    const text = '{"f31": "Printer jammed", "f36": "01-02-2026 10:00"}';
    const save = (saved: string): Promise<string | undefined> =>
      createGuarded(
        entry,
        saved,
        async () => (await store.create(app, { f31: 'Printer jammed', f36: '01-02-2026 10:00' })).id,
        () => Promise.resolve('Tickets'),
      );
    await injectFault(emulator, { path: '/api/v1/app/201/record/$', method: 'POST', lose_answer: true });
    const mark = requests.length;
    const mayExist =
      /The portal may have created this record already \(its answer was lost\): look for it in Tickets before saving again\./;
    await assert.rejects(save(text), mayExist);
    await assert.rejects(save(text), mayExist, 'the same text saved again is refused too');
    const posts = requests.slice(mark).filter((request) => request.method === 'POST');
    assert.equal(posts.length, 1, 'one POST');
    // A changed text is the user's decision to create it anyway.
    assert.ok(await save(`${text} `));
    assert.equal(requests.slice(mark).filter((request) => request.method === 'POST').length, 2);
  });
});
