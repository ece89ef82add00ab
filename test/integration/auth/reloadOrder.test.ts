// The connections as read: a reload of the portals that started before a change and ends after the
// reload of that change must not put back what the change took away. SecretStorage's change events (one
// per secret deleted when a portal is removed, another window's sign-in) each start a reload, not awaited,
// so reloads overlap. A stand-in ExtensionContext holds the tokens' read of the first reload until the
// second is done, which a real SecretStorage does now and then.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { testApi } from '../support/extension';

const CONNECTION = { id: 'held', label: 'Held', baseUrl: 'http://127.0.0.1:9', clientId: 'client', flow: 'clientCredentials' };

function standInContext(folder: string): { context: vscode.ExtensionContext; holdReads: () => () => void } {
  const state = new Map<string, unknown>([['portal.connections', [CONNECTION]]]);
  const secrets = new Map<string, string>();
  const changed = new vscode.EventEmitter<vscode.SecretStorageChangeEvent>();
  let gate: Promise<void> | undefined;
  const globalState = {
    keys: () => [...state.keys()],
    get: (key: string) => state.get(key),
    update: async (key: string, value: unknown) => void state.set(key, value),
    setKeysForSync: () => undefined,
  };
  const secretStorage = {
    get: async (key: string) => {
      await gate;
      return secrets.get(key);
    },
    store: async (key: string, value: string) => void secrets.set(key, value),
    delete: async (key: string) => void secrets.delete(key),
    keys: async () => [...secrets.keys()],
    onDidChange: changed.event,
  };
  const context = { globalState, secrets: secretStorage, globalStorageUri: vscode.Uri.file(folder) } as unknown as vscode.ExtensionContext;
  return {
    context,
    holdReads: () => {
      let release = (): void => undefined;
      gate = new Promise<void>((resolve) => (release = resolve));
      return () => {
        gate = undefined;
        release();
      };
    },
  };
}

describe('portals: overlapping reloads of the connections', () => {
  let folder: string;
  beforeEach(() => (folder = mkdtempSync(join(tmpdir(), 'portal-reload-'))));
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('a reload that ends after a removal does not bring the removed portal back', async () => {
    const { context, holdReads } = standInContext(folder);
    const portals = (await testApi()).newPortals(context);
    try {
      await portals.ready();
      assert.deepEqual(
        portals.list().map((connection) => connection.id),
        ['held'],
      );
      const release = holdReads();
      // Started while the portal is still stored: it reads its tokens, held until after the removal.
      const earlier = portals.reload();
      const removal = portals.remove('held');
      await new Promise((resolve) => setTimeout(resolve, 100));
      release();
      await Promise.all([earlier, removal]);
      assert.deepEqual(
        portals.list().map((connection) => connection.id),
        [],
        'the removed portal stays removed',
      );
    } finally {
      portals.dispose();
    }
  });
});
