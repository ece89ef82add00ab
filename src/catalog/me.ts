// Who the user is on a portal: the one place that reads, asks for and stores `portal.me.email` (the portal's
// API has no "who am I"). Features that look for the user's own records call myEmailOn(); it asks once, when
// a feature first needs it, and keeps the answer in the User settings, where the user can see and change it.
import * as vscode from 'vscode';
import { isEmail } from '../api/email';
import type { PortalConnection } from '../auth/portals';
import { myEmail, portalKey } from '../records/people';
import { setting, settingId } from '../settings/settings';
import { prompter } from '../ui/prompter';

export interface AskForMe {
  /** Why the address is needed, shown in the question ("to find your records"). */
  readonly reason: string;
}

/** The user's e-mail on `portal`, asked for (and stored) when not set yet and `ask` is given; undefined when
 *  the user declines. */
export async function myEmailOn(portal: PortalConnection, ask?: AskForMe): Promise<string | undefined> {
  const known = myEmail(setting('me.email'), portal.baseUrl);
  if (known !== undefined || ask === undefined) return known;
  return askForMyEmail(portal, ask.reason);
}

/** Asks for the user's e-mail on `portal` (showing the current one) and stores it; undefined when dismissed. */
export async function askForMyEmail(portal: PortalConnection, reason: string): Promise<string | undefined> {
  const current = myEmail(setting('me.email'), portal.baseUrl);
  const typed = await prompter().inputBox({
    title: `Your e-mail on ${portal.label}`,
    prompt: `The address the portal's USER columns hold for you, ${reason}. Kept in your User settings (${settingId('me.email')}).`,
    placeHolder: 'you@example.com',
    value: current,
    ignoreFocusOut: true,
    validateInput: (value) => (isEmail(value.trim()) ? undefined : 'An e-mail address, such as ana@example.com.'),
  });
  const email = typed?.trim();
  if (email === undefined || !isEmail(email)) return undefined;
  await storeMyEmail(portal, email);
  return email;
}

async function storeMyEmail(portal: PortalConnection, email: string): Promise<void> {
  const configuration = vscode.workspace.getConfiguration();
  const stored = configuration.inspect<Record<string, unknown>>(settingId('me.email'))?.globalValue ?? {};
  const others = Object.fromEntries(Object.entries(stored).filter(([key]) => portalKey(key) !== portalKey(portal.baseUrl)));
  await configuration.update(settingId('me.email'), { ...others, [portalKey(portal.baseUrl)]: email }, vscode.ConfigurationTarget.Global);
}
