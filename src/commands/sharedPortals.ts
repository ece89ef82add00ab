// "Sign in to <name>": a portal the workspace file (.vscode/portal.json) names and this VS Code lacks is
// connected from the file's address, name, Client ID and flow, asking only for what the file can never
// hold, the Secret Key. The portal is looked up in the file by name: a tree item's or a link's argument is
// never trusted for the address a secret goes to.
import { cancelled } from '../api/errors';
import type * as vscode from 'vscode';
import type { PortalService } from '../auth/portalService';
import type { Stores } from '../catalog/stores';
import { COMMANDS } from '../ids';
import type { SharedPortal } from '../workspaceFile/model';
import { prompter, tell } from '../ui/prompter';
import type { CommandTable } from './register';

export interface SharedPortalParts extends Pick<Stores, 'workspace'> {
  readonly portals: PortalService;
}

function nameOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (typeof arg === 'object' && arg !== null && typeof (arg as { name?: unknown }).name === 'string')
    return (arg as { name: string }).name;
  return undefined;
}

async function chooseMissing(parts: SharedPortalParts, arg: unknown): Promise<SharedPortal> {
  const missing = parts.workspace.matches().flatMap((match) => (match.kind === 'missing' ? [match.portal] : []));
  const name = nameOf(arg)?.trim().toLowerCase();
  if (name !== undefined) {
    const named = missing.find((portal) => portal.name.toLowerCase() === name);
    if (named) return named;
    const conflict = parts.workspace.matches().find((match) => match.kind === 'conflict' && match.portal.name.toLowerCase() === name);
    if (conflict)
      throw new Error(
        `The workspace names "${conflict.portal.name}" at ${conflict.portal.baseUrl}, but your connection of that name is elsewhere: rename your connection, or correct .vscode/portal.json.`,
      );
    throw new Error(`The workspace file names no portal "${nameOf(arg) ?? ''}" that this VS Code lacks.`);
  }
  if (missing.length === 0) throw new Error('Every portal the workspace file names is connected already.');
  if (missing.length === 1) return missing[0];
  const items = missing.map((portal) => ({ label: portal.name, description: portal.baseUrl, portal }));
  const picked = await prompter().quickPick(items, { title: 'Sign in to a portal of the workspace', placeHolder: 'Which portal?' });
  if (!picked) throw cancelled('Signing in');
  return picked.portal;
}

/** Resolves with the new connection's id. */
export async function signInToSharedPortal(parts: SharedPortalParts, arg: unknown): Promise<string> {
  const portal = await chooseMissing(parts, arg);
  const options: vscode.InputBoxOptions = {
    title: `Sign in to ${portal.name}`,
    prompt: `Secret Key of the application ${portal.clientId} at ${portal.baseUrl} (kept in VS Code's secret storage; the workspace file names everything else)`,
    password: true,
    ignoreFocusOut: true,
    validateInput: (value) => (value ? undefined : 'Enter the Secret Key shown for the registered application.'),
  };
  const clientSecret = await prompter().inputBox(options);
  if (!clientSecret) throw cancelled('Signing in');
  const connection = await parts.portals.add({
    label: portal.name,
    baseUrl: portal.baseUrl,
    clientId: portal.clientId,
    clientSecret,
    flow: portal.flow,
    ...(portal.redirectMode ? { redirectMode: portal.redirectMode } : {}),
  });
  tell('info', `Connected to the portal "${connection.label}" from the workspace and signed in.`);
  return connection.id;
}

export function sharedPortalCommands(parts: SharedPortalParts): CommandTable {
  return {
    [COMMANDS.explorer.signInToSharedPortal]: (arg) => signInToSharedPortal(parts, arg),
  };
}
