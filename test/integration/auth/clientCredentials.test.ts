// Adding a portal with the client credentials flow, as a user does it, and where everything ends up:
// the connection in global state, the secret and the tokens in SecretStorage only.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { emulator, emulatorControl, resetEmulator } from '../support/emulator';
import { testApi } from '../support/extension';
import { connectEmulator, removeAllPortals } from '../support/portals';
import { useScriptedPrompter } from '../support/prompter';
import { waitFor } from '../support/wait';

describe('sign-in: client credentials', () => {
  const prompter = useScriptedPrompter();
  beforeEach(async () => {
    await resetEmulator();
    await removeAllPortals();
  });
  after(removeAllPortals);

  it('adds the emulator through Add Portal, signs in, and the client reaches the data', async () => {
    const api = await testApi();
    const id = await connectEmulator({ label: 'Demo Portal' });
    assert.equal(id, 'demo-portal', 'the id is a slug of the display name');
    const connection = api.portals.get(id);
    assert.deepEqual(connection, {
      id,
      label: 'Demo Portal',
      baseUrl: emulator().base_url,
      clientId: emulator().client_id,
      flow: 'clientCredentials',
    });
    assert.equal(api.portals.state(id), 'signedIn');
    const sites = await api.portals.client(id).listSites();
    assert.deepEqual(
      sites.map((site) => site.name),
      ['Operations', 'Support'],
    );
    assert.strictEqual(api.portals.client(id), api.portals.client(id), 'one client per connection');

    // The token request used HTTP Basic (the emulator accepts both; the request log proves the call).
    const log = await emulatorControl<Array<{ method: string; path: string; status: number }>>('GET', 'requests');
    assert.deepEqual(
      log.map((entry) => `${entry.method} ${entry.path} ${entry.status}`),
      ['POST /api/v1/oauth2/token 200', 'GET /api/v1/site 200'],
    );
  });

  it('a second portal with the same name gets its own id; both are listed', async () => {
    const api = await testApi();
    const first = await connectEmulator({ label: 'Staging' });
    await emulatorControl('POST', 'clients', {
      client_id: 'second-client',
      client_secret: 'second-secret',
      redirect_uris: ['http://127.0.0.1/callback'],
    });
    const scripted = prompter()
      .answerInputBox(emulator().base_url)
      .answerInputBox('Staging')
      .answerInputBox('second-client')
      .answerInputBox('second-secret')
      .answerQuickPick('Client Credentials');
    const second = await vscode.commands.executeCommand<string>('portal.addPortal');
    assert.equal(first, 'staging');
    assert.equal(second, 'staging-2');
    assert.deepEqual(
      api.portals.list().map((connection) => connection.id),
      ['staging', 'staging-2'],
    );
    assert.equal(api.portals.state('staging-2'), 'signedIn');
    assert.match(scripted.messagesOf('info').join(), /Connected to the portal "Staging"/);
  });

  it('refuses bad input with a clear message and stores nothing', async () => {
    const api = await testApi();
    // A portal that does not answer: the emulator drops the connection of the token request.
    await emulatorControl('POST', 'faults', { path: 'oauth2/token', drop: true });
    const scripted = prompter()
      // Not http(s): the input box refuses it and stays open for the next answer.
      .answerInputBox('ftp://portal.example', /Base URL/)
      .answerInputBox('portal.example', /Base URL/)
      .answerInputBox(emulator().base_url, /Base URL/)
      .answerInputBox('Nobody home')
      .answerInputBox(emulator().client_id)
      .answerInputBox(emulator().client_secret)
      .answerQuickPick('Client Credentials');
    assert.equal(await vscode.commands.executeCommand('portal.addPortal'), undefined);
    assert.deepEqual(scripted.prompts[0]?.validationMessages, [
      'The portal address must start with https:// or http://, got ftp:.',
      'The portal address "portal.example" is not a URL.',
    ]);
    await scripted.waitForMessage(/could not reach the portal at http:\/\/127\.0\.0\.1:\d+ \(the connection was dropped\)/, {
      level: 'error',
    });

    // Wrong credentials: the portal's own error_description is shown, the secret is not.
    const wrong = prompter()
      .answerInputBox(emulator().base_url)
      .answerInputBox('Wrong secret')
      .answerInputBox(emulator().client_id)
      .answerInputBox('definitely-wrong-secret')
      .answerQuickPick('Client Credentials');
    await vscode.commands.executeCommand('portal.addPortal');
    const refusal = await wrong.waitForMessage(/Unknown client or wrong client secret/, { level: 'error' });
    assert.ok(!refusal.message.includes('definitely-wrong-secret'));
    assert.deepEqual(refusal.actions, ['Edit Details']);
    assert.deepEqual(api.portals.list(), []);
    const state = JSON.stringify(api.context.globalState.keys().map((key) => [key, api.context.globalState.get(key)]));
    assert.ok(!state.includes('Nobody home') && !state.includes('Wrong secret'), 'nothing of it in global state');
    assert.ok(!api.logLines().join('\n').includes('definitely-wrong-secret'), 'nor in the log');
  });

  it('checks the connection through the command wrapper', async () => {
    const id = await connectEmulator();
    const count = await vscode.commands.executeCommand<number>('portal.checkConnection', id);
    assert.equal(count, 2);
    await prompter().waitForMessage(/answers: 2 sites \(Operations, Support\)/, { level: 'info' });
  });

  it('keeps the tokens in SecretStorage and out of settings, global state and the log', async () => {
    const api = await testApi();
    const id = await connectEmulator();
    const stored = await api.context.secrets.get(`portal.tokens.${id}`);
    assert.ok(stored, 'the tokens are in SecretStorage');
    const { tokens } = JSON.parse(stored) as { tokens: { accessToken: string } };
    assert.ok(tokens.accessToken.length > 10, 'an access token');
    const accounts = await vscode.authentication.getAccounts('portal');
    assert.deepEqual(
      accounts.map((account) => [account.id, account.label]),
      [[id, 'Emulator']],
      'the Accounts menu lists the portal',
    );
    assert.equal(await api.context.secrets.get(`portal.clientSecret.${id}`), emulator().client_secret);

    const secrets = [tokens.accessToken, emulator().client_secret];
    const globalState = JSON.stringify(api.context.globalState.keys().map((key) => [key, api.context.globalState.get(key)]));
    const workspaceState = JSON.stringify(api.context.workspaceState.keys().map((key) => [key, api.context.workspaceState.get(key)]));
    // The user's settings file (beside the extension's global storage folder), and what VS Code reads from it.
    const settingsFile = vscode.Uri.joinPath(api.context.globalStorageUri, '..', '..', 'settings.json');
    const fileText = new TextDecoder().decode(await vscode.workspace.fs.readFile(settingsFile));
    assert.match(fileText, /telemetry/, `the user settings file was found (${settingsFile.toString()})`);
    const settings =
      fileText +
      JSON.stringify(vscode.workspace.getConfiguration('portal')) +
      JSON.stringify(vscode.workspace.getConfiguration().inspect('portal'));
    const logText = api.logLines().join('\n');
    for (const secret of secrets) {
      for (const [where, text] of Object.entries({ globalState, workspaceState, settings, logText })) {
        assert.ok(!text.includes(secret), `${where} must not hold a token or secret`);
      }
    }
    assert.match(globalState, /Emulator/, 'the connection itself is in global state');
    await waitFor(() => api.logLines().some((line) => line.includes(`Added the portal ${id}`)), {
      message: 'the log line of the addition',
    });
  });
});
