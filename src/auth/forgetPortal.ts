// Everything VS Code keeps of one portal connection, forgotten when the portal is removed: its secrets
// (tokens, client secret, webhook Secret Key), what the stores keep per portal in global state, and the
// versions Record History kept of its records. Done by
// the Portals service itself, which always runs: the stores and the webhook service are built only when
// first used, and a portal added later under the same id must not inherit any of it.
// No `vscode` import: unit-tested in plain node.
import { forgetPortalHistory, historyRoot } from '../history/versionLog';
import { PER_APP_STATE_KEYS, SAVED_QUERIES_KEY } from '../model/stateKeys';
import { secretKeys, type SecretStore } from './secretKeys';

/** The part of vscode.Memento (global state) this needs. */
export interface StateStore {
  get(key: string): unknown;
  update(key: string, value: unknown): Thenable<void> | Promise<void>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function ofPortal(viewKey: string, id: string): boolean {
  try {
    const parsed: unknown = JSON.parse(viewKey);
    return Array.isArray(parsed) && parsed[0] === id;
  } catch {
    return false;
  }
}

async function without(state: StateStore, key: string, drop: (entry: string) => boolean): Promise<void> {
  const stored = state.get(key);
  if (!isRecord(stored) || !Object.keys(stored).some(drop)) return;
  await state.update(key, Object.fromEntries(Object.entries(stored).filter(([entry]) => !drop(entry))));
}

export async function forgetPortal(
  id: string,
  stores: { secrets: SecretStore; state: StateStore; /** The global storage folder (Record History's versions). */ storageFolder?: string },
): Promise<void> {
  await stores.secrets.delete(secretKeys.tokens(id));
  await stores.secrets.delete(secretKeys.clientSecret(id));
  await stores.secrets.delete(secretKeys.webhookSecret(id));
  await stores.secrets.delete(secretKeys.webhookUnsigned(id));
  for (const key of Object.values(PER_APP_STATE_KEYS)) await without(stores.state, key, (portalId) => portalId === id);
  await without(stores.state, SAVED_QUERIES_KEY, (viewKey) => ofPortal(viewKey, id));
  if (stores.storageFolder !== undefined) await forgetPortalHistory(historyRoot(stores.storageFolder), id);
}
