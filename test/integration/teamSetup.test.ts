// Share with Workspace and Keep Personal against a real .vscode/portal.json: sharing moves the user's view, its
// grid layout and a saved query into the file as an edit of its document (created when missing; comments
// kept), marks them shared in the tree and forgets the personal copies; Keep Personal copies a shared entry
// into the user's own and, when asked, takes it out of the file; a file that is not valid JSON is refused and
// nothing of the user's is lost.
import * as assert from 'node:assert/strict';
import { parse } from 'jsonc-parser';
import * as vscode from 'vscode';
import type { ExplorerNode } from '../../src/tree/nodes';
import { children, emulatorPortal, freshExplorer, item, labelOf, path } from './support/explorer';
import { emulator } from './support/emulator';
import { testApi } from './support/extension';
import { useScriptedPrompter } from './support/prompter';
import { waitFor } from './support/wait';
import { teamFile, workspaceFile, workspaceRoot } from './support/workspace';

const FILE = '.vscode/portal.json';
const LAYOUTS_KEY = 'portal.gridLayouts';
/** What a share moved (commands/teamSetup.ts): forgotten between tests, or deleting the file would give it back. */
const MOVED_KEY = 'portal.movedToWorkspace';

describe('Share with Workspace and Keep Personal', function () {
  this.timeout(60_000);
  const user = useScriptedPrompter();
  let portalId = '';
  const fileUri = (): vscode.Uri => vscode.Uri.joinPath(workspaceRoot(), FILE);

  beforeEach(async () => {
    portalId = await emulatorPortal();
    await freshExplorer(portalId);
    await (await testApi()).context.workspaceState.update(LAYOUTS_KEY, undefined);
  });

  afterEach(async () => {
    // A test that failed midway may leave the file's document with unsaved changes: closing must not ask.
    const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === fileUri().toString());
    if (open?.isDirty) {
      await vscode.window.showTextDocument(open);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await (await testApi()).context.workspaceState.update(MOVED_KEY, undefined);
    await vscode.workspace.fs.delete(fileUri()).then(
      () => undefined,
      () => undefined,
    );
    await (await testApi()).context.workspaceState.update(LAYOUTS_KEY, undefined);
  });

  async function viewsShown(): Promise<{ node: ExplorerNode; label: string; description: string; context: string }[]> {
    const nodes = (await children(await path(portalId, 'Support', 'Tickets', 'Views'))).filter((node) => node.kind === 'view');
    return Promise.all(
      nodes.map(async (node) => {
        const treeItem = await item(node);
        return { node, label: labelOf(treeItem), description: String(treeItem.description ?? ''), context: String(treeItem.contextValue) };
      }),
    );
  }

  async function queriesOf(view: ExplorerNode): Promise<{ node: ExplorerNode; label: string; description: string; context: string }[]> {
    const nodes = (await children(view)).filter((node) => node.kind === 'savedQuery');
    return Promise.all(
      nodes.map(async (node) => {
        const treeItem = await item(node);
        return { node, label: labelOf(treeItem), description: String(treeItem.description ?? ''), context: String(treeItem.contextValue) };
      }),
    );
  }

  /** Writes the file as a pull does, and waits until its document (open from a test before) shows it. */
  async function pulled(text: string): Promise<void> {
    await workspaceFile(FILE, text);
    await waitFor(async () => (await vscode.workspace.openTextDocument(fileUri())).getText() === text, {
      message: 'the document follows the disk',
    });
  }

  async function fileText(): Promise<string> {
    return (await vscode.workspace.openTextDocument(fileUri())).getText();
  }

  it('moves a personal view with its grid layout, then a saved query, into a new file, marked shared in the tree', async () => {
    const api = await testApi();
    const view = { portalId, appId: '201', viewId: '7' };
    await api.views.add(portalId, '201', { viewId: '7', name: 'My open tickets' });
    await api.savedQueries.save(view, { name: 'Mine', filters: [{ column: '33', operator: 'equals', value: 'High' }] });
    const layout = { order: ['33', '31'], hidden: ['32'], frozen: 1 };
    await api.context.workspaceState.update(LAYOUTS_KEY, { [JSON.stringify([portalId, '201', '7'])]: layout });

    const [personal] = await viewsShown();
    assert.deepEqual([personal.label, personal.context], ['My open tickets', 'portal.view']);
    const shared = await vscode.commands.executeCommand<string[]>('portal.shareWithWorkspace', personal.node);
    assert.deepEqual(shared, ['the view "My open tickets"', 'the grid layout of "My open tickets"']);

    const text = await fileText();
    const portal = JSON.parse(text).portals[0];
    assert.deepEqual(
      [portal.baseUrl, portal.clientId, portal.flow],
      [emulator().base_url, emulator().client_id, 'clientCredentials'],
      'the portal is named by what the file may hold',
    );
    assert.doesNotMatch(text, new RegExp(emulator().client_secret), 'never the secret');
    assert.deepEqual(portal.apps, [{ id: '201', views: [{ id: '7', name: 'My open tickets' }], layouts: [{ view: '7', ...layout }] }]);
    assert.deepEqual(api.views.personal(portalId, '201'), [], 'the personal copy goes');
    assert.equal(api.context.workspaceState.get<Record<string, unknown>>(LAYOUTS_KEY)?.[JSON.stringify([portalId, '201', '7'])], undefined);
    const sharedView = await waitFor(async () => (await viewsShown()).find((entry) => entry.context === 'portal.view.shared'), {
      message: 'the view shows as shared',
    });
    assert.match(sharedView.description, /^view 7 · shared/);

    const [query] = await queriesOf(sharedView.node);
    assert.deepEqual([query.label, query.context], ['Mine', 'portal.savedQuery']);
    await vscode.commands.executeCommand('portal.shareWithWorkspace', query.node);
    assert.deepEqual(JSON.parse(await fileText()).portals[0].apps[0].queries, [
      { name: 'Mine', view: '7', filters: [{ column: '33', operator: 'equals', value: 'High' }] },
    ]);
    assert.deepEqual(api.savedQueries.personal(view), []);
    await waitFor(async () => (await queriesOf(sharedView.node)).map((entry) => entry.description).join() === 'shared query · 1 filter', {
      message: 'the query shows as shared',
    });
    assert.ok(
      user().messages.some(
        (message) => message.level === 'info' && /Shared the saved query "Mine" in \.vscode\/portal\.json: commit it/.test(message.message),
      ),
      JSON.stringify(user().messages),
    );
  });

  it('gives a shared view and its saved query back as your own when Undo takes them out of the file', async () => {
    const api = await testApi();
    const view = { portalId, appId: '201', viewId: '8' };
    await api.views.add(portalId, '201', { viewId: '8', name: 'Escalated' });
    await api.savedQueries.save(view, { name: 'Urgent', filters: [{ column: '33', operator: 'equals', value: 'High' }] });
    // A file there already, so that each share is an edit of its text (undoing a created file is another matter).
    await pulled('{\n  "portals": []\n}\n');
    const personal = (await viewsShown()).find((entry) => entry.label === 'Escalated');
    assert.ok(personal, 'the personal view shows');
    await vscode.commands.executeCommand('portal.shareWithWorkspace', personal.node);
    const sharedView = await waitFor(async () => (await viewsShown()).find((entry) => entry.label === 'Escalated'), {
      message: 'the shared view shows',
    });
    const [query] = await queriesOf(sharedView.node);
    await vscode.commands.executeCommand('portal.shareWithWorkspace', query.node);
    assert.deepEqual(api.views.personal(portalId, '201'), [], 'moved into the file');
    assert.deepEqual(api.savedQueries.personal(view), []);

    // Undo in the file's editor, as a person does after a share they did not mean, and save.
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(fileUri()));
    await vscode.commands.executeCommand('undo');
    await vscode.commands.executeCommand('undo');
    await vscode.commands.executeCommand('workbench.action.files.save');
    assert.doesNotMatch(await fileText(), /Escalated|Urgent/, 'the undo took both out of the file');

    await waitFor(async () => api.views.personal(portalId, '201').some((entry) => entry.viewId === '8'), {
      message: 'the view is the user’s own again',
    });
    await waitFor(async () => api.savedQueries.personal(view).some((saved) => saved.name === 'Urgent'), {
      message: 'the saved query is the user’s own again',
    });
    const back = await waitFor(async () => (await viewsShown()).find((entry) => entry.label === 'Escalated'), {
      message: 'the view shows again',
    });
    assert.equal(back.context, 'portal.view', 'shown as the user’s own, not shared');
    await waitFor(
      () => user().messages.some((message) => /"Escalated".*no longer in \.vscode\/portal\.json, so yours again/.test(message.message)),
      {
        message: 'the user told so',
      },
    );
  });

  it("edits the team's file in place, keeping its comments, and leaves a user's unsaved changes unsaved", async () => {
    const api = await testApi();
    const team = `{
  // Reviewed like code.
  "portals": [
    {
      "name": "Team emulator",
      "baseUrl": "${emulator().base_url}",
      "clientId": "${emulator().client_id}",
      "flow": "clientCredentials",
      "apps": [{ "id": "201", "views": [{ "id": "6", "name": "All tickets (team)" }] }]
    }
  ]
}
`;
    await pulled(team);
    await waitFor(async () => (await viewsShown()).length === 1, { message: "the file's view shows" });
    const document = await vscode.workspace.openTextDocument(fileUri());
    const unsaved = new vscode.WorkspaceEdit();
    unsaved.insert(fileUri(), document.positionAt(team.indexOf('"portals"')), '// mine, not saved yet\n  ');
    assert.ok(await vscode.workspace.applyEdit(unsaved));

    await api.views.add(portalId, '201', { viewId: '8', name: 'Closed' });
    const own = await waitFor(async () => (await viewsShown()).find((entry) => entry.label === 'Closed'), {
      message: 'the own view shows',
    });
    await vscode.commands.executeCommand('portal.shareWithWorkspace', own.node);

    assert.equal(document.isDirty, true, "the user's unsaved change stays theirs to save");
    const text = document.getText();
    assert.match(text, /\/\/ Reviewed like code\.\n {2}\/\/ mine, not saved yet/);
    assert.deepEqual(
      parse(text).portals[0].apps[0].views.map((view: { id: string }) => view.id),
      ['6', '8'],
    );
    await waitFor(
      async () =>
        (await viewsShown()).map((entry) => entry.description.split(' · ').slice(0, 2).join(' · ')).join() ===
        'view 6 · shared,view 8 · shared',
      {
        message: 'both views show as shared',
      },
    );
    await document.save();
  });

  it('keeps a shared query as your own and, when asked, takes it out of the file; a shared view copied, the file untouched', async () => {
    const api = await testApi();
    const team = teamFile(
      {
        apps: [
          {
            id: '201',
            views: [{ id: '6', name: 'All tickets (team)' }],
            queries: [
              {
                name: 'Urgent',
                view: '6',
                filters: [{ column: '33', operator: 'equals', value: 'High' }],
                sort: [{ column: '31', direction: 'desc' }],
              },
            ],
          },
        ],
      },
      2,
    );
    await pulled(team);
    const view = await waitFor(async () => (await viewsShown()).find((entry) => entry.context === 'portal.view.shared'), {
      message: "the file's view shows",
    });
    const [query] = await waitFor(async () => ((await queriesOf(view.node)).length === 1 ? queriesOf(view.node) : undefined), {
      message: "the file's query shows",
    });
    assert.equal(query.context, 'portal.savedQuery.shared');

    user().answerMessage('Keep and Remove from File', /Keep the saved query "Urgent" as your own\?/);
    await vscode.commands.executeCommand('portal.keepPersonal', query.node);
    const target = { portalId, appId: '201', viewId: '6' };
    assert.deepEqual(api.savedQueries.personal(target), [
      { name: 'Urgent', filters: [{ column: '33', operator: 'equals', value: 'High' }], sort: [{ column: '31', direction: 'desc' }] },
    ]);
    assert.deepEqual(JSON.parse(await fileText()).portals[0].apps[0].queries, [], 'out of the file');
    await waitFor(async () => (await queriesOf(view.node)).map((entry) => entry.context).join() === 'portal.savedQuery', {
      message: 'the query shows as your own',
    });

    user().answerMessage('Keep a Copy', /Keep the view "All tickets \(team\)" as your own\?/);
    await vscode.commands.executeCommand('portal.keepPersonal', view.node);
    assert.deepEqual(api.views.personal(portalId, '201'), [{ viewId: '6', name: 'All tickets (team)' }]);
    assert.deepEqual(JSON.parse(await fileText()).portals[0].apps[0].views, [{ id: '6', name: 'All tickets (team)' }], 'the file keeps it');
  });

  it("runs a shared query with the file's columns, in their order, sorted as it says", async () => {
    const api = await testApi();
    await pulled(
      teamFile({
        apps: [
          {
            id: '201',
            views: [{ id: '7', name: 'Open tickets (team)' }],
            queries: [
              {
                name: 'Critical, newest first',
                view: '7',
                filters: [{ column: '34', operator: 'equals', value: '4' }],
                sort: [{ column: 'f30', direction: 'desc' }],
                columns: ['f31', 'f30'],
              },
            ],
          },
        ],
      }),
    );
    const view = await waitFor(async () => (await viewsShown()).find((entry) => entry.context === 'portal.view.shared'), {
      message: "the file's view shows",
    });
    const [query] = await waitFor(async () => ((await queriesOf(view.node)).length === 1 ? queriesOf(view.node) : undefined), {
      message: "the file's query shows",
    });
    const treeItem = await item(query.node);
    assert.ok(treeItem.command);
    await vscode.commands.executeCommand(treeItem.command.command, ...(treeItem.command.arguments ?? []));
    const result = await waitFor(
      async () => (await api.queryResults()).find((entry) => entry.viewId === '7' && entry.sort !== undefined && entry.rows !== undefined),
      { message: 'the query ran and its result is sorted', timeoutMs: 60_000 },
    );
    assert.deepEqual(result.columns, ['f31', 'f30']);
    assert.deepEqual(result.sort, { key: 'f30', direction: 'descending' });
  });

  it('refuses a file that is not valid JSON, saying so, and keeps the personal view', async () => {
    const api = await testApi();
    await pulled('{ "portals": [ ');
    await api.views.add(portalId, '201', { viewId: '7', name: 'Mine' });
    const [own] = await viewsShown();
    await Promise.resolve(vscode.commands.executeCommand('portal.shareWithWorkspace', own.node)).catch(() => undefined);
    assert.ok(
      user()
        .messagesOf('error')
        .some((text) => /not valid JSON at the moment/.test(text)),
      JSON.stringify(user().messages),
    );
    assert.equal(await fileText(), '{ "portals": [ ', 'the file is not rewritten');
    assert.deepEqual(api.views.personal(portalId, '201'), [{ viewId: '7', name: 'Mine' }]);
  });
});
