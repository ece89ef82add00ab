// Copy Link on records, views and saved queries, Open in Portal (the portal's own web page), and opening a link (the URI handler's /open): the
// record opens, or the view as a grid, or the saved query in the Query View, after connecting the portal
// from the workspace file when this VS Code lacks it. A link found on no connection and in no workspace
// file says how to add the portal; it is never followed to an address it names alone.
import * as vscode from 'vscode';
import { COMMANDS, OPEN_PATH } from '../ids';
import { recordTargetOf } from '../model/targets';
import { isNode } from '../tree/nodes';
import { tell, prompter } from '../ui/prompter';
import { sameAddress } from '../workspaceFile/merge';
import { linkQuery, parseLinkQuery, type LinkTarget } from '../workspaceFile/links';
import { expandWebUrl, HOW_TO_SET_TEMPLATE } from '../workspaceFile/webUrl';
import type { CommandTable } from './register';
import { signInToSharedPortal, type SharedPortalParts } from './sharedPortals';

export interface LinkParts extends SharedPortalParts {
  readonly extensionId: string;
}

/** What a link or a web page is of: a record, view or saved query of the Portal view, or a record by its
 *  ids alone (a reference's hover), which has no view. */
interface Linked {
  readonly kind: 'record' | 'view' | 'savedQuery';
  readonly portalId: string;
  readonly appId: string;
  readonly viewId?: string;
  readonly recordId?: string;
  readonly queryName?: string;
}

function linkedOf(arg: unknown, kinds: readonly Linked['kind'][], refusal: string): Linked {
  if (isNode(arg)) {
    if (arg.kind === 'record' && kinds.includes('record')) return arg;
    if (arg.kind === 'view' && kinds.includes('view')) return arg;
    if (arg.kind === 'savedQuery' && kinds.includes('savedQuery')) return arg;
    throw new Error(refusal);
  }
  const record = recordTargetOf(arg);
  if (!record) throw new Error(refusal);
  return { kind: 'record', ...record };
}

function targetOf(parts: LinkParts, arg: unknown): LinkTarget {
  const linked = linkedOf(
    arg,
    ['record', 'view', 'savedQuery'],
    'Copy Link works on a record, a view or a saved query of the Portal view.',
  );
  const connection = parts.portals.get(linked.portalId);
  if (!connection) throw new Error(`The portal ${linked.portalId} is not connected.`);
  const base = { portal: connection.baseUrl, name: connection.label, appId: linked.appId, viewId: linked.viewId };
  if (linked.kind === 'record') return { ...base, recordId: linked.recordId };
  if (linked.kind === 'savedQuery') return { ...base, queryName: linked.queryName };
  return base;
}

async function copyLink(parts: LinkParts, arg: unknown): Promise<string> {
  const internal = vscode.Uri.from({
    scheme: vscode.env.uriScheme,
    authority: parts.extensionId,
    path: OPEN_PATH,
    query: linkQuery(targetOf(parts, arg)),
  });
  const link = (await vscode.env.asExternalUri(internal)).toString(true);
  await prompter().copyToClipboard(link);
  tell('info', "Copied the link: it opens here and in a colleague's VS Code.");
  return link;
}

/** Opens what a link's query names. */
export async function openLink(parts: LinkParts, query: string): Promise<void> {
  const target = parseLinkQuery(query);
  await parts.portals.ready();
  let portalId = parts.portals.list().find((connection) => sameAddress(connection.baseUrl, target.portal))?.id;
  if (!portalId) {
    await parts.workspace.ready();
    const shared = parts.workspace.matches().find((match) => match.kind === 'missing' && sameAddress(match.portal.baseUrl, target.portal));
    if (!shared)
      throw new Error(
        `This link is to the portal "${target.name}" at ${target.portal}, which this VS Code has no connection to: add it with "Portal: Add Portal…", then open the link again.`,
      );
    portalId = await signInToSharedPortal(parts, shared.portal.name);
  }
  const view = { portalId, appId: target.appId, viewId: target.viewId ?? '' };
  if (target.recordId !== undefined)
    await vscode.commands.executeCommand(COMMANDS.record.open, { portalId, appId: target.appId, recordId: target.recordId });
  else if (target.queryName !== undefined)
    await vscode.commands.executeCommand(COMMANDS.panel.runSavedQuery, { ...view, queryName: target.queryName });
  else await vscode.commands.executeCommand(COMMANDS.panel.openViewAsGrid, view);
}

/** Open in Portal: the portal's own page for a record or view, from the workspace file's template. */
async function openInPortal(parts: LinkParts, arg: unknown): Promise<string> {
  const linked = linkedOf(arg, ['record', 'view'], 'Open in Portal works on a record or a view of the Portal view.');
  const connection = parts.portals.get(linked.portalId);
  if (!connection) throw new Error(`The portal ${linked.portalId} is not connected.`);
  const match = parts.workspace.matches().find((candidate) => candidate.kind === 'connected' && candidate.connectionId === linked.portalId);
  const template = match?.portal.webUrlTemplate;
  if (!template) throw new Error(`Portal Explorer does not know the web pages of "${connection.label}". ${HOW_TO_SET_TEMPLATE}`);
  const url = expandWebUrl(template, {
    baseUrl: connection.baseUrl,
    appId: linked.appId,
    viewId: linked.viewId,
    recordId: linked.recordId,
  });
  await prompter().openExternal(vscode.Uri.parse(url, true));
  return url;
}

export function linkCommands(parts: LinkParts): CommandTable {
  return {
    [COMMANDS.explorer.copyLink]: (arg) => copyLink(parts, arg),
    [COMMANDS.explorer.openInPortal]: (arg) => openInPortal(parts, arg),
  };
}
