// The status bar item: the active portal and its sign-in state; a click opens the portal menu (sign in,
// sign out, switch portal, add, remove). Until the portals are read (a moment after activation) it says
// only "Portal", and a click opens the same menu once they are.
import * as vscode from 'vscode';
import type { SignInState } from './portals';
import type { PortalService } from './portalService';

const ICONS: Record<SignInState, string> = { signedIn: '$(account)', signedOut: '$(circle-slash)', expired: '$(warning)' };
const STATES: Record<SignInState, string> = { signedIn: 'signed in', signedOut: 'signed out', expired: 'sign-in expired: click to sign in again' };

export function createStatusBar(portals: PortalService, menuCommand: string, addCommand: string): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('portal.status', vscode.StatusBarAlignment.Left, 50);
  item.name = 'Portal';
  item.text = '$(plug) Portal';
  item.tooltip = 'Portal Explorer: reading the connected portals…';
  item.command = menuCommand;
  item.show();
  const update = (): void => {
    if (!portals.isReady) return;
    const active = portals.active();
    if (!active) {
      item.text = '$(plug) Add Portal';
      item.tooltip = 'Portal Explorer: connect VS Code to a portal';
      item.command = addCommand;
      item.backgroundColor = undefined;
    } else {
      const state = portals.state(active.id);
      item.text = `${ICONS[state]} ${active.label}${state === 'signedIn' ? '' : state === 'expired' ? ': sign in' : ': signed out'}`;
      item.tooltip = `Portal "${active.label}" (${active.baseUrl}): ${STATES[state]}. Click for sign in, sign out and switch portal.`;
      item.command = menuCommand;
      item.backgroundColor = state === 'expired' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    }
    item.show();
  };
  // Not awaited: the item shows once the portals are read; activation does not wait for it.
  void portals.ready().then(update);
  return vscode.Disposable.from(item, portals.onDidChange(update));
}
