// The Portal explorer as the tests read it: through the tree provider the test API hands over (the very
// getChildren / getTreeItem VS Code calls), with helpers to walk it by label and to count the portal
// requests an action caused in the emulator's request log.
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import type { ExplorerNode } from '../../../src/tree/nodes';
import type { LoggedRequest } from '../../emulator/requestLog';
import { emulator, emulatorControl } from './emulator';
import { testApi } from './extension';
import { connectEmulator } from './portals';

/** The sequence number of the last request the emulator logged (0 when none). */
export async function lastRequestSeq(): Promise<number> {
  const all = await emulatorControl<LoggedRequest[]>('GET', 'requests');
  return all.length > 0 ? all[all.length - 1].seq : 0;
}

/**
 * The requests the explorer makes that the emulator received after `seq`: the list of sites, and the
 * columns and views of the apps named. Other parts react to the same refreshes (an open record document
 * reads its record and its app's columns again), so their requests are left out of the count.
 */
export async function treeRequestsSince(seq: number, appIds: readonly string[]): Promise<LoggedRequest[]> {
  const since = await emulatorControl<LoggedRequest[]>('GET', `requests?since=${seq}`);
  const ours = new RegExp(`^/api/v1/(site|app/(${appIds.join('|')})/(columns|view/[^/]+))$`);
  return since.filter((request) => ours.test(request.path));
}

export async function children(node?: ExplorerNode): Promise<ExplorerNode[]> {
  return (await testApi()).explorer.getChildren(node);
}

/** The record items of a view (without "Find a record…", saved queries, "Load more…" and the like). */
export async function records(view: ExplorerNode): Promise<ExplorerNode[]> {
  return (await children(view)).filter((node) => node.kind === 'record');
}

export async function item(node: ExplorerNode): Promise<vscode.TreeItem> {
  return (await testApi()).explorer.getTreeItem(node);
}

export function labelOf(treeItem: vscode.TreeItem): string {
  const { label } = treeItem;
  return typeof label === 'string' ? label : (label?.label ?? '');
}

export async function labels(nodes: readonly ExplorerNode[]): Promise<string[]> {
  return Promise.all(nodes.map(async (node) => labelOf(await item(node))));
}

/** The child of `parent` labelled `label`; fails with the labels there are. */
export async function child(parent: ExplorerNode | undefined, label: string): Promise<ExplorerNode> {
  const nodes = await children(parent);
  const names = await labels(nodes);
  const index = names.indexOf(label);
  assert.ok(index >= 0, `"${label}" is not among the children of ${parent?.id ?? 'the root'}: ${JSON.stringify(names)}`);
  return nodes[index];
}

/** The root node of a portal connection. */
export async function portalNode(portalId: string): Promise<ExplorerNode> {
  const found = (await children()).find((node) => node.kind === 'portal' && node.portalId === portalId);
  assert.ok(found, `The tree shows no portal ${portalId}.`);
  return found;
}

/** Walks down from a portal's node by labels: path(portalId, 'Support', 'Tickets', 'Views'). */
export async function path(portalId: string, ...steps: string[]): Promise<ExplorerNode> {
  let node = await portalNode(portalId);
  for (const step of steps) node = await child(node, step);
  return node;
}

/** A quick-pick answer for "Which portal?" that picks this connection (asked only when there are several). */
export function isPortalItem(portalId: string): (pick: vscode.QuickPickItem) => boolean {
  return (pick) => (pick as { value?: { portalId?: string } }).value?.portalId === portalId;
}

/**
 * The emulator as a connected, signed-in portal (client credentials): the connection an earlier test left,
 * or a new one added through "Add Portal" (connectEmulator). Resolves with its connection id.
 */
export async function emulatorPortal(): Promise<string> {
  const api = await testApi();
  const known = api.portals
    .list()
    .find((connection) => connection.baseUrl === emulator().base_url && connection.clientId === emulator().client_id);
  if (!known) return connectEmulator();
  if (api.portals.state(known.id) !== 'signedIn') await api.portals.signIn(known.id);
  return known.id;
}

/** Forgets everything the explorer and catalog keep for the portal: the views added to its apps, their saved queries, title fields. */
export async function freshExplorer(portalId: string): Promise<void> {
  const api = await testApi();
  for (const [appId] of [['101'], ['102'], ['201'], ['202']]) {
    for (const view of api.views.list(portalId, appId)) await api.views.remove(portalId, appId, view.viewId);
    await api.titles.set({ portalId, appId }, undefined);
  }
  // Saved queries are listed under their views: other suites' must not show up in the explorer's.
  for (const saved of api.savedQueries.listAll()) if (saved.portalId === portalId) await api.savedQueries.delete(saved, saved.query.name);
  api.rows.drop();
  api.catalog.refresh();
}
