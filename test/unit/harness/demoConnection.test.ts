// `npm start`'s portal comes with its views: the API cannot list them, so the connection file the demo
// writes names the emulator's views, and the extension reads them from it (a newcomer meets "All tickets",
// not "No views yet: Add View…" and a question about an id they cannot know).
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseConnectionFile } from '../../../src/auth/preconfigured';
import { startEmulator } from '../../emulator';
import { TICKETS } from '../../emulator/seed';
import { repoRoot } from '../../webview/support/repo';

interface DemoModule {
  writeDemoConnection(profile: { userData: string }, info: Record<string, unknown>): string;
}

describe("the demo's portal connection (npm start)", () => {
  it("names the emulator's views, which the extension reads with the connection", async () => {
    const emulator = await startEmulator({ port: 0, quiet: true });
    const userData = mkdtempSync(join(tmpdir(), 'portal-demo-connection-'));
    try {
      const { writeDemoConnection } = (await import(pathToFileURL(join(repoRoot(), 'test', 'harness', 'demo.mjs')).href)) as DemoModule;
      const info = {
        base_url: emulator.baseUrl,
        client_id: emulator.clientId,
        client_secret: emulator.clientSecret,
        views: emulator.views,
      };
      const file = parseConnectionFile(readFileSync(writeDemoConnection({ userData }, info), 'utf8'));
      assert.equal(file.baseUrl, emulator.baseUrl);
      const tickets = file.views.filter((view) => view.appId === TICKETS).map((view) => `${view.viewId} ${view.name}`);
      assert.deepEqual(tickets, ['6 All tickets', '7 Open tickets', '8 Tickets with customer tier']);
      assert.equal(file.views.length, emulator.views.length, 'every app of the demo has its views');
    } finally {
      rmSync(userData, { recursive: true, force: true });
      await emulator.close();
    }
  });

  it('says which entry of "views" is malformed', () => {
    const base = { baseUrl: 'http://127.0.0.1:1', clientId: 'id', clientSecret: 'secret' };
    assert.deepEqual(parseConnectionFile(JSON.stringify(base)).views, [], 'no views: none added');
    assert.throws(
      () => parseConnectionFile(JSON.stringify({ ...base, views: { appId: '201' } })),
      /"views" must be a list of \{"appId", "viewId", "name"\}/,
    );
    assert.throws(
      () =>
        parseConnectionFile(
          JSON.stringify({
            ...base,
            views: [
              { appId: '201', viewId: '6', name: 'All' },
              { appId: '201', name: 'No id' },
            ],
          }),
        ),
      /entry 2 is not/,
    );
  });
});
