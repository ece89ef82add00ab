// What the catalog says about an app, read from the list of sites. Pure, so it is unit-tested in node.
import type { AppRef, Column, Site } from '../api/types';
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

/** Columns in position order; a position that is not a number goes last, ties keep the portal's order. */
export function byPosition(columns: readonly Column[]): Column[] {
  const rank = (column: Column): number => {
    const position = Number(column.position);
    return column.position !== '' && Number.isFinite(position) ? position : Number.POSITIVE_INFINITY;
  };
  return columns
    .map((column, index) => ({ column, index, rank: rank(column) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((entry) => entry.column);
}
