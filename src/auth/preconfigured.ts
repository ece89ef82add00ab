// A development and demo convenience: when the environment variable PORTAL_EXPLORER_CONNECTION_FILE names
// a JSON file {label, baseUrl, clientId, clientSecret, flow?, allowPlainHttp?}, that portal is connected on
// activation (client credentials unless the file says otherwise) and signed in, so `npm start` opens on a connected
// portal. The file is read, not trusted as the source of truth: the connection then lives in global state
// and SecretStorage like any other, and once imported it is not imported again, so a user who removes it
// keeps it removed.
import { readFile } from 'node:fs/promises';
import type * as vscode from 'vscode';
import type { Logger } from '../log';
import type { NewConnection, PortalService } from './portalService';
import { secretKeys } from './secretKeys';

export const CONNECTION_FILE_VARIABLE = 'PORTAL_EXPLORER_CONNECTION_FILE';
const IMPORTED_KEY = 'portal.preconfigured.imported';

/** The file's connection: what Add Portal asks for. */
type ConnectionFile = Omit<NewConnection, 'id'>;

function parse(text: string): ConnectionFile {
  const value = JSON.parse(text) as Record<string, unknown>;
  const { label, baseUrl, clientId, clientSecret, flow, allowPlainHttp } = value;
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
  };
}

/** Imports the pre-configured connection, if any; failures are logged, never thrown at activation. */
export async function importPreconfigured(portals: PortalService, context: vscode.ExtensionContext, log: Logger): Promise<void> {
  const path = process.env[CONNECTION_FILE_VARIABLE];
  if (!path) return;
  try {
    const [text] = await Promise.all([readFile(path, 'utf8'), portals.ready()]);
    const file = parse(text);
    const identity = `${file.baseUrl.replace(/\/+$/, '')} ${file.clientId}`;
    const existing = portals.list().find((connection) => connection.baseUrl === file.baseUrl.replace(/\/+$/, '') && connection.clientId === file.clientId);
    if (existing) {
      // Another browser profile may lack the secret (web SecretStorage lives in the browser).
      if (!(await context.secrets.get(secretKeys.clientSecret(existing.id)))) await context.secrets.store(secretKeys.clientSecret(existing.id), file.clientSecret);
      if (portals.state(existing.id) !== 'signedIn' && existing.flow === 'clientCredentials') await portals.signIn(existing.id);
      return;
    }
    if (context.globalState.get(IMPORTED_KEY) === identity) return;
    const connection = await portals.add(file);
    await context.globalState.update(IMPORTED_KEY, identity);
    log.info(`Connected the pre-configured portal ${connection.id} (from ${CONNECTION_FILE_VARIABLE}).`);
  } catch (error) {
    log.warn(`The pre-configured portal (${CONNECTION_FILE_VARIABLE}) was not connected: ${error instanceof Error ? error.message : String(error)}`);
  }
}
