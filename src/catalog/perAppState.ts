// A value per portal connection and app, kept in global state under one key as
// { [portalId]: { [appId]: value } }. Stored entries are checked on read: a hand edit or an older
// version's shape is left out, not trusted.
import type * as vscode from 'vscode';

type Stored<T> = Record<string, Record<string, T>>;

export class PerAppState<T> {
  constructor(
    private readonly memento: vscode.Memento,
    private readonly key: string,
    /** The value as stored, or undefined when it is not one. */
    private readonly read: (value: unknown) => T | undefined,
  ) {}

  get(portalId: string, appId: string): T | undefined {
    const apps = this.all();
    const raw = Object.hasOwn(apps, portalId) && Object.hasOwn(apps[portalId], appId) ? apps[portalId][appId] : undefined;
    return raw === undefined ? undefined : this.read(raw);
  }

  /** Sets (or, with undefined, forgets) the value of one app. */
  async set(portalId: string, appId: string, value: T | undefined): Promise<void> {
    const all = this.all();
    const apps = Object.fromEntries(Object.entries(all[portalId] ?? {}).filter(([key]) => key !== appId));
    if (value !== undefined) apps[appId] = value;
    const others = Object.entries(all).filter(([key]) => key !== portalId);
    const next = Object.fromEntries(Object.keys(apps).length > 0 ? [...others, [portalId, apps]] : others);
    await this.memento.update(this.key, next);
  }

  private all(): Stored<unknown> {
    const value = this.memento.get<unknown>(this.key);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    // Own keys only (fromEntries), so no stored key can reach a prototype.
    return Object.fromEntries(
      Object.entries(value).filter(
        (entry): entry is [string, Record<string, unknown>] =>
          typeof entry[1] === 'object' && entry[1] !== null && !Array.isArray(entry[1]),
      ),
    );
  }
}
