// The browser is opened with the authorize URL exactly as built: a string goes to env.openExternal
// untouched, whereas a vscode.Uri would re-encode its query and break a redirect_uri that carries a
// query of its own (code-server's /callback?vscode-reqid=...&vscode-scheme=...).
import * as assert from 'node:assert/strict';
import { BROWSER_TAG, driver } from '../support/driver';
import { testApi } from '../support/extension';
import { ScriptedPrompter } from '../support/prompter';
import { waitFor } from '../support/wait';

describe(`opening the browser for a sign-in ${BROWSER_TAG}`, () => {
  afterEach(async () => {
    await driver.evaluate('(() => { if (window.__portalOpen) { window.open = window.__portalOpen; delete window.__portalOpen; } return true; })()');
  });

  it("VS Code's own openExternal hands the workbench the URL as written", async () => {
    const api = await testApi();
    // The real prompter (the one a scripted one replaces); the page's window.open records instead of opening.
    const real = api.setPrompter(new ScriptedPrompter());
    api.setPrompter(real);
    await driver.evaluate(`(() => {
      window.__portalOpen = window.open;
      window.__portalOpened = [];
      window.open = (url) => { window.__portalOpened.push(String(url)); return null; };
      return true;
    })()`);
    // A portal that is not on loopback (code-server would route a loopback address through its own port
    // proxy); .invalid never resolves, and window.open is replaced, so nothing is sent anywhere.
    const redirect = 'https://code.example.invalid/stable-abc/callback?vscode-reqid=7&vscode-scheme=code-oss&vscode-authority=portal-labs.portal-explorer&vscode-path=%2Fauth';
    const url = `https://portal.example.invalid/api/v1/oauth2/authorize?client_id=demo&response_type=code&state=abc_-123&redirect_uri=${encodeURIComponent(redirect)}`;
    void real.openExternal(url);
    const opened = await waitFor(async () => (await driver.evaluate<string[]>('window.__portalOpened'))[0], { message: 'the workbench to open the URL' });
    assert.equal(opened, url);
    assert.equal(new URL(opened).searchParams.get('redirect_uri'), redirect, 'the nested call-back survives whole');
  });
});
