// The context keys of the tools' when clauses: set once the connections are read (connected first, so that
// the tools are never hidden in between), then whenever a portal is added or the last one removed.
import * as assert from 'node:assert/strict';
import { PORTALS_READ_CONTEXT, TOOLS_CONNECTED_CONTEXT, trackToolsContext, type ConnectionsSource } from '../../../src/tools/context';

class FakePortals implements ConnectionsSource {
  connections: string[] = [];
  private readonly listeners = new Set<() => void>();
  private resolveReady: () => void = () => undefined;
  private readonly readyPromise = new Promise<void>((resolve) => (this.resolveReady = resolve));

  ready(): Promise<void> {
    return this.readyPromise;
  }
  markReady(connections: string[]): Promise<void> {
    this.connections = connections;
    this.resolveReady();
    return this.readyPromise.then(() => undefined);
  }
  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }
  change(connections: string[]): void {
    this.connections = connections;
    for (const listener of this.listeners) listener();
  }
  list(): readonly string[] {
    return this.connections;
  }
}

describe('language model tools: their context keys', () => {
  it('is true after a portal is added and false after the last one is removed, set only once the connections are read', async () => {
    const portals = new FakePortals();
    const set: Array<[string, boolean]> = [];
    const tracker = trackToolsContext(portals, (key, value) => set.push([key, value]));
    portals.change(['emulator']);
    assert.deepEqual(set, [], 'nothing before the connections are read');
    await portals.markReady([]);
    assert.deepEqual(set, [
      [TOOLS_CONNECTED_CONTEXT, false],
      [PORTALS_READ_CONTEXT, true],
    ]);
    set.length = 0;
    portals.change(['emulator']);
    assert.deepEqual(set, [[TOOLS_CONNECTED_CONTEXT, true]], 'a portal added');
    portals.change(['emulator', 'staging']);
    portals.change(['staging']);
    assert.deepEqual(set, [[TOOLS_CONNECTED_CONTEXT, true]], 'unchanged while one remains');
    portals.change([]);
    assert.deepEqual(
      set,
      [
        [TOOLS_CONNECTED_CONTEXT, true],
        [TOOLS_CONNECTED_CONTEXT, false],
      ],
      'the last one removed',
    );
    tracker.dispose();
    portals.change(['emulator']);
    assert.equal(set.length, 2, 'nothing after dispose');
  });

  it('sets the connected key before the key that ends the "not started yet" offer', async () => {
    const portals = new FakePortals();
    const set: string[] = [];
    trackToolsContext(portals, (key, value) => set.push(`${key}=${String(value)}`));
    await portals.markReady(['emulator']);
    assert.deepEqual(set, [`${TOOLS_CONNECTED_CONTEXT}=true`, `${PORTALS_READ_CONTEXT}=true`]);
  });
});
