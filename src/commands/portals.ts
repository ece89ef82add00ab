// The sign-in commands: add, remove, sign in, sign out, switch portal, and the status bar's menu.
import { cancelled } from '../api/errors';
import * as vscode from 'vscode';
import type { PortalConnection, SignInState } from '../auth/portals';
import type { PortalService } from '../auth/portalService';
import { askForMyEmail } from '../catalog/me';
import { PORTAL_COMMANDS as COMMANDS } from '../ids';
import { prompter, tell } from '../ui/prompter';
import { addPortal } from './addPortal';
import { connectionIdArg } from './portalArgs';
import type { CommandTable } from './register';

const STATE_TEXT: Record<SignInState, string> = { signedIn: 'signed in', signedOut: 'signed out', expired: 'sign-in expired' };

interface PortalItem extends vscode.QuickPickItem {
  id: string;
}

function itemOf(portals: PortalService, connection: PortalConnection): PortalItem {
  return { id: connection.id, label: connection.label, description: STATE_TEXT[portals.state(connection.id)], detail: connection.baseUrl };
}

/** The portal named by the argument, or the one the user picks among `candidates` (asked only when several). */
async function choose(
  portals: PortalService,
  arg: unknown,
  placeHolder: string,
  candidates: readonly PortalConnection[] = portals.list(),
): Promise<string> {
  const named = connectionIdArg(arg);
  if (named !== undefined) {
    if (!portals.get(named)) throw new Error(`No portal is connected as "${named}".`);
    return named;
  }
  if (portals.list().length === 0) throw new Error('No portal is connected yet. Add one with "Portal: Add Portal".');
  if (candidates.length === 0) throw new Error('There is no portal to choose for this.');
  if (candidates.length === 1) return candidates[0].id;
  const picked = await prompter().quickPick(
    candidates.map((connection) => itemOf(portals, connection)),
    { placeHolder },
  );
  if (!picked) throw cancelled('Choosing a portal');
  return picked.id;
}

/** Sign-in target when the caller named none: the portals that need it first, else any. */
export async function choosePortalToSignIn(portals: PortalService, arg?: unknown): Promise<string> {
  const waiting = portals.list().filter((connection) => portals.state(connection.id) !== 'signedIn');
  return choose(portals, arg, 'Sign in to which portal?', waiting.length > 0 ? waiting : portals.list());
}

async function removePortal(portals: PortalService, arg: unknown): Promise<void> {
  const id = await choose(portals, arg, 'Remove which portal?');
  const label = portals.get(id)?.label ?? id;
  const confirmed = await prompter().warn(
    `Remove the portal "${label}"? VS Code forgets its connection, client secret, tokens, webhook Secret Key, added views and saved queries; the portal itself is not changed.`,
    { modal: true },
    'Remove',
  );
  if (confirmed !== 'Remove') throw cancelled('Removing a portal');
  await portals.remove(id);
  tell('info', `Removed the portal "${label}".`);
}

/** The menu of a portal: the one the status bar names (`arg`), else the active one. */
async function portalActions(portals: PortalService, arg?: unknown): Promise<void> {
  const active = (typeof arg === 'string' ? portals.get(arg) : undefined) ?? portals.active();
  type Action = vscode.QuickPickItem & { run: () => Thenable<unknown> };
  const actions: Action[] = [];
  if (active) {
    const state = portals.state(active.id);
    if (state !== 'signedIn')
      actions.push({
        label: '$(sign-in) Sign In',
        description: active.label,
        run: () => vscode.commands.executeCommand(COMMANDS.signIn, active.id),
      });
    else
      actions.push({
        label: '$(sign-out) Sign Out',
        description: active.label,
        run: () => vscode.commands.executeCommand(COMMANDS.signOut, active.id),
      });
    if (portals.list().length > 1)
      actions.push({ label: '$(arrow-swap) Switch Portal…', run: () => vscode.commands.executeCommand(COMMANDS.switchPortal) });
  }
  actions.push({ label: '$(add) Add Portal…', run: () => vscode.commands.executeCommand(COMMANDS.addPortal) });
  if (active) actions.push({ label: '$(trash) Remove Portal…', run: () => vscode.commands.executeCommand(COMMANDS.removePortal) });
  const title = active ? `Portal: ${active.label} (${STATE_TEXT[portals.state(active.id)]})` : 'Portal: none connected';
  const picked = await prompter().quickPick(actions, { title, placeHolder: 'Choose an action' });
  if (!picked) throw cancelled('The portal menu');
  await picked.run();
}

export function portalCommands(portals: PortalService): CommandTable {
  return {
    [COMMANDS.addPortal]: () => addPortal(portals),
    [COMMANDS.removePortal]: (arg) => removePortal(portals, arg),
    [COMMANDS.signIn]: async (arg) => {
      const id = await choosePortalToSignIn(portals, arg);
      await portals.signIn(id);
      tell('info', `Signed in to the portal "${portals.get(id)?.label ?? id}".`);
      return true;
    },
    [COMMANDS.signOut]: async (arg) => {
      const signedIn = portals.list().filter((connection) => portals.state(connection.id) !== 'signedOut');
      const id = await choose(portals, arg, 'Sign out of which portal?', signedIn);
      await portals.signOut(id);
      tell('info', `Signed out of the portal "${portals.get(id)?.label ?? id}".`);
    },
    [COMMANDS.switchPortal]: async (arg) => {
      const id = await choose(portals, arg, 'Switch to which portal?');
      await portals.setActive(id);
    },
    [COMMANDS.portalActions]: (arg) => portalActions(portals, arg),
    [COMMANDS.setMyEmail]: async (arg) => {
      const id = await choose(portals, arg, 'Set your e-mail on which portal?');
      const portal = portals.get(id);
      if (!portal) return undefined;
      const email = await askForMyEmail(portal, 'to find your records and add you to them');
      if (email === undefined) throw cancelled('Setting your e-mail');
      tell('info', `On "${portal.label}" you are ${email}.`);
      return email;
    },
    [COMMANDS.checkConnection]: async (arg) => {
      const id = await choose(portals, arg, 'Check the connection to which portal?');
      const sites = await portals.client(id).listSites();
      const label = portals.get(id)?.label ?? id;
      tell(
        'info',
        `The portal "${label}" answers: ${sites.length} ${sites.length === 1 ? 'site' : 'sites'} (${sites.map((site) => site.name).join(', ')}).`,
      );
      return sites.length;
    },
  };
}
