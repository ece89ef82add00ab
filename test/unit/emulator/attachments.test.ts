import * as assert from 'node:assert/strict';
import { call, form, nestedError, useSeededEmulator } from './helpers';

const PATH = '/api/v1/app/102/record/1/attachment';

function upload(bytes: Uint8Array, type: string, name: string, field = 'attachment_file'): FormData {
  const body = new FormData();
  body.append(field, new Blob([bytes], { type }), name);
  return body;
}

describe('emulator: attachments', () => {
  const running = useSeededEmulator();

  it('takes a multipart upload and gives back the first attachment with its bytes, content type and file name', async () => {
    const bytes = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0x10]);
    const added = await call(running.emulator, 'POST', PATH, {
      token: running.token,
      body: upload(bytes, 'application/pdf', 'Quote été.pdf'),
    });
    assert.equal(added.status, 200, added.text);
    assert.deepEqual(added.json, { success: '1' });
    await call(running.emulator, 'POST', PATH, { token: running.token, body: upload(new Uint8Array([1]), 'text/plain', 'second.txt') });

    const response = await fetch(`${running.emulator.baseUrl}${PATH}`, { headers: { Authorization: `Bearer ${running.token}` } });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/pdf');
    assert.equal(
      response.headers.get('content-disposition'),
      `attachment; filename="Quote _t_.pdf"; filename*=UTF-8''Quote%20%C3%A9t%C3%A9.pdf`,
    );
    assert.deepEqual(new Uint8Array(await response.arrayBuffer()), bytes);

    const raw = (await call(running.emulator, 'GET', '/_emulator/records/102/1')).json as {
      attachments: Array<{ file_name: string; size: number }>;
    };
    assert.deepEqual(
      raw.attachments.map((a) => [a.file_name, a.size]),
      [
        ['Quote été.pdf', 7],
        ['second.txt', 1],
      ],
    );
  });

  it('answers 404 no_attachment for a record without attachment', async () => {
    const result = await call(running.emulator, 'GET', '/api/v1/app/102/record/2/attachment', { token: running.token });
    assert.equal(result.status, 404);
    assert.equal(nestedError(result).code, 'no_attachment');
  });

  it('answers 413 too_large over the size limit', async () => {
    await call(running.emulator, 'POST', '/_emulator/config', { body: { attachmentLimitBytes: 10 } });
    const result = await call(running.emulator, 'POST', PATH, {
      token: running.token,
      body: upload(new Uint8Array(11), 'application/octet-stream', 'big.bin'),
    });
    assert.equal(result.status, 413);
    assert.equal(nestedError(result).code, 'too_large');
    const fits = await call(running.emulator, 'POST', PATH, {
      token: running.token,
      body: upload(new Uint8Array(10), 'application/octet-stream', 'ok.bin'),
    });
    assert.equal(fits.status, 200);
  });

  it('refuses an upload without attachment_file, naming it', async () => {
    const other = await call(running.emulator, 'POST', PATH, {
      token: running.token,
      body: upload(new Uint8Array(1), 'text/plain', 'a.txt', 'file'),
    });
    assert.equal(other.status, 400);
    assert.equal(nestedError(other).code, 'unknown_field');
    const empty = new FormData();
    const missing = await call(running.emulator, 'POST', PATH, { token: running.token, body: empty });
    assert.equal(missing.status, 400);
    assert.deepEqual([nestedError(missing).code, nestedError(missing).field], ['missing_required_field', 'attachment_file']);
    const notFile = new FormData();
    notFile.append('attachment_file', 'just text');
    assert.equal(nestedError(await call(running.emulator, 'POST', PATH, { token: running.token, body: notFile })).field, 'attachment_file');
  });

  it('refuses a body that is not multipart', async () => {
    const result = await call(running.emulator, 'POST', PATH, { token: running.token, body: form({ attachment_file: 'x' }) });
    assert.equal(result.status, 400);
    assert.equal(nestedError(result).code, 'invalid_request');
  });

  it('answers 404 for a record in trash', async () => {
    await call(running.emulator, 'DELETE', '/api/v1/app/102/record/1', { token: running.token });
    const result = await call(running.emulator, 'POST', PATH, {
      token: running.token,
      body: upload(new Uint8Array(1), 'text/plain', 'a.txt'),
    });
    assert.equal(result.status, 404);
  });
});
