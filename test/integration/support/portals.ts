// Connecting the extension to this run's emulator the way a user does: "Portal: Add Portal" answered by a
// ScriptedPrompter (base URL, name, client id, secret, flow), and, for the authorization code flow, the
// browser step done by approvePortalSignIn(). Other features' tests start with `await connectEmulator()`.
import * as vscode from 'vscode';
import type { AuthFlow } from '../../../src/auth/portals';
import { emulator } from './emulator';
import { testApi } from './extension';
import { ScriptedPrompter } from './prompter';
import { driver } from './driver';

export interface ConnectEmulatorOptions {
  /** Display name; "Emulator" unless given (the connection id is its slug, de-duplicated). */
  label?: string;
  /** Client credentials unless given. The authorization code flow needs the loopback redirect mode, or the browser driver. */
  flow?: AuthFlow;
  /** Another client of the emulator (registered with POST /_emulator/clients): a portal and client id connect once. */
  client?: { id: string; secret: string };
}

const FLOW_ITEM: Record<AuthFlow, string> = { authorizationCode: 'Authorization Code', clientCredentials: 'Client Credentials' };

/**
 * What the user's browser does with the authorize URL: opens it, approves (the emulator's page, or its
 * auto-approve), and follows the redirect to wherever it points: the extension's loopback listener is
 * fetched like a browser tab would; code-server's /callback page (the URI-handler mode) is opened in a new
 * tab of the workbench's own browser, through the harness driver, because only a page of that origin can
 * hand the answer to the workbench.
 * Resolves with the redirect URL the portal sent the browser to.
 */
export async function approvePortalSignIn(target: vscode.Uri | string, decision: 'approve' | 'deny' = 'approve'): Promise<string> {
  const location = await portalRedirect(String(target), decision);
  await deliverRedirect(location);
  return location;
}

/** The authorize step alone: the Location the portal redirects the browser to after `decision`. */
export async function portalRedirect(authorizeUrl: string, decision: 'approve' | 'deny' = 'approve'): Promise<string> {
  const first = await fetch(authorizeUrl, { redirect: 'manual' });
  if (first.status === 302) return locationOf(first);
  const html = await first.text();
  if (first.status !== 200) throw new Error(`The authorize page answered ${first.status}: ${html.slice(0, 300)}`);
  const requestId = /name="request_id" value="([^"]+)"/.exec(html)?.[1];
  if (!requestId) throw new Error(`The authorize page has no approval form: ${html.slice(0, 300)}`);
  const answered = await fetch(new URL('authorize', authorizeUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ request_id: requestId, decision }),
  });
  return locationOf(answered);
}

function locationOf(response: Response): string {
  const location = response.headers.get('location');
  if (response.status !== 302 || !location) throw new Error(`The portal did not redirect the browser (HTTP ${response.status}).`);
  return location;
}

/** Takes the browser to the redirect URL: a loopback listener by HTTP, code-server's /callback in a tab. */
export async function deliverRedirect(location: string): Promise<void> {
  const url = new URL(location);
  if (url.pathname.endsWith('/callback') && url.searchParams.has('vscode-reqid')) {
    await openInWorkbenchBrowser(location);
    return;
  }
  const answer = await fetch(location);
  await answer.text();
}

/**
 * Opens `url` in a new tab of the browser that shows the workbench. The harness driver has no "new tab"
 * operation, so the workbench page opens it itself (window.open; a hidden same-origin frame if popups are
 * blocked). Needs the browser driver (tests tagged [browser]).
 */
export async function openInWorkbenchBrowser(url: string): Promise<void> {
  const opened = await driver.evaluate<boolean>(`(() => {
    const tab = window.open(${JSON.stringify(url)}, '_blank');
    if (tab) return true;
    const frame = document.createElement('iframe');
    frame.style.display = 'none';
    frame.src = ${JSON.stringify(url)};
    document.body.appendChild(frame);
    return false;
  })()`);
  if (!opened) console.log('[portals] popup blocked: the call-back page was loaded in a hidden frame of the workbench');
}

/** Adds this run's emulator as a portal through "Portal: Add Portal" and resolves with the connection id. */
export async function connectEmulator(options: ConnectEmulatorOptions = {}): Promise<string> {
  const api = await testApi();
  const info = emulator();
  const flow = options.flow ?? 'clientCredentials';
  const scripted = new ScriptedPrompter()
    .answerInputBox(info.base_url, /Base URL/)
    .answerInputBox(options.label ?? 'Emulator', /Display name/)
    .answerInputBox(options.client?.id ?? info.client_id, /Client ID/)
    .answerInputBox(options.client?.secret ?? info.client_secret, /Secret Key/)
    .answerQuickPick(FLOW_ITEM[flow], /sign in/);
  if (flow === 'authorizationCode') scripted.onOpenExternal(async (target) => (await approvePortalSignIn(target), true));
  const previous = api.setPrompter(scripted);
  let id: unknown;
  try {
    id = await vscode.commands.executeCommand('portal.addPortal');
  } finally {
    api.setPrompter(previous);
  }
  if (typeof id !== 'string') {
    throw new Error(
      `Adding the emulator as a portal failed: ${JSON.stringify(scripted.messages.map((message) => message.message))}; ${scripted.problems().join('; ')}`,
    );
  }
  scripted.verify();
  return id;
}

/** Removes a connection (its secret and tokens too) through "Portal: Remove Portal", answering its question. */
export async function removePortal(id: string): Promise<void> {
  const api = await testApi();
  const scripted = new ScriptedPrompter().answerMessage('Remove', /Remove the portal/);
  const previous = api.setPrompter(scripted);
  try {
    await vscode.commands.executeCommand('portal.removePortal', id);
  } finally {
    api.setPrompter(previous);
  }
  scripted.verify();
}

/** Removes every connection: a clean start for a suite. */
export async function removeAllPortals(): Promise<void> {
  const api = await testApi();
  for (const connection of [...api.portals.list()]) await removePortal(connection.id);
}
