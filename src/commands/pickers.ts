// Quick picks for palette use, when a command was given no tree item: which portal, app, view or record.
// Every question goes through prompter(); each helper resolves with a target, or undefined when the user
// cancels. When there is nothing to choose from (no portal connected, no view added), they throw an Error
// that says what to do, which registerCommand shows.
import type { ViewRow } from '../api/answers';
import * as vscode from 'vscode';
import type { Portals, SignInState } from '../auth/portals';
import type { AppInfo, Catalog } from '../catalog/catalog';
import { titleColumnOfView } from '../catalog/recordTitles';
import type { Stores } from '../catalog/stores';
import { recordTitle } from '../catalog/titleField';
import type { ViewStore } from '../catalog/views';
import type { RecordNames } from '../model/recordAddress';
import type { AppTarget, PortalTarget, RecordTarget, ViewTarget } from '../model/targets';
import { prompter } from '../ui/prompter';

/** Records offered by pickRecord at most (a view may hold 100,000); the rest are reached by typing the id. */
export const RECORD_PICK_LIMIT = 1000;

const STATE_TEXT: Record<SignInState, string> = { signedIn: 'signed in', signedOut: 'signed out', expired: 'sign-in expired' };

export interface PickOptions {
  /** The quick pick's title, e.g. the command's name. */
  readonly title?: string;
}

type Item<T> = vscode.QuickPickItem & { readonly value?: T };

function separator<T>(label: string): Item<T> {
  return { label, kind: vscode.QuickPickItemKind.Separator };
}

/** A view or record id as typed: non-empty, without slashes or spaces. */
export function idProblem(value: string, what: string): string | undefined {
  const id = value.trim();
  if (id === '') return `Enter the ${what} id, e.g. 6.`;
  if (/[/\\?#\s]/.test(id)) return `A ${what} id has no spaces or slashes.`;
  return undefined;
}

export async function pickPortal(portals: Portals, options: PickOptions = {}): Promise<PortalTarget | undefined> {
  const connections = portals.list();
  if (connections.length === 0) throw new Error('No portal is connected yet. Add one with "Portal: Add Portal".');
  if (connections.length === 1) return { portalId: connections[0].id };
  const active = portals.active()?.id;
  const items: Array<Item<PortalTarget>> = connections.map((connection) => ({
    label: connection.label,
    description: [connection.id === active ? 'active' : undefined, STATE_TEXT[portals.state(connection.id)]].filter(Boolean).join(' · '),
    detail: connection.baseUrl,
    value: { portalId: connection.id },
  }));
  const picked = await prompter().quickPick(items, { title: options.title, placeHolder: 'Which portal?', matchOnDetail: true });
  return picked?.value;
}

/** Portal (when several), then app, grouped by site. */
export async function pickApp(
  portals: Portals,
  catalog: Catalog,
  options: PickOptions & { readonly portal?: PortalTarget } = {},
): Promise<AppTarget | undefined> {
  const portal = options.portal ?? (await pickPortal(portals, options));
  if (!portal) return undefined;
  const apps = await catalog.apps(portal.portalId);
  if (apps.length === 0) throw new Error(`The portal "${portals.get(portal.portalId)?.label ?? portal.portalId}" has no apps.`);
  const items: Array<Item<AppInfo>> = [];
  let site: string | undefined;
  for (const app of apps) {
    if (app.siteId !== site) {
      site = app.siteId;
      items.push(separator(app.siteName || `Site ${app.siteId}`));
    }
    items.push({ label: app.name, description: `app ${app.appId}`, value: app });
  }
  const picked = await prompter().quickPick(items, { title: options.title, placeHolder: 'Which app?', matchOnDescription: true });
  return picked?.value ? { portalId: picked.value.portalId, appId: picked.value.appId } : undefined;
}

async function typeId(what: 'view' | 'record', app: AppTarget, options: PickOptions): Promise<string | undefined> {
  const typed = await prompter().inputBox({
    title: options.title,
    prompt: `The ${what} id in app ${app.appId} (as in the portal's address of the ${what})`,
    placeHolder: what === 'view' ? 'e.g. 6' : 'e.g. 42',
    ignoreFocusOut: true,
    validateInput: (value) => idProblem(value, what),
  });
  return typed?.trim();
}

/**
 * A view of an app (the app asked for when not given): one the user added, or (unless `addedOnly`) a view
 * id typed in.
 */
export async function pickView(
  portals: Portals,
  catalog: Catalog,
  views: ViewStore,
  options: PickOptions & { readonly app?: AppTarget; readonly addedOnly?: boolean } = {},
): Promise<ViewTarget | undefined> {
  const app = options.app ?? (await pickApp(portals, catalog, options));
  if (!app) return undefined;
  const saved = views.list(app.portalId, app.appId);
  if (saved.length === 0 && options.addedOnly)
    throw new Error(`No view of app ${app.appId} was added yet. Add one with "Portal: Add View…".`);
  const typing = '$(edit) Enter a view id…';
  if (saved.length > 0) {
    const items: Array<Item<ViewTarget>> = saved.map((view) => ({
      label: view.name,
      description: `view ${view.viewId}`,
      value: { ...app, viewId: view.viewId, viewName: view.name },
    }));
    if (!options.addedOnly) items.push({ label: typing, alwaysShow: true });
    const picked = await prompter().quickPick(items, { title: options.title, placeHolder: 'Which view?', matchOnDescription: true });
    if (!picked) return undefined;
    if (picked.value) return picked.value;
  }
  const viewId = await typeId('view', app, options);
  if (viewId === undefined) return undefined;
  const known = views.get(app.portalId, app.appId, viewId);
  return known ? { ...app, viewId, viewName: known.name } : { ...app, viewId };
}

export type RecordPickerParts = Pick<Stores, 'portals' | 'catalog' | 'rows' | 'titles'>;

/**
 * A record: one of the view last opened in the tree (the first RECORD_PICK_LIMIT of its rows, by title),
 * or a record id typed in (for that view's app, the given app, or an app picked).
 */
export async function pickRecord(
  parts: RecordPickerParts,
  options: PickOptions & {
    readonly app?: AppTarget;
    /** Offer only the view's drafts (Publish Draft). */ readonly onlyDrafts?: boolean;
  } = {},
): Promise<(RecordTarget & RecordNames) | undefined> {
  const last = parts.rows.lastViewed();
  const view = last && (!options.app || (options.app.portalId === last.portalId && options.app.appId === last.appId)) ? last : undefined;
  const read = view ? parts.rows.peek(view) : undefined;
  if (!view || !read) return typedRecord(parts, options);
  const app: AppTarget = { portalId: view.portalId, appId: view.appId };
  const title = await titleColumnOfView(parts.catalog, app, parts.titles.get(app), read);
  const typing = `$(edit) Enter a record id of app ${app.appId}…`;
  const other = '$(list-tree) A record of another app…';
  const items: Array<Item<RecordTarget & RecordNames>> = [{ label: typing, alwaysShow: true }];
  if (!options.app) items.push({ label: other, alwaysShow: true });
  // Rows are parsed only until the list is full (drafts: until RECORD_PICK_LIMIT of them are found).
  const rows: ViewRow[] = [];
  for (const row of read.rows.rows()) {
    if (rows.length > RECORD_PICK_LIMIT) break;
    if (!options.onlyDrafts || row.draft === true) rows.push(row);
  }
  const viewName = view.viewName ?? `View ${view.viewId}`;
  const more = rows.length > RECORD_PICK_LIMIT ? ` (first ${RECORD_PICK_LIMIT}${options.onlyDrafts ? '' : ` of ${read.rows.length}`})` : '';
  items.push(separator(`${options.onlyDrafts ? `Drafts in ${viewName}` : viewName}${more}`));
  for (const row of rows.slice(0, RECORD_PICK_LIMIT)) {
    if (row.id === undefined) continue;
    const label = recordTitle(row.id, row.values, title);
    items.push({ label, description: `#${row.id}${row.draft ? ' · Draft' : ''}`, value: { ...app, recordId: row.id, title: label } });
  }
  const picked = await prompter().quickPick(items, { title: options.title, placeHolder: 'Which record?', matchOnDescription: true });
  if (!picked) return undefined;
  if (picked.value) return picked.value;
  return typedRecord(parts, picked.label === other ? { ...options, app: undefined } : { ...options, app });
}

/** A record id typed in, of the given app or one picked. */
async function typedRecord(
  parts: RecordPickerParts,
  options: PickOptions & { readonly app?: AppTarget },
): Promise<RecordTarget | undefined> {
  const app = options.app ?? (await pickApp(parts.portals, parts.catalog, options));
  if (!app) return undefined;
  const recordId = await typeId('record', app, options);
  return recordId === undefined ? undefined : { ...app, recordId };
}
