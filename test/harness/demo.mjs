// The demo of `npm start`, in one place, so that the journey suite (journeyWorld.mjs) installs and connects
// Portal Explorer exactly as `npm start` does.
//
// The VS Code profile: fresh and temporary (settings, state, secrets; removed on Ctrl+C), except its
// workspace, the folder the demo's VS Code opens and Export and Download propose. That folder is
// test-results/demo-workspace/ in the checkout, kept across starts: what a user saves in the demo
// survives stopping it. test-results/ because it is git-ignored and holds what runs of this checkout
// produce (each checkout its own); not .vscode-test/, a download cache that worktrees share and that may
// be deleted to free space.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createProfile, removeProfile } from './codeServer.mjs';
import { codeServerCallbackPath, extensionIdentity, RESULTS, ROOT } from './config.mjs';

export const DEMO_WORKSPACE = join(RESULTS, 'demo-workspace');

/** A fresh profile whose `workspace` is a kept folder (the demo's, unless another is named). */
export function demoProfile({ workspace = DEMO_WORKSPACE, prefix = 'portal-explorer-start-', settings = {} } = {}) {
  mkdirSync(workspace, { recursive: true });
  return { ...createProfile({ prefix, settings }), workspace };
}

/** What Ctrl+C removes: the profile's folder, not the workspace. */
export function removeDemoProfile(profile) {
  removeProfile(profile);
}

/** Installs the development folder into `profile` for development: a link in its extensions folder, so a
 * rebuild (npm run watch) and a window reload pick up changes. */
export function linkExtension(profile) {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  symlinkSync(ROOT, join(profile.extensions, extensionIdentity(manifest).folder), 'dir');
}

/**
 * The pre-configured portal connection (a demo and development feature, test/README.md "Trying it: npm start"): the
 * extension reads this file once on activation, connects the emulator with the client credentials flow
 * and signs in; the secret then lives in SecretStorage, like that of any portal added by hand. It names
 * the emulator's views too (the API cannot list them): the demo's apps come with their views.
 */
export function writeDemoConnection(profile, info, { label = 'Demo portal', withViews = true } = {}) {
  const file = join(profile.userData, 'portal-connection.json');
  const views = withViews ? (info.views ?? []).map((view) => ({ appId: view.app_id, viewId: view.view_id, name: view.name })) : [];
  const connection = {
    label,
    baseUrl: info.base_url,
    clientId: info.client_id,
    clientSecret: info.client_secret,
    flow: 'clientCredentials',
    views,
  };
  writeFileSync(file, `${JSON.stringify(connection, null, 2)}\n`, { mode: 0o600 });
  return file;
}

/**
 * The team's shared setup in the demo's workspace (.vscode/portal.json, issue 32): the demo portal and its
 * apps' views and a saved query, so that a newcomer sees views and queries at once. Written at each start,
 * because the emulator's address changes from one start to the next; never a secret (the connection file
 * above holds the demo's, outside the workspace).
 */
export function writeDemoWorkspaceFile(workspace, info, label = 'Demo portal') {
  const file = join(workspace, '.vscode', 'portal.json');
  const setup = {
    portals: [
      {
        name: label,
        baseUrl: info.base_url,
        clientId: info.client_id,
        flow: 'clientCredentials',
        apps: [
          {
            id: '101',
            titleField: 'f2',
            views: [
              { id: '1', name: 'All customers' },
              { id: '2', name: 'Gold customers' },
            ],
          },
          {
            id: '102',
            titleField: 'f11',
            views: [
              { id: '3', name: 'All orders' },
              { id: '4', name: 'Open orders' },
              { id: '5', name: 'Orders with customer details' },
            ],
          },
          {
            id: '201',
            titleField: 'f31',
            views: [
              { id: '7', name: 'Open tickets' },
              { id: '8', name: 'Tickets with customer tier' },
            ],
            queries: [{ name: 'High priority', view: '7', filters: [{ column: '34', operator: 'equals', value: '3' }] }],
          },
          {
            id: '202',
            views: [
              { id: '9', name: 'All articles' },
              { id: '10', name: 'Reviewed articles' },
            ],
          },
        ],
      },
    ],
  };
  mkdirSync(join(workspace, '.vscode'), { recursive: true });
  writeFileSync(file, `${JSON.stringify(setup, null, 2)}\n`);
  return file;
}

/** The emulator's arguments: code-server's own call-back registered with the demo client, so that the
 * Authorization Code flow through the URI handler (portal.auth.redirectMode "uriHandler") works too. */
export function demoEmulatorArgs() {
  return ['--redirect-uri', `http://127.0.0.1${codeServerCallbackPath()}`];
}
