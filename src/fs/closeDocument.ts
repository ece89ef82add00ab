// Closes every tab of a document. Unsaved changes are reverted first: this is called once the document's
// record is gone (deleted) or saved under another URI (created), when keeping the text has no use and
// VS Code's "Save changes?" question would have no good answer.
import * as vscode from 'vscode';

export async function closeDocument(uri: vscode.Uri): Promise<void> {
  const key = uri.toString();
  const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === key);
  if (document?.isDirty) {
    await vscode.window.showTextDocument(document, { preview: false });
    await vscode.commands.executeCommand('workbench.action.files.revert');
  }
  const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === key);
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs);
}
