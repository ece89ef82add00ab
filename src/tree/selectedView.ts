// Which view the Portal view's selection is in (the view itself, or a record, "Load more…" or another item
// under it), kept in a context key so that Ctrl+F / Cmd+F there finds a record of that view (package.json
// keybindings) instead of opening the editor's find. VS Code's trees have their own find (Ctrl+Alt+F),
// which filters only the items drawn: a page of a view that may hold a million records.
import * as vscode from 'vscode';
import type { ViewTarget } from '../model/targets';
import type { ExplorerNode, ViewNode } from './nodes';

export const SELECTED_VIEW_CONTEXT = 'portal.explorer.viewSelected';

/** The view a node belongs to: itself, or the view it is listed under. */
export function viewOfNode(node: ExplorerNode | undefined): ViewNode | undefined {
  if (!node) return undefined;
  if (node.kind === 'view') return node;
  return node.parent?.kind === 'view' ? node.parent : undefined;
}

/** The view of the tree's selection, as a target for Go to Record. */
export function selectedView(treeView: vscode.TreeView<ExplorerNode>): (ViewTarget & { viewName: string }) | undefined {
  const view = viewOfNode(treeView.selection[0]);
  return view ? { portalId: view.portalId, appId: view.appId, viewId: view.viewId, viewName: view.viewName } : undefined;
}

export function trackSelectedView(treeView: vscode.TreeView<ExplorerNode>): vscode.Disposable {
  let last: boolean | undefined;
  const update = (): void => {
    const inView = selectedView(treeView) !== undefined;
    if (inView === last) return;
    last = inView;
    // Not awaited: a context key settles on its own; the next change of selection sets it again.
    void vscode.commands.executeCommand('setContext', SELECTED_VIEW_CONTEXT, inView);
  };
  update();
  return treeView.onDidChangeSelection(update);
}
