// Queries saved by name per view, in globalState (filters, and the sort and columns a query kept from the
// workspace file: no secret, no record value beyond what the user typed as a filter). The tree lists them under their view through list() and onDidChange. The
// workspace file's queries (.vscode/portal.json) join them, marked shared; the user's own of the same name wins.
import * as vscode from 'vscode';
import { isFilterOperatorName, type ViewFilter } from '../api/filters';
import { SAVED_QUERIES_KEY } from '../model/stateKeys';
import { Disposable } from '../lifecycle';
import type { SavedQuery } from '../shared/protocol';
import { mergeQueries, type MergedQuery } from '../workspaceFile/merge';
import type { SharedQuery } from '../workspaceFile/model';
import type { SharedSetup } from './workspaceSetup';

const KEY = SAVED_QUERIES_KEY;

export interface ViewKey {
  portalId: string;
  appId: string;
  viewId: string;
}

export interface SavedQueryEntry extends ViewKey {
  query: SavedQuery;
}

type Stored = Record<string, SavedQuery[]>;

function keyOf(view: ViewKey): string {
  return JSON.stringify([view.portalId, view.appId, view.viewId]);
}

function viewOfKey(key: string): ViewKey | undefined {
  try {
    const [portalId, appId, viewId] = JSON.parse(key) as unknown[];
    return typeof portalId === 'string' && typeof appId === 'string' && typeof viewId === 'string'
      ? { portalId, appId, viewId }
      : undefined;
  } catch {
    return undefined;
  }
}

/** Only well-formed filters survive a read: globalState may hold what an older version wrote. */
function cleanFilters(value: unknown): ViewFilter[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item): ViewFilter[] => {
    if (typeof item !== 'object' || item === null) return [];
    const { column, operator, value: filterValue, lookupApp } = item as Record<string, unknown>;
    if (typeof column !== 'string' || !isFilterOperatorName(operator)) return [];
    return [
      {
        column,
        operator,
        ...(typeof filterValue === 'string' ? { value: filterValue } : {}),
        ...(typeof lookupApp === 'string' && lookupApp ? { lookupApp } : {}),
      },
    ];
  });
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string' && item !== '');
}

/** A query as kept: its well-formed filters, and its sort and columns when it has them. */
function cleanQuery(query: SavedQuery): SavedQuery {
  const sort = Array.isArray(query.sort)
    ? query.sort.flatMap((item: unknown): NonNullable<SavedQuery['sort']> => {
        if (typeof item !== 'object' || item === null) return [];
        const { column, direction } = item as Record<string, unknown>;
        return typeof column === 'string' && column !== '' && (direction === 'asc' || direction === 'desc') ? [{ column, direction }] : [];
      })
    : [];
  return {
    name: query.name,
    filters: cleanFilters(query.filters),
    ...(sort.length > 0 ? { sort } : {}),
    ...(isStrings(query.columns) && query.columns.length > 0 ? { columns: [...query.columns] } : {}),
  };
}

export class SavedQueryStore extends Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<ViewKey>());
  /** Fires with the view whose saved queries changed. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly memento: vscode.Memento,
    private readonly shared?: SharedSetup,
  ) {
    super();
    if (shared)
      this._register(
        shared.onDidChange((changes) =>
          changes.forEach(({ portalId, appId, viewIds }) => viewIds.forEach((viewId) => this.changed.fire({ portalId, appId, viewId }))),
        ),
      );
  }

  private all(): Stored {
    const stored = this.memento.get<unknown>(KEY);
    return typeof stored === 'object' && stored !== null ? (stored as Stored) : {};
  }

  /** The saved queries of a view, the user's and the workspace file's, by name. */
  list(view: ViewKey): SavedQuery[] {
    return this.listMarked(view).map((entry) => entry.query);
  }

  /** As list(), each marked whether it comes from the workspace file. */
  listMarked(view: ViewKey): MergedQuery<SavedQuery>[] {
    const team = this.shared?.app(view.portalId, view.appId)?.queries ?? [];
    return mergeQueries(this.personal(view), team, view.viewId, (query: SharedQuery) => ({
      name: query.name,
      filters: query.filters.map((filter) => ({ ...filter })),
      ...(query.sort ? { sort: query.sort.map((sort) => ({ ...sort })) } : {}),
      ...(query.columns ? { columns: [...query.columns] } : {}),
    }));
  }

  /** The user's own saved queries of a view, by name. */
  personal(view: ViewKey): SavedQuery[] {
    const queries = this.all()[keyOf(view)];
    if (!Array.isArray(queries)) return [];
    return queries
      .filter((query) => typeof query?.name === 'string')
      .map(cleanQuery)
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Every saved query of every view (for the palette's "Run Saved Query"). */
  listAll(): SavedQueryEntry[] {
    const views = new Map<string, ViewKey>();
    for (const key of Object.keys(this.all())) {
      const view = viewOfKey(key);
      if (view) views.set(keyOf(view), view);
    }
    for (const { portalId, app } of this.shared?.apps() ?? []) {
      for (const query of app.queries)
        views.set(keyOf({ portalId, appId: app.appId, viewId: query.viewId }), { portalId, appId: app.appId, viewId: query.viewId });
    }
    return [...views.values()].flatMap((view) => this.list(view).map((query) => ({ ...view, query })));
  }

  get(view: ViewKey, name: string): SavedQuery | undefined {
    return this.list(view).find((query) => query.name === name);
  }

  /** Saves (or replaces) the query named `query.name`. */
  async save(view: ViewKey, query: SavedQuery): Promise<void> {
    const all = this.all();
    const others = this.personal(view).filter((existing) => existing.name !== query.name);
    all[keyOf(view)] = [...others, cleanQuery(query)];
    await this.memento.update(KEY, all);
    this.changed.fire(view);
  }

  async delete(view: ViewKey, name: string): Promise<boolean> {
    const before = this.personal(view);
    const after = before.filter((query) => query.name !== name);
    if (after.length === before.length) return false;
    const key = keyOf(view);
    const all = Object.fromEntries(Object.entries(this.all()).filter(([existing]) => existing !== key));
    if (after.length > 0) all[key] = after;
    await this.memento.update(KEY, all);
    this.changed.fire(view);
    return true;
  }
}
