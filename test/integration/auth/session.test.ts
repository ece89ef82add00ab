// Staying signed in: renewal after an expired access token, sign-in again when the portal refuses (the
// failed command offers "Sign In" and runs again), sign out, the Accounts menu's sessions, other windows'
// changes through SecretStorage, and the status bar.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { BROWSER_TAG, driver } from '../support/driver';
import { emulator, emulatorControl, resetEmulator } from '../support/emulator';
import { testApi } from '../support/extension';
import { approvePortalSignIn, connectEmulator, removeAllPortals, removePortal } from '../support/portals';
import { closeAllEditors, openRecord } from '../support/documents';
import { useScriptedPrompter } from '../support/prompter';
import { waitFor, waitForEvent } from '../support/wait';

import type { LoggedRequest } from '../../emulator/requestLog';

async function requestLog(): Promise<string[]> {
  const log = await emulatorControl<LoggedRequest[]>('GET', 'requests');
  await emulatorControl('DELETE', 'requests');
  return log.map((entry) => `${entry.method} ${entry.path} ${entry.status}`);
}

describe('sign-in: staying signed in', () => {
  const user = useScriptedPrompter();
  before(() => vscode.workspace.getConfiguration('portal.auth').update('redirectMode', 'loopback', vscode.ConfigurationTarget.Global));
  beforeEach(async () => {
    await resetEmulator();
    await removeAllPortals();
  });
  after(async () => {
    await removeAllPortals();
    await vscode.workspace.getConfiguration('portal.auth').update('redirectMode', undefined, vscode.ConfigurationTarget.Global);
  });

  it('survives an expired access token by refreshing (authorization code)', async () => {
    const api = await testApi();
    const id = await connectEmulator({ flow: 'authorizationCode' });
    const before = JSON.parse((await api.context.secrets.get(`portal.tokens.${id}`)) ?? '{}') as {
      tokens: { accessToken: string; refreshToken: string };
    };
    await emulatorControl('POST', 'tokens/expire', {});
    await requestLog();
    assert.equal((await api.portals.client(id).listSites()).length, 2);
    assert.deepEqual(await requestLog(), ['GET /api/v1/site 401', 'POST /api/v1/oauth2/token 200', 'GET /api/v1/site 200']);
    const after = JSON.parse((await api.context.secrets.get(`portal.tokens.${id}`)) ?? '{}') as {
      tokens: { accessToken: string; refreshToken: string };
    };
    assert.notEqual(after.tokens.accessToken, before.tokens.accessToken, 'the renewed token is stored');
    assert.notEqual(after.tokens.refreshToken, before.tokens.refreshToken, 'with the rotated refresh token');
    assert.equal(api.portals.state(id), 'signedIn');
  });

  it('client credentials: an expired token is replaced by a new one, no question asked', async () => {
    const api = await testApi();
    const id = await connectEmulator();
    await emulatorControl('POST', 'tokens/expire', {});
    await requestLog();
    assert.equal((await api.portals.client(id).listSites()).length, 2);
    assert.deepEqual(await requestLog(), ['GET /api/v1/site 401', 'POST /api/v1/oauth2/token 200', 'GET /api/v1/site 200']);
  });

  it('when the portal refuses the refresh, the command offers Sign In and then runs again', async () => {
    const api = await testApi();
    const id = await connectEmulator({ flow: 'authorizationCode' });
    await emulatorControl('POST', 'tokens/expire', { refresh_tokens: true });
    user()
      .answerMessage('Sign In', /has expired/)
      .onOpenExternal(async (target) => (await approvePortalSignIn(target), true));
    assert.equal(await vscode.commands.executeCommand('portal.checkConnection', id), undefined, 'the first run fails');
    await user().waitForMessage(/answers: 2 sites/, { level: 'info' });
    const error = user().messagesOf('error');
    assert.equal(error.length, 1, `one message: ${JSON.stringify(error)}`);
    assert.match(error[0] ?? '', /Your sign-in to the portal "Emulator" has expired/);
    assert.deepEqual(user().messages.find((message) => message.level === 'error')?.actions, ['Sign In']);
    assert.equal(user().prompts.length, 0, 'nothing was asked again: same command, same arguments');
    assert.equal(api.portals.state(id), 'signedIn');
    const failures = api.logLines().filter((line) => line.includes('portal.checkConnection:'));
    assert.equal(failures.length, 1, 'one log line for the failure');
  });

  it('signs out: the tokens are forgotten, the session ends, calls ask to sign in', async () => {
    const api = await testApi();
    const id = await connectEmulator();
    const ended = waitForEvent(vscode.authentication.onDidChangeSessions, (event) => event.provider.id === 'portal', {
      message: 'the session to end',
    });
    await vscode.commands.executeCommand('portal.signOut', id);
    await ended;
    assert.equal(api.portals.state(id), 'signedOut');
    assert.equal(await api.context.secrets.get(`portal.tokens.${id}`), undefined);
    assert.equal(
      await api.context.secrets.get(`portal.clientSecret.${id}`),
      emulator().client_secret,
      'the connection and its secret stay',
    );
    assert.deepEqual(await vscode.authentication.getAccounts('portal'), [], 'no account left in the Accounts menu');
    await assert.rejects(
      api.portals.client(id).listSites(),
      (error: { code?: string; status?: number }) => error.code === 'unauthorized' && error.status === 401,
    );
    await user().waitForMessage(/Signed out of the portal "Emulator"/, { level: 'info' });

    await vscode.commands.executeCommand('portal.signIn', id);
    assert.equal(api.portals.state(id), 'signedIn');
  });

  it(`lists signed-in portals in the Accounts menu ${BROWSER_TAG}`, async () => {
    await connectEmulator({ label: 'Production' });
    const client = { id: 'staging-client', secret: 'staging-secret' };
    await emulatorControl('POST', 'clients', {
      client_id: client.id,
      client_secret: client.secret,
      redirect_uris: ['http://127.0.0.1/callback'],
    });
    await connectEmulator({ label: 'Staging', client });
    const accounts = await vscode.authentication.getAccounts('portal');
    assert.deepEqual(accounts.map((account) => account.label).sort(), ['Production', 'Staging']);
    await driver.click('.activitybar [aria-label^="Accounts"], .activitybar .codicon-accounts-view-bar-icon');
    const menu = '.context-view .monaco-menu .action-label';
    const labels = await waitFor(
      async () => {
        const shown = await driver.texts(menu);
        return shown.some((label) => label.includes('Production')) ? shown : undefined;
      },
      { message: 'the Accounts menu to list the portals' },
    );
    assert.ok(
      labels.some((label) => label.includes('Staging')),
      `the menu shows: ${labels.join(', ')}`,
    );
    await driver.screenshot('accounts-menu-with-portals');
    await driver.press('Escape');
  });

  it('follows another window: a change in SecretStorage updates the state and fires onDidChange', async () => {
    const api = await testApi();
    const id = await connectEmulator();
    const changed = waitForEvent(api.portals.onDidChange, () => api.portals.state(id) === 'signedOut', {
      message: 'the sign-out of another window',
    });
    // Another window signing out deletes the same SecretStorage entry; its change event reaches this window.
    await api.context.secrets.delete(`portal.tokens.${id}`);
    await changed;
    assert.equal(api.portals.state(id), 'signedOut');
  });

  it('switches the active portal; removing the active one falls back to another', async () => {
    const api = await testApi();
    const first = await connectEmulator({ label: 'First' });
    const client = { id: 'second-client', secret: 'second-secret' };
    await emulatorControl('POST', 'clients', {
      client_id: client.id,
      client_secret: client.secret,
      redirect_uris: ['http://127.0.0.1/callback'],
    });
    const second = await connectEmulator({ label: 'Second', client });
    assert.equal(api.portals.active()?.id, first, 'the first portal added stays active');
    const changed = waitForEvent(api.portals.onDidChange, () => api.portals.active()?.id === second, { message: 'the switch' });
    user().answerQuickPick('Second', /Switch to which portal/);
    await vscode.commands.executeCommand('portal.switchPortal');
    await changed;
    await removePortal(second);
    assert.equal(api.portals.active()?.id, first);
  });

  it('removes a portal: connection, secret and tokens are forgotten', async () => {
    const api = await testApi();
    const id = await connectEmulator();
    await removePortal(id);
    assert.equal(api.portals.get(id), undefined);
    assert.equal(await api.context.secrets.get(`portal.tokens.${id}`), undefined);
    assert.equal(await api.context.secrets.get(`portal.clientSecret.${id}`), undefined);
    assert.throws(() => api.portals.client(id), /No portal is connected as "emulator"/);
  });

  it(`shows the active portal and its state in the status bar ${BROWSER_TAG}`, async () => {
    const api = await testApi();
    const id = await connectEmulator({ label: 'Status Demo' });
    const text = async (): Promise<string> => (await driver.texts('.statusbar-item')).join(' | ');
    await waitFor(async () => (await text()).includes('Status Demo'), { message: 'the status bar to show the portal' });
    await driver.screenshot('status-bar-signed-in');
    await api.portals.signOut(id);
    await waitFor(async () => (await text()).includes('Status Demo: signed out'), { message: 'the status bar to show the sign-out' });
    // Its menu: sign in again from there.
    user().answerQuickPick((item) => item.label.includes('Sign In'), /Status Demo/);
    await vscode.commands.executeCommand('portal.portalActions');
    await waitFor(() => api.portals.state(id) === 'signedIn', { message: 'the menu to sign in' });
  });

  it(`names the portal of the record or tree item the user works on in the status bar ${BROWSER_TAG}`, async () => {
    const api = await testApi();
    const first = await connectEmulator({ label: 'First Portal' });
    await emulatorControl('POST', 'clients', {
      client_id: 'second-client',
      client_secret: 'second-secret',
      redirect_uris: ['http://127.0.0.1/callback'],
    });
    const second = await connectEmulator({ label: 'Second Portal', client: { id: 'second-client', secret: 'second-secret' } });
    await api.portals.setActive(first);
    const text = async (): Promise<string> => (await driver.texts('.statusbar-item')).join(' | ');
    await waitFor(async () => (await text()).includes('First Portal'), { message: 'the status bar to show the active portal' });

    // A record of the other portal in the editor: the status bar names that portal, and its menu is that portal's.
    await openRecord(second, '102', '1');
    await waitFor(async () => (await text()).includes('Second Portal') && !(await text()).includes('First Portal'), {
      message: "the status bar to name the record's portal",
    });
    await driver.screenshot('status-bar-record-portal');
    user().answerQuickPick(undefined, /^Portal: Second Portal/);
    await driver.click('.statusbar-item:has-text("Second Portal")');
    await waitFor(() => user().prompts.some((prompt) => /^Portal: Second Portal/.test(prompt.text)), {
      message: 'the menu of the portal shown',
    });

    // A tree item of the first portal selected: that portal.
    await closeAllEditors();
    await vscode.commands.executeCommand('workbench.view.extension.portal');
    await driver.click('.monaco-list-row[aria-level="1"]:has-text("First Portal")');
    await waitFor(async () => (await text()).includes('First Portal') && !(await text()).includes('Second Portal'), {
      message: 'the status bar to name the selected portal',
    });
  });
});
