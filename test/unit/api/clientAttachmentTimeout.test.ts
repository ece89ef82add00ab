// An upload's own time limit: a large file on a slow link outlasts the client's per-request limit, so
// addAttachment and downloadAttachment take one of their own (the extension scales the upload's with the
// file's size).
import * as assert from 'node:assert/strict';
import { clientFor, injectFault, rejectsWith, startPortal, testInterface, type Emulator } from './portal';

describe('PortalClient attachment time limits', function () {
  let emulator: Emulator;

  before(async () => {
    emulator = await startPortal();
  });
  afterEach(() => testInterface(emulator, 'DELETE', 'faults'));
  after(() => emulator.close());

  const file = { fileName: 'slow.bin', contentType: 'application/octet-stream', content: new Uint8Array(1024) };

  it("waits as long as the upload's own limit says, beyond the client's", async () => {
    const { client } = clientFor(emulator, { timeoutMs: 300 });
    await injectFault(emulator, { path: '/attachment$', latency_ms: 800 });
    await client.addAttachment('101', '3', file, { timeoutMs: 5000 });
    const stored = (await testInterface(emulator, 'GET', 'records/101/3')) as { attachments: Array<{ file_name: string }> };
    assert.deepEqual(
      stored.attachments.map((attachment) => attachment.file_name),
      ['slow.bin'],
    );
  });

  it("keeps the client's limit when the upload gives none", async () => {
    const { client } = clientFor(emulator, { timeoutMs: 300 });
    await injectFault(emulator, { path: '/attachment$', latency_ms: 800 });
    await rejectsWith(client.addAttachment('101', '4', file), { kind: 'timeout' });
  });

  it('lets a download take its own limit too', async () => {
    const { client } = clientFor(emulator, { timeoutMs: 300 });
    await client.addAttachment('101', '5', file);
    await injectFault(emulator, { path: '/attachment$', method: 'GET', latency_ms: 800, count: 2 });
    assert.equal((await client.downloadAttachment('101', '5', undefined, { timeoutMs: 5000 })).content.byteLength, 1024);
    await rejectsWith(client.downloadAttachment('101', '5'), { kind: 'timeout' });
  });
});
