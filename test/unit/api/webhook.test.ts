import * as assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { PortalError } from '../../../src/api/errors';
import { parseWebhookPayload } from '../../../src/api/webhookPayload';
import { DEFAULT_SIGNATURE_SCHEME, computeSignature, verifySignature, type SignatureScheme } from '../../../src/api/webhookSignature';

const body =
  '{"event":"record.updated","app_id":"3","record_id":"12","data":{"f1":"a"},"occurred_at":"2026-11-21T10:00:00Z","delivery_id":"d1"}';

describe('webhook signature', () => {
  it('computes sha256=<hex HMAC of the raw body> by default', () => {
    const expected = `sha256=${createHmac('sha256', 'secret').update(body).digest('hex')}`;
    assert.equal(computeSignature('secret', body), expected);
    assert.equal(computeSignature('secret', Buffer.from(body)), expected);
  });

  it('verifies a good signature, tolerating case and spaces', () => {
    const signature = computeSignature('secret', body);
    assert.deepEqual(verifySignature('secret', body, signature), { valid: true });
    assert.deepEqual(verifySignature('secret', Buffer.from(body), ` SHA256=${signature.slice(7).toUpperCase()} `), { valid: true });
    assert.deepEqual(verifySignature('secret', body, [signature]), { valid: true });
  });

  it('refuses a wrong secret, an altered body, a missing or malformed header', () => {
    const signature = computeSignature('secret', body);
    const reason = (verdict: ReturnType<typeof verifySignature>): string => (verdict.valid ? 'valid' : verdict.reason);
    assert.equal(reason(verifySignature('other', body, signature)), 'mismatch');
    assert.equal(reason(verifySignature('secret', body.replace('"a"', '"b"'), signature)), 'mismatch');
    assert.equal(reason(verifySignature('secret', body, undefined)), 'missing');
    assert.equal(reason(verifySignature('secret', body, '')), 'missing');
    assert.equal(reason(verifySignature('secret', body, signature.slice(7))), 'malformed');
    assert.equal(reason(verifySignature('secret', body, 'sha256=zz')), 'malformed');
    assert.equal(reason(verifySignature('secret', body, signature.slice(0, -2))), 'malformed');
  });

  it('matches another scheme by configuration: sha1, base64, no prefix', () => {
    const scheme: SignatureScheme = { header: 'x-hub-signature', prefix: '', algorithm: 'sha1', encoding: 'base64' };
    const expected = createHmac('sha1', 'k').update(body).digest('base64');
    assert.equal(computeSignature('k', body, scheme), expected);
    assert.deepEqual(verifySignature('k', body, expected, scheme), { valid: true });
    assert.equal(verifySignature('k', body, computeSignature('k', body), scheme).valid, false);
    assert.equal(DEFAULT_SIGNATURE_SCHEME.header, 'x-portal-signature');
  });

  it('matches a prefixed base64 sha256 (URL-safe alphabet too) and refuses a digest of another length', () => {
    const scheme: SignatureScheme = { header: 'x-signature', prefix: 'sha256=', algorithm: 'sha256', encoding: 'base64' };
    const digest = createHmac('sha256', 'k').update(body).digest('base64');
    assert.deepEqual(verifySignature('k', body, `sha256=${digest}`, scheme), { valid: true });
    const urlSafe = digest.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    assert.deepEqual(verifySignature('k', body, `sha256=${urlSafe}`, scheme), { valid: true });
    const sha1 = `sha256=${createHmac('sha1', 'k').update(body).digest('hex')}`;
    const verdict = verifySignature('k', body, sha1);
    assert.equal(verdict.valid ? 'valid' : verdict.reason, 'malformed', 'a sha1 digest where sha256 is expected');
  });

  it('checks the first of repeated signature headers, and refuses a prefix alone', () => {
    const signature = computeSignature('secret', body);
    assert.deepEqual(verifySignature('secret', body, [signature, 'sha256=00']), { valid: true });
    assert.equal(verifySignature('secret', body, ['sha256=00', signature]).valid, false);
    const verdict = verifySignature('secret', body, 'sha256=');
    assert.equal(verdict.valid ? 'valid' : verdict.reason, 'malformed');
  });
});

describe('webhook payload', () => {
  it('reads the documented fields and keeps the unknown ones', () => {
    const payload = parseWebhookPayload(
      Buffer.from(body.replace(/}$/, ',"actor":"ann"}').replace('"f1":"a"', '"f1":"a","f2":5,"f3":null')),
    );
    assert.equal(payload.event, 'record.updated');
    assert.equal(payload.app_id, '3');
    assert.equal(payload.record_id, '12');
    assert.deepEqual(payload.data, { f1: 'a', f2: '5', f3: '' });
    assert.equal(payload.occurred_at, '2026-11-21T10:00:00Z');
    assert.equal(payload.delivery_id, 'd1');
    assert.equal(payload.raw.actor, 'ann');
  });

  it('accepts numeric ids, a missing data, and takes event and delivery from the headers when absent', () => {
    const payload = parseWebhookPayload({ app_id: 3, record_id: 12 }, { event: 'record.deleted', deliveryId: 'h1' });
    assert.equal(payload.app_id, '3');
    assert.equal(payload.record_id, '12');
    assert.deepEqual(payload.data, {});
    assert.equal(payload.event, 'record.deleted');
    assert.equal(payload.delivery_id, 'h1');
    assert.equal(payload.occurred_at, undefined);
  });

  it('reads bytes from a slice of a larger buffer, and prefers the body to the headers', () => {
    const framed = Buffer.from(`xxxx${body}yyyy`);
    const payload = parseWebhookPayload(framed.subarray(4, 4 + Buffer.byteLength(body)), { event: 'record.deleted', deliveryId: 'h9' });
    assert.equal(payload.event, 'record.updated');
    assert.equal(payload.delivery_id, 'd1');
    const accented = parseWebhookPayload(
      Buffer.from('{"event":"record.created","app_id":"1","record_id":"2","data":{"f1":"Caf\u00e9 \u2603"}}', 'utf8'),
    );
    assert.equal(accented.data.f1, 'Caf\u00e9 \u2603');
  });

  it('refuses what cannot be used, naming the missing field', () => {
    const refused = (input: unknown, pattern: RegExp): void =>
      assert.throws(
        () => parseWebhookPayload(input),
        (error: unknown) => error instanceof PortalError && error.kind === 'invalid-input' && pattern.test(error.message),
      );
    refused('not json', /not JSON/);
    refused('[1]', /not a JSON object/);
    refused('null', /not a JSON object/);
    refused('', /not JSON/);
    refused('{"app_id":"1","record_id":"2"}', /no "event"/);
    refused('{"event":"record.created","record_id":"2"}', /no "app_id"/);
    refused('{"event":"record.created","app_id":"1"}', /no "record_id"/);
    refused('{"event":"record.created","app_id":"1","record_id":"2","data":"x"}', /"data" is not an object/);
  });
});
