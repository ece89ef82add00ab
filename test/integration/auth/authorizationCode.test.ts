// The authorization code flow in a real VS Code: through the loopback listener, and through the extension's
// URI handler (code-server's /callback page, opened in the workbench's own browser). The emulator's
// approval page is answered as a user would answer it (Approve / Deny).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { BROWSER_TAG, driver } from '../support/driver';
import { emulator, emulatorControl, resetEmulator } from '../support/emulator';
import { testApi } from '../support/extension';
import { approvePortalSignIn, deliverRedirect, portalRedirect, removeAllPortals } from '../support/portals';
import { useScriptedPrompter, type ScriptedPrompter } from '../support/prompter';
import { waitFor } from '../support/wait';

async function setRedirectMode(mode: 'uriHandler' | 'loopback'): Promise<void> {
  await vscode.workspace.getConfiguration('portal.auth').update('redirectMode', mode, vscode.ConfigurationTarget.Global);
}

/** Queues the answers of "Add Portal" for the emulator with the authorization code flow. */
function addPortalAnswers(user: ScriptedPrompter, label: string, secret = emulator().client_secret): ScriptedPrompter {
  return user
    .answerInputBox(emulator().base_url, /Base URL/)
    .answerInputBox(label, /Display name/)
    .answerInputBox(emulator().client_id, /Client ID/)
    .answerInputBox(secret, /Secret Key/)
    .answerQuickPick('Authorization Code', /sign in/);
}

async function nothingStored(): Promise<void> {
  const api = await testApi();
  assert.deepEqual(api.portals.list(), [], 'no connection was stored');
  const stored = JSON.stringify(api.context.globalState.keys().map((key) => [key, api.context.globalState.get(key)]));
  assert.ok(!stored.includes(emulator().client_id), 'global state holds nothing of it');
}

describe('sign-in: authorization code', () => {
  const user = useScriptedPrompter();
  beforeEach(async () => {
    await resetEmulator();
    await removeAllPortals();
  });
  after(async () => {
    await removeAllPortals();
    await setRedirectMode('uriHandler');
  });

  describe('through the loopback listener', () => {
    before(() => setRedirectMode('loopback'));

    it('adds the portal after the user approves in the browser; PKCE and state on the way', async () => {
      const api = await testApi();
      addPortalAnswers(user(), 'Production').onOpenExternal(async (target) => (await approvePortalSignIn(target), true));
      const id = await vscode.commands.executeCommand<string>('portal.addPortal');
      assert.equal(id, 'production');
      assert.equal(api.portals.state(id), 'signedIn');
      assert.equal(api.portals.get(id)?.flow, 'authorizationCode');
      const authorize = new URL(String(user().opened[0]));
      assert.equal(authorize.pathname, '/api/v1/oauth2/authorize');
      assert.equal(authorize.searchParams.get('client_id'), emulator().client_id);
      assert.equal(authorize.searchParams.get('response_type'), 'code');
      assert.match(authorize.searchParams.get('state') ?? '', /^[\w-]{43}$/);
      assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
      assert.match(authorize.searchParams.get('redirect_uri') ?? '', /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      const stored = JSON.parse((await api.context.secrets.get(`portal.tokens.${id}`)) ?? '{}') as { tokens?: { refreshToken?: string } };
      assert.ok(stored.tokens?.refreshToken, 'a refresh token is kept in SecretStorage');
      assert.equal((await api.portals.client(id).listSites()).length, 2);
    });

    it('Deny in the browser: a clear message, nothing stored', async () => {
      addPortalAnswers(user(), 'Denied').onOpenExternal(async (target) => (await approvePortalSignIn(target, 'deny'), true));
      assert.equal(await vscode.commands.executeCommand('portal.addPortal'), undefined);
      await user().waitForMessage(/access was denied/, { level: 'error' });
      await nothingStored();
    });

    it('an answer with another state is refused and does not end the sign-in: its own answer still signs in', async () => {
      const api = await testApi();
      let forgedStatus = 0;
      addPortalAnswers(user(), 'Forged').onOpenExternal(async (target) => {
        const genuine = await portalRedirect(String(target));
        const forged = new URL(genuine);
        forged.searchParams.set('state', 'not-the-state-of-this-sign-in');
        forgedStatus = (await fetch(forged.href)).status;
        await deliverRedirect(genuine);
        return true;
      });
      const id = await vscode.commands.executeCommand<string>('portal.addPortal');
      assert.equal(forgedStatus, 400, 'the forged answer got the error page');
      assert.equal(id, 'forged');
      assert.equal(api.portals.state(id), 'signedIn');
    });

    it('an expired code is refused with a message to start again: nothing stored', async () => {
      await emulatorControl('POST', 'config', { codeLifetimeSeconds: 0 });
      addPortalAnswers(user(), 'Late').onOpenExternal(async (target) => (await approvePortalSignIn(target), true));
      await vscode.commands.executeCommand('portal.addPortal');
      await user().waitForMessage(/used already or expired/, { level: 'error' });
      await nothingStored();
    });

    it("a wrong secret is refused before the browser opens, with the portal's reason; Edit Details keeps the answers", async () => {
      const api = await testApi();
      addPortalAnswers(user(), 'Wrong', 'not-the-secret')
        .answerMessage('Edit Details', /did not accept the client id and secret/)
        .answerInputBox(emulator().base_url)
        .answerInputBox('Wrong')
        .answerInputBox(emulator().client_id)
        .answerInputBox(emulator().client_secret)
        .answerQuickPick('Authorization Code')
        .onOpenExternal(async (target) => (await approvePortalSignIn(target), true));
      const id = await vscode.commands.executeCommand<string>('portal.addPortal');
      const refusal = user().messagesOf('error')[0] ?? '';
      assert.match(refusal, /Unknown client or wrong client secret/, "the portal's error_description is shown");
      assert.ok(!refusal.includes('not-the-secret'));
      assert.equal(user().opened.length, 1, 'the browser opened only for the right secret');
      // The second round offered every earlier answer again, the secret included.
      const second = user()
        .prompts.filter((prompt) => prompt.kind === 'inputBox')
        .slice(4);
      assert.equal(second.length, 4);
      assert.equal(id, 'wrong');
      assert.equal(api.portals.state(id), 'signedIn');
    });

    it('no answer from the browser within the time limit: a clear message, nothing stored', async () => {
      const api = await testApi();
      api.setSignInTimeout(1500);
      try {
        addPortalAnswers(user(), 'Slow').onOpenExternal(() => true);
        await vscode.commands.executeCommand('portal.addPortal');
        await user().waitForMessage(/timed out/, { level: 'error' });
        await nothingStored();
      } finally {
        api.setSignInTimeout(5 * 60_000);
      }
    });
  });

  describe(`through the URI handler (code-server's /callback) ${BROWSER_TAG}`, () => {
    before(() => setRedirectMode('uriHandler'));

    it('the redirect goes through the workbench page and reaches the extension', async () => {
      const api = await testApi();
      // As the README tells a user of VS Code for the web: register the call-back address this VS Code
      // hands out for the extension's URI (code-server's /<version>/callback), here as a second client.
      const external = await vscode.env.asExternalUri(vscode.Uri.parse(`${vscode.env.uriScheme}://portal-labs.portal-explorer/auth`));
      const callback = new URL(external.toString(true));
      const client = {
        client_id: 'web-client',
        client_secret: 'web-client-secret',
        redirect_uris: [`${callback.origin}${callback.pathname}`],
      };
      await emulatorControl('POST', 'clients', client);
      user()
        .answerInputBox(emulator().base_url, /Base URL/)
        .answerInputBox('Through VS Code', /Display name/)
        .answerInputBox(client.client_id, /Client ID/)
        .answerInputBox(client.client_secret, /Secret Key/)
        .answerQuickPick('Authorization Code', /sign in/)
        .onOpenExternal(async (target) => (await approvePortalSignIn(target), true));
      const id = await vscode.commands.executeCommand<string>('portal.addPortal');
      const redirect = new URL(new URL(String(user().opened[0])).searchParams.get('redirect_uri') ?? '');
      assert.match(redirect.pathname, /\/callback$/, `code-server's call-back route (${redirect.href})`);
      assert.equal(redirect.searchParams.get('vscode-authority'), 'portal-labs.portal-explorer');
      assert.equal(id, 'through-vs-code', `messages: ${JSON.stringify(user().messages.map((m) => m.message))}`);
      assert.equal(api.portals.state(id), 'signedIn');
      await driver.screenshot('signed-in-through-uri-handler');
    });

    it('Cancel on the progress notification ends the wait: silent, nothing stored', async () => {
      addPortalAnswers(user(), 'Cancelled').onOpenExternal(() => true);
      const added = vscode.commands.executeCommand('portal.addPortal');
      await vscode.commands.executeCommand('notifications.showList');
      const cancel = '.notifications-center .notification-list-item:has-text("Signing in to the portal") .monaco-button:has-text("Cancel")';
      await waitFor(async () => (await driver.texts(cancel)).length > 0, { message: 'the progress notification with Cancel' });
      await driver.screenshot('sign-in-progress-with-cancel');
      await driver.click(cancel);
      assert.equal(await added, undefined);
      await vscode.commands.executeCommand('notifications.hideList');
      assert.deepEqual(user().messagesOf('error'), [], 'a cancellation shows no message');
      await nothingStored();
    });
  });
});
