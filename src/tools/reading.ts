// The tools that only read: the portals with their sites and apps, an app's columns, a view's rows with
// filters, one record. Each answers text sized for a model (src/tools/answers.ts).
import { columnKind, isWritable } from '../api/columnKinds';
import type { Column } from '../api/types';
import { bounded, describeColumn, MAX_VALUE_CHARS, shortValue, shownValue } from './answers';
import { ADD_VIEW_COMMAND_TITLE, ToolRefusal, type ToolHost, type ToolPortal } from './host';
import { rowLimit, resolveView, viewAnswer, viewFilters, type FilterInput } from './query';
import { appsOf, fieldLabel, resolveApp, resolvePortal, type ResolvedApp } from './resolve';

export interface AppInput {
  readonly portal?: string;
  readonly app: string;
}

export interface Target {
  readonly portal: ToolPortal;
  readonly app: ResolvedApp;
  readonly columns: readonly Column[];
}

/** The portal, app and columns an input names; refuses before anything is read when the portal is signed out. */
export async function targetOf(host: ToolHost, input: AppInput, signal?: AbortSignal): Promise<Target> {
  const portal = resolvePortal(host, input.portal);
  const app = resolveApp(await host.sites(portal.id, signal), String(input.app ?? ''), portal);
  const columns = await host.columns(portal.id, app.appId, signal);
  return { portal, app, columns };
}

export function appTitle(target: Pick<Target, 'portal' | 'app'>): string {
  return `${target.app.name} (app ${target.app.appId}) on portal "${target.portal.label}"`;
}

const STATE_TEXT = {
  signedIn: 'signed in',
  signedOut: 'signed out: the user must run "Portal: Sign In"',
  expired: 'sign-in expired: the user must run "Portal: Sign In"',
} as const;

export async function listPortalsAndApps(host: ToolHost, input: { portal?: string }, signal?: AbortSignal): Promise<string> {
  const all = host.portals();
  if (all.length === 0) return 'No portal is connected in VS Code: the user must add one first (Portal: Add Portal…).';
  const shown = input.portal ? [resolvePortal(host, input.portal)] : all;
  const lines: string[] = [];
  for (const portal of shown) {
    const active = host.activePortal() === portal.id && all.length > 1 ? ', the active portal' : '';
    lines.push(`Portal "${portal.label}" (id ${portal.id}${active}): ${STATE_TEXT[portal.state]}.`);
    if (portal.state !== 'signedIn') continue;
    const sites = await host.sites(portal.id, signal);
    for (const site of sites) {
      const apps = appsOf([site]).map((app) => `${app.name} (app ${app.appId})`);
      lines.push(`- site ${site.name} (${site.id}${site.manager ? `, manager ${site.manager}` : ''}): ${apps.join(', ') || 'no apps'}`);
    }
  }
  return bounded([], lines, (left) => `… ${left} more lines left out; name one portal as "portal" to see it alone.`);
}

function flagText(flag: string | undefined, yes: string, no: string): string | undefined {
  return flag === '1' ? yes : flag === '0' ? no : undefined;
}

export async function describeApp(host: ToolHost, input: AppInput, signal?: AbortSignal): Promise<string> {
  const target = await targetOf(host, input, signal);
  const { app, columns } = target;
  const flags = [
    flagText(app.draftMode, 'has Draft mode', 'no Draft mode'),
    flagText(app.commentsPlugin, 'comments on', 'comments off (the comments plugin is disabled)'),
  ].filter(Boolean);
  const writable = columns.filter(isWritable).length;
  const head = [
    `${appTitle(target)}, site ${app.site.name}${flags.length > 0 ? `; ${flags.join('; ')}` : ''}.`,
    `Values are text in the formats below (dates DD-MM-YYYY, date-times DD-MM-YYYY hh:mm in UTC, durations hh:mm, amounts without currency symbol); choices may be given by name. Today is ${todayUtc()} (UTC).`,
    `${columns.length} columns in position order, ${writable} settable through the API:`,
  ];
  const views = host.views(target.portal.id, app.appId);
  const viewLine =
    views.length > 0
      ? `Views added in VS Code: ${views.map((view) => `${view.name} (view ${view.viewId})`).join(', ')}. Other views need their id (the API cannot list views; the user can add one with ${ADD_VIEW_COMMAND_TITLE}).`
      : `No view of this app was added in VS Code; the API cannot list views: ask the user for a view id (or to add one with ${ADD_VIEW_COMMAND_TITLE}).`;
  return bounded(head, [...columns.map(describeColumn), viewLine], (left) => `… ${left} more columns left out.`);
}

function todayUtc(): string {
  const now = new Date();
  return `${String(now.getUTCDate()).padStart(2, '0')}-${String(now.getUTCMonth() + 1).padStart(2, '0')}-${now.getUTCFullYear()}`;
}

export interface QueryInput extends AppInput {
  readonly view: string;
  readonly filters?: readonly FilterInput[];
  readonly limit?: number;
}

export async function queryView(host: ToolHost, input: QueryInput, signal?: AbortSignal): Promise<string> {
  const target = await targetOf(host, input, signal);
  const view = resolveView(host.views(target.portal.id, target.app.appId), String(input.view ?? ''), target.app.name);
  const { filters, described } = viewFilters(target.columns, Array.isArray(input.filters) ? input.filters : [], target.app.name);
  // Read as it arrives into a compact store: the answer shows at most 100 rows of what may be a million.
  const read = await host.client(target.portal.id).streamView(target.app.appId, view.viewId, filters, { signal });
  try {
    if (read.failure) throw read.failure; // broken off: a count of the rows read would be no answer
    const metadata = read.metadata ?? [];
    // Choice names for the view's columns, the app's own and those of its Lookup apps.
    const columnsByKey = new Map<string, Column>(target.columns.map((column) => [column.field_id_in_data, column]));
    for (const entry of metadata) {
      if (columnsByKey.has(entry.field_id_in_data) || entry.app_id === target.app.appId || !/choice/i.test(entry.type_name)) continue;
      const other = await host.columns(target.portal.id, entry.app_id, signal).catch(() => []);
      const column = other.find((item) => item.field_id === entry.id);
      if (column) columnsByKey.set(entry.field_id_in_data, column);
    }
    const limit = rowLimit(input.limit);
    const rows = Array.from({ length: Math.min(limit, read.rows.length) }, (_, index) => read.rows.row(index));
    return viewAnswer(
      `View "${view.name}" (${view.viewId}) of ${appTitle(target)}`,
      { count: read.rows.length, rows, metadata },
      columnsByKey,
      described,
      limit,
    );
  } finally {
    read.rows.release();
  }
}

export interface RecordInput extends AppInput {
  readonly record: string;
}

/** The record's id as given; refused when there is none (GET …/record/ would read no record). */
export function recordIdOf(input: Pick<RecordInput, 'record'>): string {
  const id = typeof input.record === 'string' || typeof input.record === 'number' ? String(input.record).trim() : '';
  if (id === '') throw new ToolRefusal('No record was given: "record" must be the record\'s id.');
  return id;
}

export async function readRecord(host: ToolHost, input: RecordInput, signal?: AbortSignal): Promise<string> {
  const recordId = recordIdOf(input);
  const target = await targetOf(host, input, signal);
  const read = await host.client(target.portal.id).readRecord(target.app.appId, recordId, signal);
  const known = new Set(target.columns.map((column) => column.field_id_in_data));
  const lines = target.columns.map((column) => `- ${fieldLabel(column)}: ${valueText(column, read.data[column.field_id_in_data] ?? '')}`);
  for (const [key, value] of Object.entries(read.data)) if (!known.has(key)) lines.push(`- ${key}: ${shortValue(value)}`);
  const draft = read.draft ? ' It is a draft.' : '';
  return bounded([`Record ${read.id} of ${appTitle(target)}.${draft}`], lines, (left) => `… ${left} more fields left out.`);
}

function valueText(column: Column, raw: string): string {
  if (raw === '') return '(empty)';
  const shown = shortValue(shownValue(column, raw), MAX_VALUE_CHARS);
  return columnKind(column) === 'choice' && shown !== raw ? `${shown} (id ${raw})` : shown;
}
