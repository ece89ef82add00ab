// A streamed view read and the portal's limiter: the read gives its place back once the answer's head has
// come, so a large view arriving over a slow line holds up no other request to the portal (a grid reading
// 25 MB at 100 kB/s kept a webhook's refresh and the user's saves waiting until its last byte).
import * as assert from 'node:assert/strict';
import { PortalClient } from '../../../src/api/client';
import { PortalLimiter } from '../../../src/records/limiter';
import { CredentialsTokens, startPortal, type Emulator } from '../../support/portal';

describe('a streamed view read and the portal limiter', function () {
  this.timeout(30_000);
  let emulator: Emulator;
  before(async () => {
    emulator = await startPortal({ bigViewRecords: 6_000, bytesPerSecond: 200_000 });
  });
  after(() => emulator.close());

  it('lets another request through while its body is still arriving, with one place for both', async () => {
    const limiter = new PortalLimiter({ maxInFlight: 1, initialInFlight: 1 });
    const client = new PortalClient({ baseUrl: emulator.baseUrl, tokens: new CredentialsTokens(emulator), gate: limiter });
    await client.listSites(); // the token, before anything is timed
    let firstRows!: () => void;
    const rowsCame = new Promise<void>((resolve) => (firstRows = resolve));
    let streamEnded = false;
    const reading = client.streamView('201', '6', [], { onBatch: () => firstRows() }).then((result) => {
      streamEnded = true;
      return result;
    });
    await rowsCame;
    const record = await client.readRecord('201', '1');
    assert.ok(record.data, 'the record was read');
    assert.equal(streamEnded, false, 'the record came while the view was still arriving');
    await reading;
  });
});
