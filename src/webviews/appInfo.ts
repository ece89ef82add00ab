// What the list of sites says about an app: its name and, on portals that tell (undocumented draft_mode,
// see test/emulator/README.md), whether it has Draft mode.
import type { PortalClient } from '../api/client';
import { flagOf } from '../api/wire';

export interface AppInfo {
  name: string;
  siteName: string;
  /** undefined when the portal does not say. */
  draftMode: boolean | undefined;
}

export async function appInfo(client: Pick<PortalClient, 'listSites'>, appId: string): Promise<AppInfo | undefined> {
  const sites = await client.listSites().catch(() => []);
  for (const site of sites) {
    const app = site.apps.find((candidate) => candidate.app_id === appId);
    if (app) return { name: app.name, siteName: site.name, draftMode: flagOf(app.draft_mode) };
  }
  return undefined;
}
