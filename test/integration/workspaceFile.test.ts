// The team's shared setup (.vscode/portal.json) in a real workbench: the file watched, so that writing it
// (as a `git pull` does), changing it and deleting it redraw the Portal view without a reload; its shared
// views and queries marked; a secret typed into it a Problem at its place, the rest of the file still used.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExplorerNode } from '../../src/tree/nodes';
import { children, emulatorPortal, freshExplorer, item, labelOf, labels, path } from './support/explorer';
import { emulator } from './support/emulator';
import { testApi } from './support/extension';
import { approvePortalSignIn, removeAllPortals } from './support/portals';
import { useScriptedPrompter } from './support/prompter';
import { waitFor } from './support/wait';
import { teamFile, workspaceFile, workspaceRoot } from './support/workspace';

const FILE = '.vscode/portal.json';

function fileText(
  views: { id: string; name: string }[],
  extra = '',
  { name = 'Team emulator', baseUrl = emulator().base_url } = {},
): string {
  return teamFile(
    {
      name,
      baseUrl,
      apps: [
        {
          id: '201',
          views,
          queries: [{ name: 'Urgent (team)', view: views[0]?.id ?? '6', filters: [{ column: '33', operator: 'equals', value: 'High' }] }],
        },
      ],
    },
    2,
  ).replace('"flow"', `${extra}"flow"`);
}

describe('the workspace file .vscode/portal.json', function () {
  this.timeout(60_000);
  const user = useScriptedPrompter();
  let portalId = '';

  beforeEach(async () => {
    portalId = await emulatorPortal();
    await freshExplorer(portalId);
  });

  afterEach(async () => {
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(workspaceRoot(), FILE)).then(
      () => undefined,
      () => undefined,
    );
  });

  async function viewLabels(): Promise<string[]> {
    return labels((await children(await path(portalId, 'Support', 'Tickets', 'Views'))).filter((node) => node.kind === 'view'));
  }

  it("shows the file's views and queries, marked shared, and follows it being written, changed and deleted", async () => {
    const api = await testApi();
    await api.views.add(portalId, '201', { viewId: '7', name: 'My own' });
    await workspaceFile(FILE, fileText([{ id: '6', name: 'Team tickets' }]));
    await waitFor(async () => (await viewLabels()).join() === 'Team tickets,My own', { message: "the file's view shows" });
    const views = await children(await path(portalId, 'Support', 'Tickets', 'Views'));
    assert.deepEqual(await Promise.all(views.map(async (node) => (await item(node)).description)), ['view 6 · shared', 'view 7']);
    const query = (await children(views[0])).find((node) => node.kind === 'savedQuery');
    assert.ok(query, 'the shared query is listed under its view');
    assert.equal((await item(query)).description, 'shared query · 1 filter');

    // A pull that changes the file: no reload.
    await workspaceFile(
      FILE,
      fileText([
        { id: '6', name: 'Renamed by a teammate' },
        { id: '8', name: 'Another' },
      ]),
    );
    await waitFor(async () => (await viewLabels()).join() === 'Renamed by a teammate,Another,My own', {
      message: 'the changed file shows',
    });

    await vscode.workspace.fs.delete(vscode.Uri.joinPath(workspaceRoot(), FILE));
    await waitFor(async () => (await viewLabels()).join() === 'My own', { message: "the deleted file's views go" });
  });

  it('refuses a secret typed into the file with a Problem at its place, and still uses the rest', async () => {
    const uri = await workspaceFile(FILE, fileText([{ id: '6', name: 'Team tickets' }], '"clientSecret": "do-not-commit",\n      '));
    const problems = await waitFor(
      () => {
        const found = vscode.languages.getDiagnostics(uri).filter((diagnostic) => diagnostic.source === 'Portal Explorer');
        return found.length > 0 ? found : undefined;
      },
      { message: 'the secret is a Problem' },
    );
    assert.equal(problems.length, 1);
    assert.match(problems[0].message, /never go in \.vscode\/portal\.json.*secret storage/);
    assert.equal(problems[0].severity, vscode.DiagnosticSeverity.Error);
    const document = await vscode.workspace.openTextDocument(uri);
    // Another suite may have the file open: its document takes the new text from disk a moment later.
    await waitFor(() => document.getText().includes('do-not-commit'), { message: 'the document shows the file as written' });
    assert.equal(document.getText(problems[0].range), '"clientSecret": "do-not-commit"');
    await waitFor(async () => (await viewLabels()).join() === 'Team tickets', { message: 'the rest of the file is used' });

    await workspaceFile(FILE, fileText([{ id: '6', name: 'Team tickets' }]));
    await waitFor(() => vscode.languages.getDiagnostics(uri).length === 0, { message: 'the Problem goes with the secret' });
  });

  async function rootItems(): Promise<{ node: ExplorerNode; label: string; description: string }[]> {
    return Promise.all(
      (await children()).map(async (node) => {
        const treeItem = await item(node);
        return { node, label: labelOf(treeItem), description: String(treeItem.description ?? '') };
      }),
    );
  }

  it('offers "Sign in to <name>" for a portal this VS Code lacks, asks only for the Secret Key, then shows the team\'s views', async () => {
    await removeAllPortals();
    await workspaceFile(FILE, fileText([{ id: '7', name: 'Open tickets (team)' }]));
    const signIn = await waitFor(async () => (await rootItems()).find((entry) => entry.label === 'Sign in to Team emulator'), {
      message: '"Sign in to Team emulator" at the root',
    });
    assert.match(signIn.description, /from the workspace/);

    user().answerInputBox(emulator().client_secret, /Secret Key/);
    const id = await vscode.commands.executeCommand<string>('portal.signInToSharedPortal', signIn.node);
    const api = await testApi();
    assert.equal(api.portals.get(id)?.label, 'Team emulator');
    assert.equal(api.portals.state(id), 'signedIn');
    portalId = id;
    await waitFor(async () => !(await rootItems()).some((entry) => entry.label.startsWith('Sign in to')), {
      message: 'the sign-in item goes',
    });
    // The sign-in item may have come from the file as the test before left it: the watcher's change follows.
    await waitFor(async () => (await viewLabels()).join() === 'Open tickets (team)', { message: "the team's view shows" });
  });

  it("signs in to the file's portal the way its redirectMode says, then and when signing in again", async () => {
    await removeAllPortals();
    // The setting says the URI handler; the file, the loopback listener (the emulator's client registers only that).
    const text = fileText([{ id: '7', name: 'Open tickets (team)' }], '', { name: 'Team sign-in' }).replace(
      '"clientCredentials"',
      '"authorizationCode", "redirectMode": "loopback"',
    );
    await workspaceFile(FILE, text);
    await waitFor(async () => (await rootItems()).some((entry) => entry.label === 'Sign in to Team sign-in'), {
      message: '"Sign in to Team sign-in" at the root',
    });
    const callbacks: string[] = [];
    user()
      .answerInputBox(emulator().client_secret, /Secret Key/)
      .onOpenExternal(async (target) => {
        callbacks.push(new URL(String(target)).searchParams.get('redirect_uri') ?? '');
        await approvePortalSignIn(target);
        return true;
      });
    const id = await vscode.commands.executeCommand<string>('portal.signInToSharedPortal', 'Team sign-in');
    portalId = id;
    const api = await testApi();
    assert.equal(api.portals.state(id), 'signedIn');
    await api.portals.signOut(id);
    await api.portals.signIn(id);
    assert.equal(callbacks.length, 2);
    for (const callback of callbacks) assert.match(callback, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    await removeAllPortals();
  });

  it('shows a portal of the same name at another address as a conflict, and never follows it', async () => {
    const label = (await testApi()).portals.get(portalId)?.label ?? '';
    await workspaceFile(FILE, fileText([{ id: '7', name: 'Elsewhere' }], '', { name: label, baseUrl: 'https://portal.example.invalid' }));
    const conflict = await waitFor(async () => (await rootItems()).find((entry) => entry.label === `${label}: another address`), {
      message: 'the conflict at the root',
    });
    assert.match(conflict.description, /^conflict · portal\.example\.invalid$/);
    assert.deepEqual(await viewLabels(), [], "the file's views are not put under the user's connection");
    await Promise.resolve(vscode.commands.executeCommand('portal.signInToSharedPortal', label)).catch(() => undefined);
    assert.ok(
      user()
        .messagesOf('error')
        .some((text) => /your connection of that name is elsewhere/.test(text)),
      JSON.stringify(user().messages),
    );
  });
});
