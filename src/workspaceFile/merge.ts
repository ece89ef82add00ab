// How the workspace's files and the user's own setup come together: the files of a multi-root workspace
// merge into one list of portals; each is matched to this VS Code's connection at the same address; what an
// app's views and saved queries show is the union of the team's and the user's, the team's marked shared.
import type { SharedApp, SharedPortal, SharedQuery, SharedView, WorkspaceFile } from './model';

/** The address as compared: no trailing slash, scheme and host lower case (URL does that). */
export function sameAddress(a: string, b: string): boolean {
  const normal = (text: string): string => {
    try {
      return new URL(text).href.replace(/\/+$/, '');
    } catch {
      return text.replace(/\/+$/, '');
    }
  };
  return normal(a) === normal(b);
}

function mergeApps(first: readonly SharedApp[], second: readonly SharedApp[]): SharedApp[] {
  const apps = [...first];
  for (const app of second) {
    const index = apps.findIndex((known) => known.appId === app.appId);
    if (index < 0) {
      apps.push(app);
      continue;
    }
    const known = apps[index];
    apps[index] = {
      appId: known.appId,
      ...((known.titleField ?? app.titleField) ? { titleField: known.titleField ?? app.titleField } : {}),
      ...((known.startWork ?? app.startWork) ? { startWork: known.startWork ?? app.startWork } : {}),
      ...((known.reference ?? app.reference) ? { reference: known.reference ?? app.reference } : {}),
      views: [...known.views, ...app.views.filter((view) => !known.views.some((other) => other.viewId === view.viewId))],
      queries: [
        ...known.queries,
        ...app.queries.filter((query) => !known.queries.some((other) => other.viewId === query.viewId && other.name === query.name)),
      ],
      layouts: [...known.layouts, ...app.layouts.filter((layout) => !known.layouts.some((other) => other.viewId === layout.viewId))],
      ...(known.boards || app.boards
        ? {
            boards: [
              ...(known.boards ?? []),
              ...(app.boards ?? []).filter((board) => !known.boards?.some((other) => other.viewId === board.viewId)),
            ],
          }
        : {}),
      ...(known.myRecords || app.myRecords ? { myRecords: [...new Set([...(known.myRecords ?? []), ...(app.myRecords ?? [])])] } : {}),
    };
  }
  return apps;
}

/**
 * The portals of every folder's file, in folder order: the same address in two files is one portal (the
 * first folder's name, Client ID and flow; apps merged, the first folder's entry winning a clash).
 */
export function mergeFiles(files: readonly WorkspaceFile[]): SharedPortal[] {
  const portals: SharedPortal[] = [];
  for (const file of files) {
    for (const portal of file.portals) {
      const index = portals.findIndex((known) => sameAddress(known.baseUrl, portal.baseUrl));
      if (index < 0) portals.push(portal);
      else portals[index] = { ...portals[index], apps: mergeApps(portals[index].apps, portal.apps) };
    }
  }
  return portals;
}

export interface KnownConnection {
  readonly id: string;
  readonly label: string;
  readonly baseUrl: string;
}

export type PortalMatch =
  /** This VS Code has a connection at the file's address: the file's entries show under it. */
  | { readonly kind: 'connected'; readonly portal: SharedPortal; readonly connectionId: string }
  /** None at that address, none of that name: shown as "Sign in to <name>". */
  | { readonly kind: 'missing'; readonly portal: SharedPortal }
  /** A connection of the same name at another address: shown, never followed. */
  | { readonly kind: 'conflict'; readonly portal: SharedPortal; readonly connectionId: string; readonly connectionBaseUrl: string };

export function matchPortals(portals: readonly SharedPortal[], connections: readonly KnownConnection[]): PortalMatch[] {
  return portals.map((portal): PortalMatch => {
    const atAddress = connections.find((connection) => sameAddress(connection.baseUrl, portal.baseUrl));
    if (atAddress) return { kind: 'connected', portal, connectionId: atAddress.id };
    const sameName = connections.find((connection) => connection.label.trim().toLowerCase() === portal.name.trim().toLowerCase());
    if (sameName) return { kind: 'conflict', portal, connectionId: sameName.id, connectionBaseUrl: sameName.baseUrl };
    return { kind: 'missing', portal };
  });
}

/** The shared app of a connection, when the workspace names one. */
export function sharedAppOf(matches: readonly PortalMatch[], connectionId: string, appId: string): SharedApp | undefined {
  const match = matches.find((candidate) => candidate.kind === 'connected' && candidate.connectionId === connectionId);
  return match?.portal.apps.find((app) => app.appId === appId);
}

export interface MergedView {
  readonly viewId: string;
  readonly name: string;
  /** In the workspace file (whether or not the user added it too). */
  readonly shared: boolean;
  /** Also among the user's own views. */
  readonly personal: boolean;
}

/** The team's views first, in the file's order, then the user's own that the file does not name. */
export function mergeViews(personal: readonly { viewId: string; name: string }[], shared: readonly SharedView[]): MergedView[] {
  const own = new Set(personal.map((view) => view.viewId));
  return [
    ...shared.map((view) => ({ viewId: view.viewId, name: view.name, shared: true, personal: own.has(view.viewId) })),
    ...personal
      .filter((view) => !shared.some((other) => other.viewId === view.viewId))
      .map((view) => ({ viewId: view.viewId, name: view.name, shared: false, personal: true })),
  ];
}

export interface MergedQuery<Q extends { name: string }> {
  readonly query: Q;
  readonly shared: boolean;
}

/**
 * A view's saved queries by name: the user's own one of the same name wins (it is theirs to change), the
 * team's others are added, marked shared; sorted by name as the tree lists them.
 */
export function mergeQueries<Q extends { name: string }>(
  personal: readonly Q[],
  shared: readonly SharedQuery[],
  viewId: string,
  toQuery: (query: SharedQuery) => Q,
): MergedQuery<Q>[] {
  const own = new Set(personal.map((query) => query.name));
  return [
    ...personal.map((query) => ({ query, shared: false })),
    ...shared.filter((query) => query.viewId === viewId && !own.has(query.name)).map((query) => ({ query: toQuery(query), shared: true })),
  ].sort((a, b) => a.query.name.localeCompare(b.query.name));
}
