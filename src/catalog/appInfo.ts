// What the catalog says about an app, read from the list of sites. Pure, so it is unit-tested in node.
import type { AppRef, Site } from '../api/types';
import { flagOf } from '../api/wire';

export interface AppInfo {
  readonly portalId: string;
  readonly siteId: string;
  readonly siteName: string;
  readonly appId: string;
  readonly name: string;
  /** From the portal when it says (undocumented draft_mode); else true once a draft was seen; else undefined. */
  readonly draftMode: boolean | undefined;
  /** From the portal when it says (undocumented comments_plugin); else undefined. */
  readonly commentsPlugin: boolean | undefined;
}

export function appInfoOf(portalId: string, site: Site, app: AppRef, draftSeen: boolean): AppInfo {
  const draftMode = flagOf(app.draft_mode) ?? (draftSeen ? true : undefined);
  return {
    portalId,
    siteId: site.id,
    siteName: site.name,
    appId: app.app_id,
    name: app.name || `App ${app.app_id}`,
    draftMode,
    commentsPlugin: flagOf(app.comments_plugin),
  };
}
