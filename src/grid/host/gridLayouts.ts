// The columns each view's grid hides, shows in another order and freezes, kept per view in the workspace
// (a layout is about how this person looks at this view here, not about the view). Without one, the
// workspace file's (.vscode/portal.json) layout of the view, or its columns' order.
import type * as vscode from 'vscode';
import type { SharedSetup } from '../../catalog/workspaceSetup';
import type { ViewTarget } from '../../model/targets';
import type { ColumnLayout } from '../protocol';

const KEY = 'portal.gridLayouts';

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

export class GridLayouts {
  constructor(
    private readonly state: vscode.Memento,
    private readonly shared?: Pick<SharedSetup, 'app'>,
  ) {}

  get(view: ViewTarget): ColumnLayout | undefined {
    return this.personal(view) ?? this.sharedLayout(view);
  }

  /** The user's own layout of the view, when they made one here. */
  personal(view: ViewTarget): ColumnLayout | undefined {
    const all = this.state.get<Record<string, unknown>>(KEY, {});
    const layout = all[this.key(view)] as Partial<ColumnLayout> | undefined;
    if (!layout || !isStrings(layout.order) || !isStrings(layout.hidden) || typeof layout.frozen !== 'number') return undefined;
    return { order: layout.order, hidden: layout.hidden, frozen: layout.frozen };
  }

  private sharedLayout(view: ViewTarget): ColumnLayout | undefined {
    const app = this.shared?.app(view.portalId, view.appId);
    const layout = app?.layouts.find((candidate) => candidate.viewId === view.viewId);
    if (layout) return { order: [...layout.order], hidden: [...layout.hidden], frozen: layout.frozen };
    const columns = app?.views.find((candidate) => candidate.viewId === view.viewId)?.columns;
    return columns ? { order: [...columns], hidden: [], frozen: 0 } : undefined;
  }

  async set(view: ViewTarget, layout: ColumnLayout): Promise<void> {
    const all = { ...this.state.get<Record<string, unknown>>(KEY, {}) };
    all[this.key(view)] = layout;
    await this.state.update(KEY, all);
  }

  /** Forgets the user's own layout (the workspace file's, if any, shows again). */
  async delete(view: ViewTarget): Promise<void> {
    const key = this.key(view);
    const all = Object.fromEntries(Object.entries(this.state.get<Record<string, unknown>>(KEY, {})).filter(([known]) => known !== key));
    await this.state.update(KEY, all);
  }

  private key(view: ViewTarget): string {
    return JSON.stringify([view.portalId, view.appId, view.viewId]);
  }
}
