// What the panel commands work on, as the tree passes it and the palette asks for it. The tree hands over
// { portalId, appId } for an app and { portalId, appId, viewId, viewName? } for a view; from the palette
// (no argument) the user picks the portal, the site and the app, and types the view id (the API cannot
// list an app's views).
import type * as vscode from 'vscode';
import type { Portals } from '../auth/portals';
import { cancelled } from '../auth/signInUi';
import { prompter } from '../ui/prompter';
import { connectionIdArg } from './portalArgs';

/** An app of a portal: the argument of portal.createRecord. */
export interface AppTarget {
  portalId: string;
  appId: string;
  appName?: string;
}

/** A view of an app: the argument of portal.queryView. */
export interface ViewTarget extends AppTarget {
  viewId: string;
  viewName?: string;
}

/** A saved query of a view: the argument of portal.runSavedQuery. */
export interface SavedQueryTarget extends ViewTarget {
  queryName: string;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : typeof value === 'number' ? String(value) : undefined;
}

function field(arg: unknown, name: string): string | undefined {
  return typeof arg === 'object' && arg !== null ? text((arg as Record<string, unknown>)[name]) : undefined;
}

export function appTargetOf(arg: unknown): AppTarget | undefined {
  const portalId = connectionIdArg(arg);
  const appId = field(arg, 'appId');
  if (!portalId || !appId) return undefined;
  const appName = field(arg, 'appName');
  return { portalId, appId, ...(appName ? { appName } : {}) };
}

export function viewTargetOf(arg: unknown): ViewTarget | undefined {
  const app = appTargetOf(arg);
  const viewId = field(arg, 'viewId');
  if (!app || !viewId) return undefined;
  const viewName = field(arg, 'viewName');
  return { ...app, viewId, ...(viewName ? { viewName } : {}) };
}

export function savedQueryTargetOf(arg: unknown): SavedQueryTarget | undefined {
  const view = viewTargetOf(arg);
  const queryName = field(arg, 'queryName');
  return view && queryName ? { ...view, queryName } : undefined;
}

interface IdItem extends vscode.QuickPickItem {
  id: string;
}

async function pick(items: IdItem[], placeHolder: string, what: string): Promise<IdItem> {
  const chosen = await prompter().quickPick(items, { placeHolder, matchOnDescription: true });
  if (!chosen) throw cancelled(what);
  return chosen;
}

/** The portal: the only one, or the one the user picks. */
export async function pickPortal(portals: Portals, title: string): Promise<string> {
  const all = portals.list();
  if (all.length === 0) throw new Error('No portal is connected yet. Add one with "Portal: Add Portal".');
  if (all.length === 1) return all[0].id;
  const chosen = await pick(
    all.map((connection) => ({ id: connection.id, label: connection.label, description: connection.baseUrl })),
    `${title}: which portal?`,
    title,
  );
  return chosen.id;
}

/** Portal, site and app, asked in turn. */
export async function pickApp(portals: Portals, title: string): Promise<AppTarget> {
  const portalId = await pickPortal(portals, title);
  const sites = await portals.client(portalId).listSites();
  if (sites.length === 0) throw new Error('This portal lists no site.');
  const chosenSite = sites.length === 1 ? sites[0] : await pickSite(sites, title);
  const apps = chosenSite.apps;
  if (apps.length === 0) throw new Error(`The site ${chosenSite.name} has no app.`);
  const app = await pick(
    apps.map((candidate) => ({ id: candidate.app_id, label: candidate.name || `App ${candidate.app_id}`, description: `app ${candidate.app_id}` })),
    `${title}: which app of ${chosenSite.name}?`,
    title,
  );
  return { portalId, appId: app.id, appName: app.label };
}

async function pickSite<S extends { id: string; name: string; apps: unknown[] }>(sites: readonly S[], title: string): Promise<S> {
  const chosen = await pick(
    sites.map((site) => ({ id: site.id, label: site.name || `Site ${site.id}`, description: `${site.apps.length} apps` })),
    `${title}: which site?`,
    title,
  );
  const site = sites.find((candidate) => candidate.id === chosen.id);
  if (!site) throw cancelled(title);
  return site;
}

/** Portal, site, app, then the view id typed (the API has no list of views). */
export async function pickView(portals: Portals, title: string): Promise<ViewTarget> {
  const app = await pickApp(portals, title);
  const viewId = await prompter().inputBox({
    title,
    prompt: `Id of the view of ${app.appName ?? `app ${app.appId}`} (the number in the view's address in the portal)`,
    placeHolder: 'e.g. 6',
    ignoreFocusOut: true,
    validateInput: (value) => (/^\s*[A-Za-z0-9_-]+\s*$/.test(value) ? undefined : 'Enter the view id: letters, digits, - or _.'),
  });
  if (viewId === undefined) throw cancelled(title);
  return { ...app, viewId: viewId.trim() };
}
