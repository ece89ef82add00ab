// The panels of one kind that are open, by a key of what each shows (one form per app, one query per view,
// one import per file and app): opening the same again finds the open one, and a closed one is forgotten.
import type { Panel } from './panel';

export class OpenPanels<T extends { readonly panel: Panel<unknown, unknown> }> {
  private readonly open = new Map<string, T>();

  /** The panel open under `key`, if it is still open. */
  get(key: string): T | undefined {
    const existing = this.open.get(key);
    return existing && !existing.panel.isDisposed ? existing : undefined;
  }

  /** Keeps `created` under `key` until its panel closes. */
  add(key: string, created: T): T {
    this.open.set(key, created);
    created.panel.onDidDispose(() => {
      if (this.open.get(key) === created) this.open.delete(key);
    });
    return created;
  }

  all(): T[] {
    return [...this.open.values()];
  }
}
