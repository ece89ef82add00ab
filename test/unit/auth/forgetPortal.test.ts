// Remove Portal forgets the connection's secret, its tokens, its webhook Secret Key and what was kept per
// portal in global state (added views, title fields, saved queries), and Record History's versions. A portal added later under the same
// id (the same name) must start from nothing.
import * as assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { forgetPortal, type StateStore } from '../../../src/auth/forgetPortal';
import { historyRoot, VersionLog } from '../../../src/history/versionLog';
import type { SecretStore } from '../../../src/auth/secretKeys';

class MapStore implements SecretStore {
  readonly values = new Map<string, unknown>();
  async get(key: string): Promise<string | undefined> {
    const value = this.values.get(key);
    return typeof value === 'string' ? value : undefined;
  }
  async store(key: string, value: string): Promise<void> {
    this.values.set(key, value);
  }
  async delete(key: string): Promise<void> {
    this.values.delete(key);
  }
}

class MapState implements StateStore {
  readonly values = new Map<string, unknown>();
  get(key: string): unknown {
    return this.values.get(key);
  }
  async update(key: string, value: unknown): Promise<void> {
    this.values.set(key, value);
  }
}

describe('forgetting a removed portal', () => {
  it('leaves none of its secrets, nor its views, title fields and saved queries; other portals keep theirs', async () => {
    const secrets = new MapStore();
    for (const id of ['gone', 'kept']) {
      await secrets.store(`portal.clientSecret.${id}`, 's');
      await secrets.store(`portal.tokens.${id}`, '{}');
      await secrets.store(`portal.webhookSecret.${id}`, 'w');
    }
    const state = new MapState();
    await state.update('portal.views', {
      gone: { '101': [{ viewId: '1', name: 'All' }] },
      kept: { '101': [{ viewId: '2', name: 'Open' }] },
    });
    await state.update('portal.titleFields', { gone: { '101': 'f1' }, kept: { '101': 'f2' } });
    await state.update('portal.savedQueries', {
      [JSON.stringify(['gone', '101', '1'])]: [{ name: 'q', filters: [] }],
      [JSON.stringify(['kept', '101', '2'])]: [{ name: 'r', filters: [] }],
    });
    const unrelated = { gone: 'a value of another kind' };
    await state.update('portal.somethingElse', unrelated);

    await forgetPortal('gone', { secrets, state });

    assert.deepEqual([...secrets.values.keys()].sort(), ['portal.clientSecret.kept', 'portal.tokens.kept', 'portal.webhookSecret.kept']);
    assert.deepEqual(state.get('portal.views'), { kept: { '101': [{ viewId: '2', name: 'Open' }] } });
    assert.deepEqual(state.get('portal.titleFields'), { kept: { '101': 'f2' } });
    assert.deepEqual(state.get('portal.savedQueries'), { [JSON.stringify(['kept', '101', '2'])]: [{ name: 'r', filters: [] }] });
    assert.equal(state.get('portal.somethingElse'), unrelated, 'keys not kept per portal are left alone');
  });

  it("removes Record History's versions of its records; other portals keep theirs", async () => {
    const storageFolder = await mkdtemp(path.join(tmpdir(), 'forget-'));
    try {
      const log = new VersionLog(historyRoot(storageFolder), () => ({ maxVersionsPerRecord: 50, maxTotalBytes: 1024 * 1024 }));
      await log.append({ portalId: 'gone', appId: '101', recordId: '1' }, { at: 1, cause: 'opened', text: 'a' });
      await log.append({ portalId: 'kept', appId: '101', recordId: '1' }, { at: 1, cause: 'opened', text: 'a' });
      await forgetPortal('gone', { secrets: new MapStore(), state: new MapState(), storageFolder });
      assert.deepEqual(await log.versions({ portalId: 'gone', appId: '101', recordId: '1' }), []);
      assert.equal((await log.versions({ portalId: 'kept', appId: '101', recordId: '1' })).length, 1);
    } finally {
      await rm(storageFolder, { recursive: true, force: true });
    }
  });
});
