// The status bar item: the portal the user works on (that of the record or tree item in use, else the
// active one) and its sign-in state; a click opens that portal's menu (sign in, sign out, switch portal,
// add, remove). Until the portals are read (a moment after activation) it says
// only "Portal", and a click opens the same menu once they are.
import * as vscode from 'vscode';
import type { PortalFocus } from './portalFocus';
import type { SignInState } from './portals';
import type { PortalService } from './portalService';

const ICONS: Record<SignInState, string> = { signedIn: '$(account)', signedOut: '$(circle-slash)', expired: '$(warning)' };
const STATES: Record<SignInState, string> = {
  signedIn: 'signed in',
  signedOut: 'signed out',
  expired: 'sign-in expired: click to sign in again',
};

export function createStatusBar(portals: PortalService, menuCommand: string, addCommand: string, focus: PortalFocus): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('portal.status', vscode.StatusBarAlignment.Left, 50);
  item.name = 'Portal';
  item.text = '$(plug) Portal';
  item.tooltip = 'Portal Explorer: reading the connected portals…';
  item.command = menuCommand;
  item.show();
  let activeId: string | undefined;
  const update = (): void => {
    if (!portals.isReady) return;
    // Switching portal starts again from the active one.
    if (activeId !== undefined && portals.active()?.id !== activeId) focus.clear();
    activeId = portals.active()?.id;
    const focused = focus.portalId();
    const active = (focused !== undefined ? portals.get(focused) : undefined) ?? portals.active();
    if (!active) {
      item.text = '$(plug) Add Portal';
      item.tooltip = 'Portal Explorer: connect VS Code to a portal';
      item.command = addCommand;
      item.backgroundColor = undefined;
    } else {
      const state = portals.state(active.id);
      item.text = `${ICONS[state]} ${active.label}${state === 'signedIn' ? '' : state === 'expired' ? ': sign in' : ': signed out'}`;
      const which = active.id === activeId ? '' : ' (the portal of the record or item you work on)';
      item.tooltip = `Portal "${active.label}"${which} (${active.baseUrl}): ${STATES[state]}. Click for sign in, sign out and switch portal.`;
      item.command = { command: menuCommand, title: 'Portal', arguments: [active.id] };
      item.backgroundColor = state === 'expired' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    }
    item.show();
  };
  // Not awaited: the item shows once the portals are read; activation does not wait for it.
  void portals.ready().then(update);
  return vscode.Disposable.from(item, portals.onDidChange(update), focus.onDidChange(update));
}
