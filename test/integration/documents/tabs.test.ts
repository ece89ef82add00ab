// What a record's tab says (issue 15, defect 6): opened from the tree, a record's tab shows its title, and
// where two tabs would look alike VS Code's own description tells them apart by portal and app. Read in
// the workbench's DOM, as a user sees the tabs. The address keeps resolving by ids: the old form
// (portal://<portal>/<app>/<record>.json) opens the same record.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExplorerNode } from '../../../src/tree/nodes';
import { closeAllEditors } from '../support/documents';
import { BROWSER_TAG, driver } from '../support/driver';
import { emulatorControl, resetEmulator } from '../support/emulator';
import { children, freshExplorer, item, labelOf, path } from '../support/explorer';
import { testApi } from '../support/extension';
import { connectEmulator, removeAllPortals } from '../support/portals';
import { waitFor } from '../support/wait';

interface Tab {
  readonly label: string;
  readonly description: string;
}

/** The editor tabs as the workbench draws them. */
async function tabsShown(): Promise<Tab[]> {
  return driver.evaluate<Tab[]>(
    `[...document.querySelectorAll('.tabs-container .tab')].map((tab) => ({ label: tab.querySelector('.label-name')?.textContent ?? '', description: tab.querySelector('.label-description')?.textContent ?? '' }))`,
  );
}

describe(`record tabs ${BROWSER_TAG}`, function () {
  this.timeout(90_000);
  const portals: string[] = [];

  before(async () => {
    await closeAllEditors();
    await resetEmulator();
    await removeAllPortals();
    // A portal and client id connect once: the second portal is the emulator with another client.
    await emulatorControl('POST', 'clients', {
      client_id: 'tabs-client',
      client_secret: 'tabs-secret',
      redirect_uris: ['http://127.0.0.1/callback'],
    });
    portals.push(
      await connectEmulator({ label: 'Production' }),
      await connectEmulator({ label: 'Staging', client: { id: 'tabs-client', secret: 'tabs-secret' } }),
    );
    const api = await testApi();
    for (const portalId of portals) {
      await freshExplorer(portalId);
      await api.views.add(portalId, '101', { viewId: '1', name: 'All customers' });
      await api.views.add(portalId, '102', { viewId: '3', name: 'All orders' });
    }
  });

  after(async () => {
    await closeAllEditors();
    await removeAllPortals();
  });

  /** The first record of a view in the tree, opened as a click on it does (its item's command). */
  async function openFromTree(portalId: string, site: string, app: string, view: string): Promise<{ node: ExplorerNode; title: string }> {
    const viewNode = await path(portalId, site, app, 'Views', view);
    const node = (await children(viewNode)).find((candidate) => candidate.kind === 'record');
    assert.ok(node && node.kind === 'record', `${view} shows a record`);
    const treeItem = await item(node);
    assert.ok(treeItem.command, 'a record item opens on click');
    await vscode.commands.executeCommand(treeItem.command.command, ...(treeItem.command.arguments ?? []));
    return { node, title: labelOf(treeItem) };
  }

  it('names each record by its title, and tells alike tabs apart by portal and app', async () => {
    const opened = [
      await openFromTree(portals[0], 'Operations', 'Customers', 'All customers'),
      await openFromTree(portals[0], 'Operations', 'Orders', 'All orders'),
      await openFromTree(portals[1], 'Operations', 'Customers', 'All customers'),
    ];
    const tabs = await waitFor(async () => ((await tabsShown()).length === 3 ? tabsShown() : undefined), { message: 'three tabs' });
    await driver.screenshot('record-tabs');
    for (const { title } of opened)
      assert.ok(
        tabs.some((tab) => tab.label.includes(title)),
        `a tab shows "${title}": ${JSON.stringify(tabs)}`,
      );
    const seen = tabs.map((tab) => `${tab.label} ${tab.description}`);
    assert.equal(new Set(seen).size, 3, `the tabs look different: ${JSON.stringify(seen)}`);
    const alike = tabs.filter((tab) => tab.label.includes(opened[0].title));
    assert.equal(alike.length, 2, 'the same customer in both portals');
    assert.ok(
      alike.some((tab) => tab.description.includes(portals[0])) && alike.some((tab) => tab.description.includes(portals[1])),
      `their descriptions name the portals: ${JSON.stringify(alike)}`,
    );
  });

  it('opens the same document from the old address and from the record ids', async () => {
    const before = vscode.window.tabGroups.all.flatMap((group) => group.tabs).length;
    const old = vscode.Uri.parse(`portal://${portals[0]}/101/1.json`);
    const document = await vscode.workspace.openTextDocument(old);
    assert.match(document.getText(), /"f2"/, 'the old address reads the record');
    await vscode.commands.executeCommand('portal.openRecord', { portalId: portals[0], appId: '101', recordId: '1' });
    const active = vscode.window.activeTextEditor?.document.uri;
    assert.ok(active && active.path.endsWith('1.json'), `a record document is active: ${active?.toString()}`);
    assert.equal(
      vscode.window.tabGroups.all.flatMap((group) => group.tabs).length,
      before,
      'opening the record by ids shows the tab already open, not another one',
    );
  });
});
