// The VS Code profile of `npm start`: fresh and temporary (settings, state, secrets; removed on Ctrl+C),
// except its workspace, the folder the demo's VS Code opens and Export and Download propose. That folder
// is test-results/demo-workspace/ in the checkout, kept across starts: what a user saves in the demo
// survives stopping it. test-results/ because it is git-ignored and holds what runs of this checkout
// produce (each checkout its own); not .vscode-test/, a download cache that worktrees share and that may
// be deleted to free space.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createProfile, removeProfile } from './codeServer.mjs';
import { RESULTS } from './config.mjs';

export const DEMO_WORKSPACE = join(RESULTS, 'demo-workspace');

/** A fresh profile whose `workspace` is the kept demo workspace. */
export function demoProfile() {
  mkdirSync(DEMO_WORKSPACE, { recursive: true });
  return { ...createProfile({ prefix: 'portal-explorer-start-' }), workspace: DEMO_WORKSPACE };
}

/** What Ctrl+C removes: the profile's folder, not the workspace. */
export function removeDemoProfile(profile) {
  removeProfile(profile);
}
