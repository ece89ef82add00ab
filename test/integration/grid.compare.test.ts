// Compare on a row the grid held back as a conflict: VS Code's diff of the portal's copy and mine, from
// texts the grid keeps only while their editors are open.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { useConnectedPortal } from './documents/support';
import { closeAllEditors } from './support/documents';
import { BROWSER_TAG, driver } from './support/driver';
import { testApi } from './support/extension';
import { clearNotifications } from './support/notifications';
import { typeInto } from './support/grid';
import { waitFor } from './support/wait';

const COMPARE_SCHEME = 'portal-grid-compare';

function compareTab(): vscode.TabInputTextDiff | undefined {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .map((tab) => tab.input)
    .find(
      (input): input is vscode.TabInputTextDiff => input instanceof vscode.TabInputTextDiff && input.original.scheme === COMPARE_SCHEME,
    );
}

describe(`the grid's Compare of a conflict ${BROWSER_TAG}`, () => {
  const portal = useConnectedPortal();
  afterEach(async () => {
    await clearNotifications();
    await closeAllEditors();
  });

  it('shows the portal copy beside mine, and forgets both texts once the diff is closed', async () => {
    await vscode.commands.executeCommand('portal.openViewAsGrid', {
      portalId: portal(),
      appId: '102',
      viewId: '3',
      viewName: 'All orders',
    });
    const grid = driver.webview('All orders');
    await grid.waitFor('#grid-0-1', { timeoutMs: 20_000 });
    await typeInto(grid, 1, 2, 'Chairs');
    // Someone else changes record 2 (its Quantity), then Ctrl+S holds it back.
    await (await testApi()).portals.client(portal()).updateRecord('102', '2', { f18: '99' });
    await grid.press('.data-grid', 'Control+S');
    await waitFor(async () => (await grid.texts('.row-conflict')).length === 1, {
      message: 'the conflict shown in the grid',
      timeoutMs: 20_000,
    });
    // The conflict's row active: its line offers Compare.
    await grid.press('.data-grid', 'Control+Home');
    await grid.press('.data-grid', 'ArrowDown');
    await grid.press('.data-grid', 'ArrowRight');
    await grid.waitFor('#grid-compare');
    await grid.click('#grid-compare');
    await waitFor(() => compareTab() !== undefined, { message: 'the diff of the conflict' });
    const diff = compareTab();
    assert.ok(diff);
    const text = (uri: vscode.Uri): string | undefined =>
      vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString())?.getText();
    await waitFor(() => text(diff.modified) !== undefined, { message: 'the two sides read' });
    assert.equal(JSON.parse(text(diff.original) ?? '').f18, '99', "the portal's copy has their change");
    assert.equal(JSON.parse(text(diff.modified) ?? '').f11, 'Chairs', 'mine has my change');

    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await waitFor(() => !vscode.workspace.textDocuments.some((document) => document.uri.scheme === COMPARE_SCHEME), {
      message: 'the two sides closed',
      timeoutMs: 20_000,
    });
    // Asked for again (as after a reopen), the grid no longer has them.
    assert.equal((await vscode.workspace.openTextDocument(diff.original)).getText(), '');
    assert.equal((await vscode.workspace.openTextDocument(diff.modified)).getText(), '');
  });
});
