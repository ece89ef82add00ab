// Closes every tab of a document. Unsaved changes are reverted first: this is called once the document's
// record is gone (deleted) or saved under another URI (created), when keeping the text has no use and
// VS Code's "Save changes?" question would have no good answer.
import * as vscode from 'vscode';

export async function closeDocument(uri: vscode.Uri): Promise<void> {
  const key = uri.toString();
  await closeDocuments((candidate) => candidate.toString() === key);
}

/** Closes every document whose address matches (a record's, under any of its addresses). */
export async function closeDocuments(matches: (uri: vscode.Uri) => boolean): Promise<void> {
  for (const document of vscode.workspace.textDocuments.filter((candidate) => candidate.isDirty && matches(candidate.uri))) {
    await vscode.window.showTextDocument(document, { preview: false });
    await vscode.commands.executeCommand('workbench.action.files.revert');
  }
  const tabs = vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputText && matches(tab.input.uri));
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs);
}
