// Which documents some editor tab shows: work for a document nobody looks at (VS Code keeps documents alive
// a while after their tabs close) waits until it is shown again.
import * as vscode from 'vscode';

export function shownInTabs(): Set<string> {
  return new Set(
    vscode.window.tabGroups.all
      .flatMap((group) => group.tabs)
      .flatMap((tab) => (tab.input instanceof vscode.TabInputText ? [tab.input.uri.toString()] : [])),
  );
}
