// A cloned repository's .vscode/settings.json must not turn on what only the user may: the tools that
// change portal data, the webhook receiver's bind address and its start at launch (and which portals take
// unsigned deliveries). Those settings have `application` or `machine` scope, and VS Code leaves such a
// setting's workspace value out of what getConfiguration().get() (and a `config.*` when clause, read from
// the same configuration) sees. The file is written as a repository would have it, then read back.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { useConnectedPortal } from './documents/support';
import { workspaceFile } from './support/workspace';
import { waitFor } from './support/wait';

const RISKY = {
  'portal.agent.allowChanges': true,
  'portal.webhooks.bindAddress': '0.0.0.0',
  'portal.webhooks.autoStart': true,
};

describe('settings a workspace cannot set', function () {
  this.timeout(60_000);
  useConnectedPortal();
  let file: vscode.Uri | undefined;

  afterEach(async () => {
    if (file) await vscode.workspace.fs.delete(file);
    file = undefined;
    await waitFor(() => vscode.workspace.getConfiguration('portal').get('tree.pageSize') === 100, {
      message: 'the workspace settings gone',
      timeoutMs: 10_000,
    });
  });

  it('ignores a workspace value of the risky settings, while taking one of an ordinary setting', async () => {
    // tree.pageSize (window scope) shows when VS Code has read the file.
    file = await workspaceFile('.vscode/settings.json', JSON.stringify({ ...RISKY, 'portal.tree.pageSize': 37 }, null, 2));
    await waitFor(() => vscode.workspace.getConfiguration('portal').get('tree.pageSize') === 37, {
      message: 'the workspace settings read',
      timeoutMs: 10_000,
    });
    const portal = vscode.workspace.getConfiguration('portal');
    assert.equal(portal.get('agent.allowChanges'), false);
    assert.equal(portal.get('webhooks.bindAddress'), '127.0.0.1');
    assert.equal(portal.get('webhooks.autoStart'), false);
    for (const key of Object.keys(RISKY)) {
      assert.equal(vscode.workspace.getConfiguration().inspect(key)?.workspaceValue, undefined, `${key}: no workspace value taken`);
    }
    const answer = await vscode.lm.invokeTool('portal_createRecord', {
      input: { app: 'Orders', fields: { Title: 'Lamps' } },
      toolInvocationToken: undefined,
    });
    const [part] = answer.content;
    assert.ok(part instanceof vscode.LanguageModelTextPart);
    assert.match(part.value, /^The tools that change portal data are turned off\./, 'the tool still refuses');
  });
});
