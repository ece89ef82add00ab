// Files in the test workspace (a fresh temporary folder per run, opened by the harness).
import * as vscode from 'vscode';
import { emulator } from './emulator';

export function workspaceRoot(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('No workspace folder is open: the harness opens one for every run.');
  return folder.uri;
}

/** Writes `content` to `relativePath` in the workspace (creating folders) and returns its URI. */
export async function workspaceFile(relativePath: string, content: string): Promise<vscode.Uri> {
  const uri = vscode.Uri.joinPath(workspaceRoot(), relativePath);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(content));
  return uri;
}

/**
 * The team's shared setup (.vscode/portal.json) naming the emulator, "Team emulator" signed in with client
 * credentials, with the portal's `apps` and anything else it says (a name, an address, a URL template).
 */
export function teamFile(portal: Record<string, unknown> = {}, indent?: number): string {
  const { base_url: baseUrl, client_id: clientId } = emulator();
  return JSON.stringify(
    { portals: [{ name: 'Team emulator', baseUrl, clientId, flow: 'clientCredentials', ...portal }] },
    undefined,
    indent,
  );
}
