// `npm start`'s workspace: what a user saves in the demo (an export, a downloaded attachment, a file)
// survives stopping it, in a git-ignored folder of the checkout; the rest of the profile stays temporary.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../../webview/support/repo';

interface Profile {
  dir: string;
  workspace: string;
}

interface DemoModule {
  demoProfile(): Profile;
  removeDemoProfile(profile: Profile): void;
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
});
