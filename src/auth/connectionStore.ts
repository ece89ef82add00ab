// The list of connections (never a secret) in global state, and the active one. Global state reaches other
// windows without an event; PortalService reloads it when SecretStorage (which does fire across windows)
// reports a change to one of the connections' secrets.
import type * as vscode from 'vscode';
import { isConnectionId } from './connectionIds';
import type { AuthFlow, PortalConnection } from './portals';

const CONNECTIONS_KEY = 'portal.connections';
const ACTIVE_KEY = 'portal.activeConnection';

function isFlow(value: unknown): value is AuthFlow {
  return value === 'authorizationCode' || value === 'clientCredentials';
}

/** Entries as stored; anything malformed (a hand edit, an older version) is left out, not trusted. */
function connectionsOf(value: unknown): PortalConnection[] {
  if (!Array.isArray(value)) return [];
  const seen = new Set<string>();
  const result: PortalConnection[] = [];
  for (const item of value) {
    if (typeof item !== 'object' || item === null) continue;
    const { id, label, baseUrl, clientId, flow, allowPlainHttp } = item as Record<string, unknown>;
    if (typeof id !== 'string' || !isConnectionId(id) || seen.has(id)) continue;
    if (typeof label !== 'string' || typeof baseUrl !== 'string' || typeof clientId !== 'string' || !isFlow(flow)) continue;
    seen.add(id);
    result.push(Object.freeze({ id, label, baseUrl, clientId, flow, ...(allowPlainHttp === true ? { allowPlainHttp } : {}) }));
  }
  return result;
}

export class ConnectionStore {
  constructor(private readonly state: vscode.Memento) {}

  list(): PortalConnection[] {
    return connectionsOf(this.state.get<unknown>(CONNECTIONS_KEY));
  }

  async add(connection: PortalConnection): Promise<void> {
    const { id, label, baseUrl, clientId, flow, allowPlainHttp } = connection;
    const stored = { id, label, baseUrl, clientId, flow, ...(allowPlainHttp ? { allowPlainHttp } : {}) };
    // A connection stored again (its confirmation added) keeps its place in the lists.
    const list: PortalConnection[] = this.list();
    const index = list.findIndex((known) => known.id === id);
    if (index >= 0) list[index] = stored;
    else list.push(stored);
    await this.state.update(CONNECTIONS_KEY, list);
  }

  async remove(id: string): Promise<void> {
    await this.state.update(
      CONNECTIONS_KEY,
      this.list().filter((known) => known.id !== id),
    );
    if (this.activeId() === id) await this.state.update(ACTIVE_KEY, undefined);
  }

  activeId(): string | undefined {
    const id = this.state.get<unknown>(ACTIVE_KEY);
    return typeof id === 'string' ? id : undefined;
  }

  async setActive(id: string | undefined): Promise<void> {
    await this.state.update(ACTIVE_KEY, id);
  }
}
