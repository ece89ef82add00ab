// `npm start`'s workspace: what a user saves in the demo (an export, a downloaded attachment, a file)
// survives stopping it, in a git-ignored folder of the checkout; the rest of the profile stays temporary.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseWorkspaceFile } from '../../../src/workspaceFile/model';
import { repoRoot } from '../../webview/support/repo';

interface Profile {
  dir: string;
  workspace: string;
}

interface DemoModule {
  demoProfile(): Profile;
  removeDemoProfile(profile: Profile): void;
  writeDemoWorkspaceFile(workspace: string, info: { base_url: string; client_id: string; client_secret: string }): string;
}

async function demo(): Promise<DemoModule> {
  return (await import(pathToFileURL(join(repoRoot(), 'test', 'harness', 'demo.mjs')).href)) as DemoModule;
}

describe('the workspace of npm start', () => {
  it('keeps the files a user saved after the demo stops, in a git-ignored folder of the checkout', async () => {
    const { demoProfile, removeDemoProfile } = await demo();
    const profile = demoProfile();
    const saved = join(profile.workspace, `export-${process.pid}.csv`);
    try {
      writeFileSync(saved, 'id,name\n1,Acme\n');
      removeDemoProfile(profile);
      assert.ok(!existsSync(profile.dir), 'the temporary profile is gone');
      assert.ok(existsSync(saved), `${saved} survives stopping the demo`);
      const inRepo = relative(repoRoot(), profile.workspace);
      assert.ok(!inRepo.startsWith('..'), `the workspace is in the checkout (${profile.workspace})`);
      assert.doesNotThrow(() => execFileSync('git', ['check-ignore', '-q', profile.workspace], { cwd: repoRoot() }), 'git ignores it');
    } finally {
      rmSync(saved, { force: true });
      removeDemoProfile(profile);
    }
  });

  it("holds the team's shared setup naming the demo portal and its apps' views, and no secret", async () => {
    const { writeDemoWorkspaceFile } = await demo();
    const workspace = mkdtempSync(join(tmpdir(), 'portal-demo-workspace-'));
    try {
      const info = { base_url: 'http://127.0.0.1:4321', client_id: 'demo-client', client_secret: 'demo-secret-value' };
      const file = writeDemoWorkspaceFile(workspace, info);
      assert.equal(relative(workspace, file), join('.vscode', 'portal.json'));
      const text = readFileSync(file, 'utf8');
      assert.ok(!text.includes(info.client_secret), 'the secret stays out of the workspace');
      const setup = parseWorkspaceFile(text);
      assert.deepEqual(setup.problems, []);
      assert.deepEqual(
        setup.portals.map((portal) => [portal.name, portal.baseUrl, portal.clientId]),
        [['Demo portal', info.base_url, info.client_id]],
      );
      assert.deepEqual(
        setup.portals[0].apps.map((app) => [app.appId, app.views.length]),
        [
          ['101', 2],
          ['102', 3],
          ['201', 2],
          ['202', 2],
        ],
      );
      assert.ok(
        setup.portals[0].apps.some((app) => app.queries.length > 0),
        'a saved query too',
      );
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
  });
});
