// Copy Link and the URI handler's /open, as a user meets them in the web workbench: the link copied from
// a record of the Portal view, loaded in the browser (the workbench's own /callback form of the
// vscode:// link, via asExternalUri), opens that record; a link to a portal this VS Code does not know
// and no workspace file names says how to add it, and opens nothing.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { BROWSER_TAG } from './support/driver';
import { emulatorPortal, freshExplorer, path, records } from './support/explorer';
import { testApi } from './support/extension';
import { openInWorkbenchBrowser } from './support/portals';
import { useScriptedPrompter } from './support/prompter';
import { emulator } from './support/emulator';
import { waitFor } from './support/wait';
import { workspaceFile } from './support/workspace';

describe(`links to records and views ${BROWSER_TAG}`, function () {
  this.timeout(90_000);
  const user = useScriptedPrompter();
  let portalId = '';

  beforeEach(async () => {
    portalId = await emulatorPortal();
    await freshExplorer(portalId);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('copies a link to a record that opens the record when the browser loads it', async () => {
    await (await testApi()).views.add(portalId, '201', { viewId: '7', name: 'Open tickets' });
    const view = await path(portalId, 'Support', 'Tickets', 'Views', 'Open tickets');
    const [record] = await waitFor(
      async () => {
        const found = await records(view);
        return found.length > 0 ? found : undefined;
      },
      { message: "the view's records" },
    );
    assert.equal(record.kind, 'record');
    const link = await vscode.commands.executeCommand<string>('portal.copyLink', record);
    assert.equal(user().clipboard.at(-1), link);
    assert.ok(link.includes('open') && !/token|secret/i.test(link), link);

    await openInWorkbenchBrowser(link);
    const opened = await waitFor(() => vscode.window.activeTextEditor?.document.uri, { message: "the record's editor", timeoutMs: 30_000 });
    assert.equal(opened.scheme, 'portal');
    assert.equal(opened.authority, portalId);
    assert.match(opened.path, new RegExp(`^/201/${record.kind === 'record' ? record.recordId : ''}\\b`));
  });

  it('says how to add a portal this VS Code lacks and no workspace file names, and opens nothing', async () => {
    const internal = vscode.Uri.from({
      scheme: vscode.env.uriScheme,
      authority: 'portal-labs.portal-explorer',
      path: '/open',
      query: 'portal=https%3A%2F%2Fportal.example.invalid&name=Elsewhere&app=201&view=7',
    });
    await openInWorkbenchBrowser((await vscode.env.asExternalUri(internal)).toString(true));
    const message = await user().waitForMessage(/no connection to: add it with "Portal: Add Portal…"/, { level: 'error' });
    assert.match(message.message, /Elsewhere/);
    assert.equal(vscode.window.activeTextEditor, undefined);
  });

  it("opens the portal's own page from the workspace file's template, and without one says how to set it", async () => {
    await (await testApi()).views.add(portalId, '201', { viewId: '7', name: 'Open tickets' });
    const view = await path(portalId, 'Support', 'Tickets', 'Views', 'Open tickets');
    await Promise.resolve(vscode.commands.executeCommand('portal.openInPortal', view)).catch(() => undefined);
    await user().waitForMessage(/Add "webUrlTemplate" to the portal in \.vscode\/portal\.json/, { level: 'error' });
    assert.deepEqual(user().opened, []);

    const file = await workspaceFile(
      '.vscode/portal.json',
      JSON.stringify({
        portals: [
          {
            name: 'Team',
            baseUrl: emulator().base_url,
            clientId: emulator().client_id,
            webUrlTemplate: '{baseUrl}/web/app/{appId}/view/{viewId}',
          },
        ],
      }),
    );
    try {
      const api = await testApi();
      await waitFor(() => api.workspace.matches().some((match) => match.kind === 'connected' && match.connectionId === portalId), {
        message: 'the file read',
      });
      const url = await vscode.commands.executeCommand<string>('portal.openInPortal', view);
      assert.equal(url, `${emulator().base_url.replace(/\/+$/, '')}/web/app/201/view/7`);
      assert.deepEqual(
        user().opened.map((target) => target.toString(true)),
        [url],
      );
    } finally {
      await vscode.workspace.fs.delete(file);
    }
  });
});
