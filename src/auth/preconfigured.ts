// A development and demo convenience: when the environment variable PORTAL_EXPLORER_CONNECTION_FILE names
// a JSON file {label, baseUrl, clientId, clientSecret, flow?, allowPlainHttp?, views?}, that portal is
// connected on activation (client credentials unless the file says otherwise) and signed in, so `npm start`
// opens on a connected portal. The file is read, not trusted as the source of truth: the connection then lives in global state
// and SecretStorage like any other, and once imported it is not imported again, so a user who removes it
// keeps it removed. The file may name views of the portal's apps ("views": [{appId, viewId, name}]): the
// API cannot list views, so without them a newcomer meets "No views yet" and a question about an id they
// cannot know; they are added with the connection, once, like views added by hand.
import { readFile } from 'node:fs/promises';
import type * as vscode from 'vscode';
import type { Logger } from '../log';
import type { NewConnection, PortalService } from './portalService';
import { secretKeys } from './secretKeys';

export const CONNECTION_FILE_VARIABLE = 'PORTAL_EXPLORER_CONNECTION_FILE';
const IMPORTED_KEY = 'portal.preconfigured.imported';

/** A view of one of the portal's apps, as the file names it. */
export interface PreconfiguredView {
  readonly appId: string;
  readonly viewId: string;
  readonly name: string;
}

/** The file's connection (what Add Portal asks for) and the views it names. */
export type ConnectionFile = Omit<NewConnection, 'id'> & { readonly views: readonly PreconfiguredView[] };

/** The views a first import adds, to the connection it made. */
export interface PreconfiguredViews {
  readonly portalId: string;
  readonly views: readonly PreconfiguredView[];
}

function viewsOf(value: unknown): PreconfiguredView[] {
  if (value === undefined) return [];
  const shape = 'a list of {"appId", "viewId", "name"} strings';
  if (!Array.isArray(value)) throw new Error(`its "views" must be ${shape}`);
  return value.map((item: unknown, index) => {
    const { appId, viewId, name } = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    if (typeof appId !== 'string' || appId === '' || typeof viewId !== 'string' || viewId === '' || typeof name !== 'string') {
      throw new Error(`its "views" must be ${shape}: entry ${index + 1} is not`);
    }
    return { appId, viewId, name };
  });
}

/** The file's text, checked: what is missing or malformed is named. */
export function parseConnectionFile(text: string): ConnectionFile {
  const value = JSON.parse(text) as Record<string, unknown>;
  const { label, baseUrl, clientId, clientSecret, flow, allowPlainHttp, views } = value;
  if (typeof baseUrl !== 'string' || typeof clientId !== 'string' || typeof clientSecret !== 'string') {
    throw new Error('it needs the strings "baseUrl", "clientId" and "clientSecret"');
  }
  return {
    label: typeof label === 'string' && label.trim() ? label : new URL(baseUrl).host,
    baseUrl,
    clientId,
    clientSecret,
    flow: flow === 'authorizationCode' ? 'authorizationCode' : 'clientCredentials',
    // Plain http:// to another machine only when the file says so: nobody is asked at activation.
    ...(allowPlainHttp === true ? { allowPlainHttp } : {}),
    views: viewsOf(views),
  };
}

/**
 * Imports the pre-configured connection, if any; failures are logged, never thrown at activation.
 * Resolves with the views to add when it connected the portal now (the views store is above this floor).
 */
export async function importPreconfigured(
  portals: PortalService,
  context: vscode.ExtensionContext,
  log: Logger,
): Promise<PreconfiguredViews | undefined> {
  const path = process.env[CONNECTION_FILE_VARIABLE];
  if (!path) return undefined;
  try {
    const [text] = await Promise.all([readFile(path, 'utf8'), portals.ready()]);
    const { views, ...file } = parseConnectionFile(text);
    const identity = `${file.baseUrl.replace(/\/+$/, '')} ${file.clientId}`;
    const existing = portals
      .list()
      .find((connection) => connection.baseUrl === file.baseUrl.replace(/\/+$/, '') && connection.clientId === file.clientId);
    if (existing) {
      // Another browser profile may lack the secret (web SecretStorage lives in the browser).
      if (!(await context.secrets.get(secretKeys.clientSecret(existing.id))))
        await context.secrets.store(secretKeys.clientSecret(existing.id), file.clientSecret);
      if (portals.state(existing.id) !== 'signedIn' && existing.flow === 'clientCredentials') await portals.signIn(existing.id);
      return undefined;
    }
    if (context.globalState.get(IMPORTED_KEY) === identity) return undefined;
    const connection = await portals.add(file);
    await context.globalState.update(IMPORTED_KEY, identity);
    log.info(
      `Connected the pre-configured portal ${connection.id} (from ${CONNECTION_FILE_VARIABLE}), with ${views.length} view${views.length === 1 ? '' : 's'}.`,
    );
    return { portalId: connection.id, views };
  } catch (error) {
    log.warn(
      `The pre-configured portal (${CONNECTION_FILE_VARIABLE}) was not connected: ${error instanceof Error ? error.message : String(error)}`,
    );
    return undefined;
  }
}
