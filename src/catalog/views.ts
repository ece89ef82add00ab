// The views the user added, per portal connection and app. The API cannot list an app's views, so the user
// names them ("Add View…") and they are remembered here, in global state (never synced: connection ids
// exist only on this machine). A removed connection's views are kept: re-adding the portal under the
// same id finds them again, and nothing the user set up is lost to a slip. The views the workspace file
// names (.vscode/portal.json) come first, marked shared; they are the team's, changed in the file.
import * as vscode from 'vscode';
import { PER_APP_STATE_KEYS } from '../model/stateKeys';
import { Disposable } from '../lifecycle';
import { mergeViews } from '../workspaceFile/merge';
import { PerAppState } from './perAppState';
import type { SharedSetup } from './workspaceSetup';

export interface SavedView {
  readonly viewId: string;
  readonly name: string;
  /** Named by the workspace file (the team's); undefined or false: the user's own only. */
  readonly shared?: boolean;
}

export interface ViewsChange {
  readonly portalId: string;
  readonly appId: string;
}

const STORAGE_KEY = PER_APP_STATE_KEYS.views;

function savedViewsOf(value: unknown): SavedView[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const seen = new Set<string>();
  const views: SavedView[] = [];
  for (const item of value) {
    if (typeof item !== 'object' || item === null) continue;
    const { viewId, name } = item as Record<string, unknown>;
    if (typeof viewId !== 'string' || viewId === '' || seen.has(viewId)) continue;
    seen.add(viewId);
    views.push(Object.freeze({ viewId, name: typeof name === 'string' && name !== '' ? name : defaultViewName(viewId) }));
  }
  return views;
}

export function defaultViewName(viewId: string): string {
  return `View ${viewId}`;
}

export class ViewStore extends Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<ViewsChange>());
  readonly onDidChange: vscode.Event<ViewsChange> = this.changed.event;
  private readonly state: PerAppState<SavedView[]>;

  constructor(
    memento: vscode.Memento,
    private readonly shared?: SharedSetup,
  ) {
    super();
    this.state = new PerAppState(memento, STORAGE_KEY, savedViewsOf);
    if (shared)
      this._register(shared.onDidChange((changes) => changes.forEach(({ portalId, appId }) => this.changed.fire({ portalId, appId }))));
  }

  /** The app's views: the workspace file's first, in its order, then the user's own, in the order added. */
  list(portalId: string, appId: string): readonly SavedView[] {
    const own = this.personal(portalId, appId);
    const team = this.shared?.app(portalId, appId)?.views ?? [];
    if (team.length === 0) return own;
    return mergeViews(own, team).map((view) => Object.freeze({ viewId: view.viewId, name: view.name, shared: view.shared }));
  }

  /** The views the user added (whether or not the workspace file names them too). */
  personal(portalId: string, appId: string): readonly SavedView[] {
    return this.state.get(portalId, appId) ?? [];
  }

  get(portalId: string, appId: string, viewId: string): SavedView | undefined {
    return this.list(portalId, appId).find((view) => view.viewId === viewId);
  }

  /** Adds the view, or renames it when it is there already (it keeps its place). */
  async add(portalId: string, appId: string, view: SavedView): Promise<void> {
    const entry: SavedView = { viewId: view.viewId, name: view.name.trim() || defaultViewName(view.viewId) };
    const known = this.personal(portalId, appId);
    const next = known.some((candidate) => candidate.viewId === view.viewId)
      ? known.map((candidate) => (candidate.viewId === view.viewId ? entry : candidate))
      : [...known, entry];
    await this.state.set(portalId, appId, next);
    this.changed.fire({ portalId, appId });
  }

  /** Forgets the user's own view; false when it was not among them (a shared one stays: it is the file's). */
  async remove(portalId: string, appId: string, viewId: string): Promise<boolean> {
    const known = this.personal(portalId, appId);
    const next = known.filter((view) => view.viewId !== viewId);
    if (next.length === known.length) return false;
    await this.state.set(portalId, appId, next.length > 0 ? next : undefined);
    this.changed.fire({ portalId, appId });
    return true;
  }
}
