// The per-portal cache of what rarely changes: the list of sites (and so the apps) and each app's columns.
// Shared by the tree, the documents, the panels and the schema, so a portal is asked once for each, until
// someone refreshes. Concurrent callers share one request; a failed request is not kept.
import * as vscode from 'vscode';
import type { Column, Site } from '../api/types';
import type { Portals } from '../auth/portals';
import { Disposable } from '../lifecycle';
import { byPosition } from '../shared/columnOrder';
import { appInfoOf, type AppInfo } from './appInfo';
import { SharedCache } from './sharedCache';

export type { AppInfo } from './appInfo';

export interface CatalogChange {
  readonly portalId: string;
  /** Only this app's entries changed; absent: the whole portal's. */
  readonly appId?: string;
}

const SEPARATOR = '\u0000';
const appKey = (portalId: string, appId: string): string => `${portalId}${SEPARATOR}${appId}`;
const portalOfKey = (key: string): string => key.split(SEPARATOR)[0];

export class Catalog extends Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<CatalogChange>());
  readonly onDidChange: vscode.Event<CatalogChange> = this.changed.event;

  private readonly siteLists = new SharedCache<readonly Site[]>();
  private readonly columnLists = new SharedCache<readonly Column[]>();
  /** Apps (portal and app id) where a draft was seen: Draft mode, where the portal does not say. */
  private readonly draftsSeen = new Set<string>();

  constructor(private readonly portals: Portals) {
    super();
    this._register(portals.onDidChange(() => this.forgetRemovedPortals()));
  }

  /** The portal's sites: one request, kept until refresh. */
  sites(portalId: string, signal?: AbortSignal): Promise<readonly Site[]> {
    return this.siteLists.get(portalId, (abort) => this.portals.client(portalId).listSites(abort), signal);
  }

  /** Every app of every site, in the portal's order. */
  async apps(portalId: string, signal?: AbortSignal): Promise<readonly AppInfo[]> {
    const sites = await this.sites(portalId, signal);
    return sites.flatMap((site) =>
      site.apps.map((app) => appInfoOf(portalId, site, app, this.draftsSeen.has(appKey(portalId, app.app_id)))),
    );
  }

  async app(portalId: string, appId: string, signal?: AbortSignal): Promise<AppInfo | undefined> {
    return (await this.apps(portalId, signal)).find((app) => app.appId === appId);
  }

  /** The app's columns in position order: one request per app, kept until refresh. */
  columns(portalId: string, appId: string, signal?: AbortSignal): Promise<readonly Column[]> {
    return this.columnLists.get(
      appKey(portalId, appId),
      async (abort) => byPosition(await this.portals.client(portalId).listColumns(appId, abort)),
      signal,
    );
  }

  /** The kept columns, without asking the portal (undefined when not read yet). */
  peekColumns(portalId: string, appId: string): readonly Column[] | undefined {
    return this.columnLists.peek(appKey(portalId, appId));
  }

  /** A draft of this app was seen: it has Draft mode, whatever the portal left unsaid. */
  noteDraftSeen(portalId: string, appId: string): void {
    const key = appKey(portalId, appId);
    if (this.draftsSeen.has(key)) return;
    this.draftsSeen.add(key);
    const app = this.siteLists
      .peek(portalId)
      ?.flatMap((site) => site.apps)
      .find((candidate) => candidate.app_id === appId);
    // Only news when the portal's own list does not already say.
    if (app === undefined || app.draft_mode === undefined) this.changed.fire({ portalId, appId });
  }

  /**
   * Drops kept entries: one app's columns; a portal's sites and columns; or everything. Fires onDidChange
   * for what was dropped (per portal when everything is).
   */
  refresh(portalId?: string, appId?: string): void {
    if (portalId !== undefined && appId !== undefined) {
      this.columnLists.drop((key) => key === appKey(portalId, appId));
      this.changed.fire({ portalId, appId });
      return;
    }
    if (portalId !== undefined) {
      this.dropPortal(portalId);
      this.changed.fire({ portalId });
      return;
    }
    const known = new Set([
      ...this.siteLists.keys(),
      ...this.columnLists.keys().map(portalOfKey),
      ...this.portals.list().map((portal) => portal.id),
    ]);
    this.siteLists.drop();
    this.columnLists.drop();
    for (const id of known) this.changed.fire({ portalId: id });
  }

  private dropPortal(portalId: string): void {
    this.siteLists.drop((key) => key === portalId);
    this.columnLists.drop((key) => portalOfKey(key) === portalId);
  }

  /** A removed connection's entries go with it (a new one may reuse nothing of it). */
  private forgetRemovedPortals(): void {
    const ids = new Set(this.portals.list().map((portal) => portal.id));
    const gone = new Set([...this.siteLists.keys(), ...this.columnLists.keys().map(portalOfKey)].filter((id) => !ids.has(id)));
    for (const id of gone) {
      this.dropPortal(id);
      for (const key of [...this.draftsSeen]) if (portalOfKey(key) === id) this.draftsSeen.delete(key);
      this.changed.fire({ portalId: id });
    }
  }
}
