// The language model tools' view of the extension (src/tools/host.ts), built on the first tool call from
// the portals and the features: the catalog (sites and columns, shared with the explorer), the views the
// user added, the bus of record changes (the tree refreshes an app a tool changed, an open document of the
// record reloads: the tool is not the document's save) and the setting that offers the changing tools.
import type { PortalService } from './auth/portalService';
import type { Features } from './features';
import * as vscode from 'vscode';
import { COMMANDS } from './ids';
import { createLogger } from './log';
import { setting } from './settings/settings';
import { prompter } from './ui/prompter';
import type { ToolHost } from './tools/host';
import { SIGN_IN_ACTION } from './ui/failures';
import { PortalTools } from './tools/toolSet';

const log = createLogger('tools');

/**
 * The notification beside a tool's answer that the user must sign in (the answer names the command; the
 * agent may not pass it on): Sign In runs the sign-in command, which reports its own failures.
 */
function offerSignIn(portals: PortalService, portalId: string): void {
  const label = portals.get(portalId)?.label ?? portalId;
  const message = `An agent's tool asked for the portal "${label}", which needs you to sign in. Sign in to let the agent use it.`;
  // Not awaited: the tool answers now; the notification stays until the user acts on it.
  void prompter()
    .info(message, SIGN_IN_ACTION)
    .then(async (choice) => {
      if (choice === SIGN_IN_ACTION) await vscode.commands.executeCommand(COMMANDS.portal.signIn, portalId);
    })
    .catch((error: unknown) => log.warn(`Sign In offered to the agent's user: ${error instanceof Error ? error.message : String(error)}`));
}

export function createPortalTools(portals: PortalService, features: Features): PortalTools {
  const host: ToolHost = {
    portals: () =>
      portals.list().map((connection) => ({ id: connection.id, label: connection.label, state: portals.state(connection.id) })),
    activePortal: () => portals.active()?.id,
    client: (portalId) => portals.client(portalId),
    sites: (portalId, signal) => features.catalog.sites(portalId, signal),
    columns: (portalId, appId, signal) => features.catalog.columns(portalId, appId, signal),
    views: (portalId, appId) => features.views.list(portalId, appId),
    allowChanges: () => setting('agent.allowChanges'),
    // Not "[tools]": that logger's lines are one per call, the tool and the answer's length.
    log: createLogger('tools/records'),
    offerSignIn: (portalId) => offerSignIn(portals, portalId),
    recordChanged: (portalId, appId, recordId, kind) => features.recordEvents.fire({ portalId, appId, recordId, kind, origin: 'agent' }),
    versions: features.versions,
  };
  return new PortalTools(host);
}
