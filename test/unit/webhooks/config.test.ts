// The receiver's settings as read from the configuration: defaults that match the emulator, header names
// lower-cased, and values out of bounds falling back rather than breaking the receiver.
import * as assert from 'node:assert/strict';
import { DEFAULT_SIGNATURE_SCHEME } from '../../../src/api/webhookSignature';
import { isLoopbackAddress, normalizeWebhookSettings, urlHost, WEBHOOK_DEFAULTS } from '../../../src/webhooks/config';

const read = (values: Record<string, unknown>) => normalizeWebhookSettings((key) => values[key]);

describe('webhook settings', () => {
  it('default to the emulator scheme on loopback', () => {
    const settings = read({});
    assert.deepEqual(settings, WEBHOOK_DEFAULTS);
    assert.deepEqual(settings.scheme, { ...DEFAULT_SIGNATURE_SCHEME });
    assert.equal(settings.bindAddress, '127.0.0.1');
    assert.equal(settings.eventHeader, 'x-portal-event');
  });

  it('take what the user set, header names in lower case', () => {
    const settings = read({
      port: 0,
      bindAddress: '0.0.0.0',
      maxBodyBytes: 2048,
      eventHeader: 'X-Hook-Event',
      deliveryHeader: ' X-Hook-Id ',
      signatureHeader: 'X-Hub-Signature',
      signaturePrefix: '',
      signatureAlgorithm: 'sha1',
      signatureEncoding: 'base64',
      maxEvents: 5,
      autoStart: true,
    });
    assert.equal(settings.port, 0);
    assert.equal(settings.bindAddress, '0.0.0.0');
    assert.equal(settings.maxBodyBytes, 2048);
    assert.equal(settings.eventHeader, 'x-hook-event');
    assert.equal(settings.deliveryHeader, 'x-hook-id');
    assert.deepEqual(settings.scheme, { header: 'x-hub-signature', prefix: '', algorithm: 'sha1', encoding: 'base64' });
    assert.equal(settings.maxEvents, 5);
    assert.equal(settings.autoStart, true);
  });

  it('fall back to the default for values out of bounds or of the wrong kind', () => {
    const settings = read({
      port: 70000,
      bindAddress: 'example.com',
      maxBodyBytes: 1.5,
      eventHeader: 'two words',
      signatureHeader: '',
      signaturePrefix: 'has space',
      signatureAlgorithm: 'md5',
      signatureEncoding: 'base32',
      maxEvents: 0,
      autoStart: 'yes',
    });
    assert.deepEqual(settings, WEBHOOK_DEFAULTS);
  });

  it('tell loopback addresses and make URL hosts of bind addresses', () => {
    assert.equal(isLoopbackAddress('127.0.0.1'), true);
    assert.equal(isLoopbackAddress('127.1.2.3'), true);
    assert.equal(isLoopbackAddress('::1'), true);
    assert.equal(isLoopbackAddress('0.0.0.0'), false);
    assert.equal(isLoopbackAddress('192.168.1.4'), false);
    assert.equal(urlHost('0.0.0.0'), '127.0.0.1');
    assert.equal(urlHost('::'), '[::1]');
    assert.equal(urlHost('::1'), '[::1]');
    assert.equal(urlHost('192.168.1.4'), '192.168.1.4');
  });
});
