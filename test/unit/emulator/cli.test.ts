import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseCommandLine } from '../../emulator/cli';

// Built next to this test by esbuild.mjs: out/test/emulator/main.js.
const MAIN = join(__dirname, '..', '..', 'emulator', 'main.js');

describe('emulator: command line', () => {
  it('maps every flag to its option', () => {
    const { options } = parseCommandLine([
      '--port=4100',
      '--auto-approve',
      '--token-lifetime',
      '5',
      '--code-lifetime',
      '6',
      '--error-style',
      'flat',
      '--write-response',
      'empty',
      '--no-column-required',
      '--no-app-flags',
      '--webhook-retries',
      '2',
      '--webhook-timeout',
      '900',
      '--attachment-limit',
      '1000',
      '--big-view-records',
      '10',
      '--seed',
      '3',
      '--latency',
      '200',
      '--bytes-per-second',
      '50000',
      '--rate-limit',
      '100',
      '--rate-burst',
      '20',
      '--max-in-flight',
      '8',
      '--over-limit-status',
      '503',
      '--client-id',
      'id',
      '--client-secret',
      'secret',
      '--redirect-uri',
      'http://127.0.0.1/a',
      '--redirect-uri',
      'vscode://b/c',
      '--quiet',
    ]);
    assert.deepEqual(options, {
      port: 4100,
      autoApprove: true,
      tokenLifetimeSeconds: 5,
      codeLifetimeSeconds: 6,
      errorStyle: 'flat',
      writeResponse: 'empty',
      columnRequired: false,
      appFlags: false,
      webhookRetries: 2,
      webhookTimeoutMs: 900,
      attachmentLimitBytes: 1000,
      bigViewRecords: 10,
      seed: 3,
      latencyMs: 200,
      bytesPerSecond: 50000,
      rateLimit: 100,
      rateBurst: 20,
      maxInFlight: 8,
      overLimitStatus: 503,
      clientId: 'id',
      clientSecret: 'secret',
      redirectUris: ['http://127.0.0.1/a', 'vscode://b/c'],
      quiet: true,
    });
  });

  it('refuses unknown flags and bad numbers', () => {
    assert.throws(() => parseCommandLine(['--prot', '1']), /prot/);
    assert.throws(() => parseCommandLine(['--port', 'abc']), /--port needs a whole number/);
  });

  it('prints the JSON line first, serves, and exits 0 on SIGTERM', async function () {
    this.timeout(15000);
    const child = spawn(process.execPath, [MAIN, '--port', '0', '--quiet', '--big-view-records', '20'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const lines = createInterface({ input: child.stdout });
      const first = await new Promise<string>((resolve, reject) => {
        lines.once('line', resolve);
        child.once('exit', () => reject(new Error('the emulator exited before printing')));
      });
      const info = JSON.parse(first) as Record<string, unknown>;
      assert.deepEqual(Object.keys(info), ['base_url', 'client_id', 'client_secret', 'redirect_uri', 'views']);
      assert.match(String(info.base_url), /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.ok(Array.isArray(info.views) && info.views.length >= 8);
      const response = await fetch(`${info.base_url}/api/v1/site`);
      assert.equal(response.status, 401);
      child.kill('SIGTERM');
      assert.equal(await exited, 0);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('exits 2 with a message on a bad option', async () => {
    const child = spawn(process.execPath, [MAIN, '--error-style', 'loud'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.equal(code, 2);
    assert.match(stderr, /errorStyle must be nested, flat or text/);
  });
});
