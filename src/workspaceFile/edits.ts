// Share with Workspace and Keep Personal as text edits of .vscode/portal.json: one jsonc-parser `modify` per
// change, so that the file keeps its comments, order and indentation, and the edit is a plain change the
// user sees in the editor and in git, and can undo. Entries are found in the file's own tree (not in what
// was read of it), so that the index edited is the one in the text even beside entries that are invalid.
import { findNodeAtLocation, modify, parseTree, type FormattingOptions, type Node, type ParseError } from 'jsonc-parser';
import { sameAddress } from './merge';
import type { SharedFlow, SharedLayout, SharedQuery, SharedRedirectMode, SharedView } from './model';

/** Replace `length` characters at `offset` with `content` (jsonc-parser's Edit). */
export interface FileEdit {
  readonly offset: number;
  readonly length: number;
  readonly content: string;
}

/** What the file says of a portal it does not name yet: never a secret. */
export interface PortalHeader {
  readonly name: string;
  readonly baseUrl: string;
  readonly clientId: string;
  readonly flow: SharedFlow;
  readonly redirectMode?: SharedRedirectMode;
}

export type SharedEntry =
  | { readonly kind: 'view'; readonly view: SharedView }
  | { readonly kind: 'query'; readonly query: SharedQuery }
  | { readonly kind: 'layout'; readonly layout: SharedLayout };

/** How an entry is found again: a view by its id, a query by its view and name, a layout by its view. */
export type EntryKey =
  | { readonly kind: 'view'; readonly viewId: string }
  | { readonly kind: 'query'; readonly viewId: string; readonly name: string }
  | { readonly kind: 'layout'; readonly viewId: string };

const LISTS = { view: 'views', query: 'queries', layout: 'layouts' } as const;

export function keyOf(entry: SharedEntry): EntryKey {
  switch (entry.kind) {
    case 'view':
      return { kind: 'view', viewId: entry.view.viewId };
    case 'query':
      return { kind: 'query', viewId: entry.query.viewId, name: entry.query.name };
    case 'layout':
      return { kind: 'layout', viewId: entry.layout.viewId };
  }
}

/** The entry as the file spells it (the schema's keys: `id`, `view`, …). */
function jsonOf(entry: SharedEntry): Record<string, unknown> {
  switch (entry.kind) {
    case 'view':
      return { id: entry.view.viewId, name: entry.view.name, ...(entry.view.columns ? { columns: [...entry.view.columns] } : {}) };
    case 'query': {
      const { query } = entry;
      return {
        name: query.name,
        view: query.viewId,
        filters: query.filters.map((filter) => ({ ...filter })),
        ...(query.sort && query.sort.length > 0 ? { sort: query.sort.map((sort) => ({ ...sort })) } : {}),
        ...(query.columns && query.columns.length > 0 ? { columns: [...query.columns] } : {}),
      };
    }
    case 'layout':
      return { view: entry.layout.viewId, order: [...entry.layout.order], hidden: [...entry.layout.hidden], frozen: entry.layout.frozen };
  }
}

/** The file's own indentation and line ends, so that what is inserted looks like what is there. */
export function formattingOf(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /^([ \t]+)\S/m.exec(text)?.[1];
  if (indent?.startsWith('\t')) return { insertSpaces: false, tabSize: 4, eol };
  return { insertSpaces: true, tabSize: indent ? indent.length : 2, eol };
}

function stringProperty(node: Node, key: string): string | undefined {
  const value = findNodeAtLocation(node, [key]);
  return value?.type === 'string' && typeof value.value === 'string' ? value.value.trim() : undefined;
}

/** The file's tree, refused when it is not a JSON object (an edit would then lose what the user wrote). */
function rootOf(text: string): Node | undefined {
  if (text.trim() === '') return undefined;
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0 || !root)
    throw new Error('.vscode/portal.json is not valid JSON at the moment: correct what its Problems show, then try again.');
  if (root.type !== 'object') throw new Error('.vscode/portal.json must hold one JSON object: correct it, then try again.');
  return root;
}

function listAt(root: Node, path: (string | number)[], what: string): Node[] | undefined {
  const node = findNodeAtLocation(root, path);
  if (!node) return undefined;
  if (node.type !== 'array') throw new Error(`${what} in .vscode/portal.json is not a list: correct it, then try again.`);
  return node.children ?? [];
}

/** Where the app of the portal at `baseUrl` stands in the file's tree, as far as it exists. */
function locate(root: Node | undefined, baseUrl: string, appId: string): { portal?: number; app?: number } {
  if (!root) return {};
  const portals = listAt(root, ['portals'], '"portals"') ?? [];
  const portal = portals.findIndex((node) => node.type === 'object' && sameAddress(stringProperty(node, 'baseUrl') ?? '', baseUrl));
  if (portal < 0) return {};
  const apps = listAt(root, ['portals', portal, 'apps'], `The "apps" of the portal at ${baseUrl}`) ?? [];
  const app = apps.findIndex((node) => node.type === 'object' && stringProperty(node, 'id') === appId);
  return app < 0 ? { portal } : { portal, app };
}

function matches(node: Node, key: EntryKey): boolean {
  if (node.type !== 'object') return false;
  switch (key.kind) {
    case 'view':
      return stringProperty(node, 'id') === key.viewId;
    case 'query':
      return stringProperty(node, 'view') === key.viewId && stringProperty(node, 'name') === key.name;
    case 'layout':
      return stringProperty(node, 'view') === key.viewId;
  }
}

/**
 * The edit that puts `entry` into the app `appId` of the portal at `portal.baseUrl`: it replaces the entry of
 * the same key, or is added at the end of its list; the portal (without any secret) and the app are added
 * when the file lacks them, and the file's object when the text is empty.
 */
export function shareEdits(text: string, portal: PortalHeader, appId: string, entry: SharedEntry): FileEdit[] {
  const root = rootOf(text);
  const options = { formattingOptions: formattingOf(text) };
  const value = jsonOf(entry);
  const list = LISTS[entry.kind];
  const where = locate(root, portal.baseUrl, appId);
  if (where.portal === undefined) {
    const header = {
      name: portal.name,
      baseUrl: portal.baseUrl,
      clientId: portal.clientId,
      flow: portal.flow,
      ...(portal.redirectMode ? { redirectMode: portal.redirectMode } : {}),
    };
    const added = { ...header, apps: [{ id: appId, [list]: [value] }] };
    if (!root) return modify('', [], { portals: [added] }, options);
    return modify(text, ['portals', -1], added, options);
  }
  if (where.app === undefined) return modify(text, ['portals', where.portal, 'apps', -1], { id: appId, [list]: [value] }, options);
  const path = ['portals', where.portal, 'apps', where.app, list];
  const items = root ? (listAt(root, path, `The "${list}" of app ${appId}`) ?? []) : [];
  const index = items.findIndex((node) => matches(node, keyOf(entry)));
  return modify(text, [...path, index < 0 ? -1 : index], value, options);
}

/**
 * The edit that takes the entry out of the file (none when the file does not hold it). Not `modify`'s removal:
 * jsonc-parser 3.3 leaves a stray brace when it removes the last of several items of a list.
 */
export function unshareEdits(text: string, baseUrl: string, appId: string, key: EntryKey): FileEdit[] {
  const root = rootOf(text);
  const where = locate(root, baseUrl, appId);
  if (!root || where.portal === undefined || where.app === undefined) return [];
  const list = LISTS[key.kind];
  const path = ['portals', where.portal, 'apps', where.app, list];
  const items = listAt(root, path, `The "${list}" of app ${appId}`) ?? [];
  const index = items.findIndex((node) => matches(node, key));
  if (index < 0) return [];
  const node = items[index];
  const end = (item: Node): number => item.offset + item.length;
  // With the comma before it (the last of several), or after it; the only item empties the list.
  if (index > 0) return [{ offset: end(items[index - 1]), length: end(node) - end(items[index - 1]), content: '' }];
  if (items.length > 1) return [{ offset: node.offset, length: items[1].offset - node.offset, content: '' }];
  const array = findNodeAtLocation(root, path);
  return array ? [{ offset: array.offset + 1, length: array.length - 2, content: '' }] : [];
}
