// Who "me" is on a portal: Set My E-mail asks once, refuses what is not an address, keeps the answer in the
// User settings by the portal's base URL, and leaves the other portals' entries alone.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { useConnectedPortal } from './documents/support';
import { emulator } from './support/emulator';
import { useScriptedPrompter } from './support/prompter';

describe('my e-mail on a portal', function () {
  this.timeout(60_000);
  const portalId = useConnectedPortal();
  const user = useScriptedPrompter();
  const key = 'portal.me.email';

  afterEach(async () => {
    await vscode.workspace.getConfiguration().update(key, undefined, vscode.ConfigurationTarget.Global);
  });

  it('is asked for, checked and stored in the User settings by the base URL', async () => {
    const other = { 'https://other.example.com': 'bo@example.com' };
    await vscode.workspace.getConfiguration().update(key, other, vscode.ConfigurationTarget.Global);
    user()
      .answerInputBox('not an address')
      .answerInputBox(' ana@example.com ', /e-mail/i);
    const email = await vscode.commands.executeCommand('portal.setMyEmail', portalId());
    assert.equal(email, 'ana@example.com');
    const rejected = user().prompts.find((prompt) => prompt.kind === 'inputBox')?.validationMessages ?? [];
    assert.ok(
      rejected.some((message) => /e-mail address/.test(message)),
      `the bad answer was refused: ${JSON.stringify(rejected)}`,
    );
    const stored = vscode.workspace.getConfiguration().inspect<Record<string, string>>(key)?.globalValue;
    assert.deepEqual(stored, { ...other, [emulator().base_url.replace(/\/+$/, '')]: 'ana@example.com' });
  });
});
