// Create Record from TODO in a real workbench: the light bulb's command opens the create-record form with
// the comment's title and the file's place, the create reaches the portal (the emulator), and the new
// record's reference is written after the TODO word, as an edit Undo takes back.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { useConnectedPortal } from '../documents/support';
import { driver } from '../support/driver';
import { emulatorControl } from '../support/emulator';
import { testApi } from '../support/extension';
import { useScriptedPrompter } from '../support/prompter';
import { waitFor } from '../support/wait';
import { teamFile, workspaceFile, workspaceRoot } from '../support/workspace';

const KNOWLEDGE_BASE = '202';
const FILE = '.vscode/portal.json';

interface EmulatorRecord {
  data: Record<string, string>;
}

describe('Create Record from TODO', function () {
  this.timeout(120_000);
  const portalId = useConnectedPortal();
  const user = useScriptedPrompter();

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(workspaceRoot(), FILE)).then(
      () => undefined,
      () => undefined,
    );
  });

  it('opens the form pre-filled, creates the record, and writes its reference into the comment', async () => {
    await workspaceFile(FILE, teamFile({ apps: [{ id: KNOWLEDGE_BASE, reference: 'KB-{id}' }] }));
    const api = await testApi();
    await waitFor(() => api.workspace.app(portalId(), KNOWLEDGE_BASE)?.reference, { message: "the workspace file's reference to be read" });
    const uri = await workspaceFile('todo-demo.ts', 'const total = 1;\n// TODO: cache the totals\n');
    const editor = await vscode.window.showTextDocument(uri);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      uri,
      new vscode.Range(1, 5, 1, 5),
    );
    const action = actions.find((candidate) => candidate.title === 'Create Record from TODO…');
    assert.ok(action?.command, `the light bulb offers it: ${actions.map((candidate) => candidate.title).join(', ')}`);
    await vscode.commands.executeCommand(action.command.command, ...(action.command.arguments ?? []));

    const form = driver.webview('New record · Knowledge base');
    await form.waitFor('[data-field="f51"]', { timeoutMs: 20_000 });
    await form.click('#create');
    const created = await user().waitForMessage(/^Created record (\d+) in Knowledge base\.$/, { level: 'info', timeoutMs: 20_000 });
    const id = /record (\d+)/.exec(created.message)?.[1] ?? '';
    const record = await emulatorControl<EmulatorRecord>('GET', `records/${KNOWLEDGE_BASE}/${id}`);
    assert.equal(record.data.f51, 'cache the totals', 'the title is the comment');
    assert.match(record.data.f52, /todo-demo\.ts:2/, 'the body says where the TODO is');
    assert.match(record.data.f52, /TODO: cache the totals/, 'and holds the code');

    await waitFor(() => editor.document.lineAt(1).text === `// TODO KB-${id}: cache the totals`, {
      message: `the reference KB-${id} written into the comment (now "${editor.document.lineAt(1).text}")`,
    });
    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand('undo');
    await waitFor(() => editor.document.lineAt(1).text === '// TODO: cache the totals', { message: 'Undo to take the reference back' });
  });
});
