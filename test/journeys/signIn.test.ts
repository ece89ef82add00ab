// Journey (a): a first run from the walkthrough. Register (the call-back URL copied from the palette),
// add the demo's portal again with the Authorization Code flow, approve in the real browser tab that VS
// Code opens, see the sites; in both redirect modes. The demo's Client Credentials portal is connected
// already (as in `npm start`), so the same portal and client id are added beside it under another name.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { eventually, requestMark, requestsSince } from './support/emulator';
import {
  answerInput,
  clearNotifications,
  closeAllEditors,
  expand,
  notification,
  pick,
  runCommand,
  treeRow,
  workbenchReady,
} from './support/workbench';
import { openWalkthrough, waitForStepChecked } from './support/walkthrough';
import { page, screenshots, world } from './support/world';

type Mode = 'uriHandler' | 'loopback';

async function clipboard(): Promise<string> {
  return page().evaluate<string>('navigator.clipboard.readText()');
}

/** Sets portal.auth.redirectMode in the Settings editor, as a person does. */
async function setRedirectMode(mode: Mode, shot: (step: string) => Promise<string>): Promise<void> {
  const p = page();
  await runCommand('Preferences: Open User Settings');
  const search = p.locator('.settings-editor .suggest-input-container textarea, .settings-editor .settings-header input').first();
  await search.waitFor();
  await p.keyboard.type('portal.auth.redirectMode');
  const item = p.locator('.settings-editor .setting-item-contents', { hasText: 'Redirect Mode' }).first();
  await item.waitFor();
  await item.locator('.monaco-select-box').click();
  await p.locator('.monaco-select-box-dropdown-container .monaco-list-row', { hasText: new RegExp(`^${mode}`) }).click();
  await shot(`settings: redirect mode ${mode}`);
  // The setting is written to the user's settings file: read it there (a file on disk).
  const file = join(world().profile.userData, 'User', 'settings.json');
  await eventually(
    async () => readFileSync(file, 'utf8'),
    (text) => text.includes(`"portal.auth.redirectMode": "${mode}"`),
    `portal.auth.redirectMode = ${mode} in ${file}`,
  );
  await p.keyboard.press('Escape');
  await closeAllEditors();
}

/** Starts Add Portal from the palette, answers it, and resolves with the browser tab VS Code opened. */
async function addPortal(label: string): Promise<Page> {
  const info = world().emulator.info;
  const tabOpened = world().context.waitForEvent('page', { timeout: 60_000 });
  // From the palette: code-server 1.139 renders the walkthrough's step rows disabled after a step has
  // been checked, so its own "Add Portal" button cannot be reached by a click (the walkthrough is
  // opened, read and checked before and after).
  await runCommand('Portal: Add Portal…');
  await answerInput(/Base URL of the portal/, info.base_url);
  await answerInput(/Display name/, label);
  await answerInput(/Client ID/, info.client_id);
  await answerInput(/Secret Key/, info.client_secret);
  await pick(/Add Portal \(5\/5\)/, 'Authorization Code');
  const tab = await tabOpened;
  await tab.waitForLoadState();
  return tab;
}

describe('Journey (a): first run from the walkthrough, Authorization Code in the browser', function () {
  this.timeout(240_000);

  before(async () => {
    await workbenchReady();
    await clearNotifications();
  });

  after(async () => {
    for (const tab of world().context.pages()) if (tab !== page()) await tab.close();
    await closeAllEditors();
  });

  for (const [mode, label] of [
    ['uriHandler', 'Demo (browser sign-in)'],
    ['loopback', 'Demo (loopback sign-in)'],
  ] as const) {
    it(`${mode}: register, add the portal, approve in the browser tab, see the sites; the steps check`, async () => {
      const shot = screenshots(`a-sign-in-${mode}`);
      if (mode === 'loopback') await setRedirectMode('loopback', shot);
      await closeAllEditors();

      // Register: the call-back URL to give the portal, copied from the palette before the walkthrough was
      // ever shown in this window; then VS Code's Welcome page shows the walkthrough with the step checked.
      await runCommand('Portal: Copy Sign-in Call-back URL');
      await notification(/Copied the call-back URL/);
      const copied = await clipboard();
      await shot('call-back URL copied');
      assert.doesNotMatch(copied, /vscode-reqid/, 'the URL to register names no single sign-in');
      await openWalkthrough('welcomePage');
      await waitForStepChecked('register');
      await shot('walkthrough: register checked');
      await closeAllEditors();

      const mark = await requestMark();
      const tab = await addPortal(label);
      await tab.screenshot({ path: (await shot('browser tab opened')).replace(/\.png$/, '-tab.png') });
      const authorize = new URL(tab.url());
      assert.match(authorize.pathname, /\/api\/v1\/oauth2\/authorize$/, `the tab shows the portal's approval page: ${tab.url()}`);
      assert.equal(await tab.locator('#error').count(), 0, `the portal accepted the request: ${await tab.locator('body').innerText()}`);
      const redirectUri = authorize.searchParams.get('redirect_uri') ?? '';
      // The address the sign-in sends is the one copied; in VS Code for the web the URI handler's call-back
      // also carries the query naming this sign-in, and a loopback one the port of this sign-in (RFC 8252).
      const registered = mode === 'uriHandler' ? redirectUri.split('?')[0] : redirectUri.replace(/^(http:\/\/127\.0\.0\.1):\d+/, '$1');
      assert.equal(registered, copied.replace(/^(http:\/\/127\.0\.0\.1):\d+(?=\/callback$)/, '$1'));

      await tab.locator('#approve').click();
      await tab.waitForLoadState();
      await tab.screenshot({ path: (await shot('approved in the browser')).replace(/\.png$/, '-tab.png') });
      await notification(new RegExp(`Connected to the portal "${label.replace(/[()]/g, '\\$&')}" and signed in`), 60_000);
      await tab.close();
      const authorizeRequests = (await requestsSince(mark)).filter((request) => request.path === '/api/v1/oauth2/authorize');
      assert.deepEqual(
        authorizeRequests.map((request) => `${request.method} ${request.status}`),
        ['GET 200', 'POST 302'],
        'the approval page was shown once and its form answered by the portal',
      );

      await expand(label);
      await treeRow('Operations').waitFor();
      await treeRow('Support').waitFor();
      await shot('the portal shows its sites');

      await closeAllEditors();
      await openWalkthrough();
      await shot('walkthrough after the sign-in');
      // Register was done from the palette: the step checks however the user reached it.
      await waitForStepChecked('register');
      await waitForStepChecked('addPortal');
      await waitForStepChecked('signIn');
      await closeAllEditors();
    });
  }
});
