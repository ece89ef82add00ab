// The emulator of this run is reachable from the extension host over real HTTP, with the credentials the
// harness handed over.
import * as assert from 'node:assert/strict';
import { emulator, emulatorControl, resetEmulator } from './support/emulator';

describe('the portal emulator, seen from the extension host', () => {
  beforeEach(resetEmulator);

  it('answers its test interface with the details the harness handed over', async () => {
    const info = emulator();
    assert.match(info.base_url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.deepEqual(await emulatorControl('GET', 'info'), info);
  });

  it('grants a token for the handed-over client credentials and serves the sites with it', async () => {
    const { base_url, client_id, client_secret } = emulator();
    const token = await fetch(`${base_url}/api/v1/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id, client_secret }),
    });
    assert.equal(token.status, 200);
    const { access_token } = (await token.json()) as { access_token: string };
    const sites = await fetch(`${base_url}/api/v1/site`, { headers: { authorization: `Bearer ${access_token}` } });
    assert.equal(sites.status, 200);
    const body = JSON.stringify(await sites.json());
    assert.ok(body.includes('Operations') && body.includes('Support'), `the seeded sites: ${body.slice(0, 200)}`);

    const log = await emulatorControl<Array<{ method: string; path: string; status: number }>>('GET', 'requests');
    assert.deepEqual(
      log.map((entry) => `${entry.method} ${entry.path} ${entry.status}`),
      ['POST /api/v1/oauth2/token 200', 'GET /api/v1/site 200'],
    );
  });
});
