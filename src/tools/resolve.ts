// Names a model gives, turned into the portal's ids: a portal by its name or id (asked for when there are
// several and none was named), an app by name or id, a field by its name, field_id_in_data or field_id, a
// choice by its name or id. Every miss is a ToolRefusal that lists what exists, so the model can retry.
import { columnKind } from '../api/columnKinds';
import type { Column, Site } from '../api/types';
import { ADD_PORTAL_COMMAND_TITLE, SIGN_IN_COMMAND_TITLE, SignInRefusal, ToolRefusal, type ToolHost, type ToolPortal } from './host';

const LISTED = 12;

/** Case, spaces and punctuation do not matter: "order date", "Order Date" and "order_date" agree. */
export function nameKey(name: string): string {
  return name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

function listOf(names: readonly string[]): string {
  const shown = names.slice(0, LISTED).join(', ');
  return names.length > LISTED ? `${shown} and ${names.length - LISTED} more` : shown;
}

/** The one item whose id or name is `given`: ids first, then exact names, then names ignoring case and spacing. */
function pick<T>(items: readonly T[], given: string, idOf: (item: T) => readonly string[], nameOf: (item: T) => string): T[] {
  const wanted = given.trim();
  const byId = items.filter((item) => idOf(item).includes(wanted));
  if (byId.length > 0) return byId;
  const exact = items.filter((item) => nameOf(item) === wanted);
  if (exact.length > 0) return exact;
  const key = nameKey(wanted);
  return key === '' ? [] : items.filter((item) => nameKey(nameOf(item)) === key);
}

function portalName(portal: ToolPortal): string {
  return `"${portal.label}" (id ${portal.id})`;
}

/** The connected portal meant by `given` (its name or id), or the only one, whatever its sign-in state. */
export function namedPortal(host: ToolHost, given: string | undefined): ToolPortal {
  const portals = host.portals();
  if (portals.length === 0)
    throw new ToolRefusal(`No portal is connected in VS Code: the user must add one first (${ADD_PORTAL_COMMAND_TITLE}).`);
  if (given !== undefined && given.trim() !== '') {
    const found = pick(
      portals,
      given,
      (item) => [item.id],
      (item) => item.label,
    );
    if (found.length !== 1) {
      throw new ToolRefusal(
        `No connected portal is named "${given.trim()}". Connected portals: ${listOf(portals.map(portalName))}. Give one of their names or ids as "portal".`,
      );
    }
    return found[0];
  }
  if (portals.length === 1) return portals[0];
  throw new ToolRefusal(
    `Several portals are connected: ${listOf(portals.map(portalName))}. Ask the user which one, and give its name or id as "portal".`,
  );
}

/** The connected portal meant by `given` (its name or id), or the only one; refuses when signed out. */
export function resolvePortal(host: ToolHost, given: string | undefined): ToolPortal {
  const portal = namedPortal(host, given);
  if (portal.state !== 'signedIn') {
    const why = portal.state === 'expired' ? 'its sign-in has expired' : 'it is signed out';
    throw new SignInRefusal(
      `The portal ${portalName(portal)} cannot be used: ${why}. The user must sign in first with the command "${SIGN_IN_COMMAND_TITLE}" (portal.signIn); nothing was read or sent.`,
      portal.id,
    );
  }
  return portal;
}

export interface ResolvedApp {
  readonly appId: string;
  readonly name: string;
  readonly site: Site;
  readonly draftMode: string | undefined;
  readonly commentsPlugin: string | undefined;
}

export function appsOf(sites: readonly Site[]): ResolvedApp[] {
  return sites.flatMap((site) =>
    site.apps.map((app) => ({
      appId: app.app_id,
      name: app.name || `App ${app.app_id}`,
      site,
      draftMode: typeof app.draft_mode === 'string' ? app.draft_mode : undefined,
      commentsPlugin: typeof app.comments_plugin === 'string' ? app.comments_plugin : undefined,
    })),
  );
}

/** The app named or numbered `given` among the portal's sites. */
export function resolveApp(sites: readonly Site[], given: string, portal: ToolPortal): ResolvedApp {
  const apps = appsOf(sites);
  const found = pick(
    apps,
    given,
    (app) => [app.appId],
    (app) => app.name,
  );
  if (found.length === 1) return found[0];
  const known = apps.map((app) => `${app.name} (${app.appId})`);
  if (found.length > 1)
    throw new ToolRefusal(
      `Several apps of ${portalName(portal)} are named "${given}": ${listOf(found.map((app) => `${app.name} (${app.appId}) in site ${app.site.name}`))}. Give the app's id.`,
    );
  throw new ToolRefusal(`The portal ${portalName(portal)} has no app "${given}". Its apps: ${listOf(known)}.`);
}

/** "f15 (Order date)": how a field is named in every answer. */
export function fieldLabel(column: Pick<Column, 'field_id_in_data' | 'field_name'>): string {
  return column.field_name ? `${column.field_id_in_data} (${column.field_name})` : column.field_id_in_data;
}

/** The column `given` names: its field_id_in_data (f15), its field_id (15) or its name. */
export function resolveField(columns: readonly Column[], given: string, appName: string): Column {
  const found = pick(
    columns,
    given,
    (column) => [column.field_id_in_data, column.field_id],
    (column) => column.field_name,
  );
  if (found.length === 1) return found[0];
  const known = columns.map(fieldLabel);
  if (found.length > 1)
    throw new ToolRefusal(`Several fields of ${appName} are named "${given}": ${listOf(found.map(fieldLabel))}. Give the field id (f<N>).`);
  throw new ToolRefusal(`${appName} has no field "${given}". Its fields: ${listOf(known)}.`);
}

function sortedChoices(column: Column): NonNullable<Column['choices']> {
  return [...(column.choices ?? [])].sort((a, b) => Number(a.order) - Number(b.order));
}

export function choiceNames(column: Column): string[] {
  return sortedChoices(column).map((choice) => choice.name);
}

/**
 * A Choice column's value from names or ids ("Delivered", "Urgent, Fragile", "4"), as the portal's ids
 * ("4", "1,4"). A name that fits no choice is left as given: the formats check then refuses it, listing
 * the choices. Other kinds are sent as given.
 */
export function wireValue(column: Column, value: string): string {
  if (columnKind(column) !== 'choice' || value === '') return value;
  const choices = sortedChoices(column);
  const items = column.choice_type === '2' ? value.split(',') : [value];
  return items
    .map((item) => {
      const found = pick(
        choices,
        item,
        (choice) => [String(choice.id)],
        (choice) => choice.name,
      );
      return found.length === 1 ? String(found[0].id) : item.trim();
    })
    .join(',');
}
