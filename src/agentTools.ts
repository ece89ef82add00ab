// The language model tools' view of the extension (src/tools/host.ts), built on the first tool call from
// the portals and the features: the catalog (sites and columns, shared with the explorer), the views the
// user added, the bus of record changes (the tree refreshes an app a tool changed, an open document of the
// record reloads: the tool is not the document's save) and the setting that offers the changing tools.
import type { PortalService } from './auth/portalService';
import type { Features } from './features';
import { createLogger } from './log';
import { setting } from './settings/settings';
import type { ToolHost } from './tools/host';
import { PortalTools } from './tools/toolSet';

export function createPortalTools(portals: PortalService, features: Features): PortalTools {
  const host: ToolHost = {
    portals: () => portals.list().map((connection) => ({ id: connection.id, label: connection.label, state: portals.state(connection.id) })),
    activePortal: () => portals.active()?.id,
    client: (portalId) => portals.client(portalId),
    sites: (portalId, signal) => features.catalog.sites(portalId, signal),
    columns: (portalId, appId, signal) => features.catalog.columns(portalId, appId, signal),
    views: (portalId, appId) => features.views.list(portalId, appId),
    allowChanges: () => setting('agent.allowChanges'),
    // Not "[tools]": that logger's lines are one per call, the tool and the answer's length.
    log: createLogger('tools/records'),
    recordChanged: (portalId, appId, recordId, kind) => features.recordEvents.fire({ portalId, appId, recordId, kind, origin: 'agent' }),
  };
  return new PortalTools(host);
}
