// The columns each view's grid hides, shows in another order and freezes, kept per view in the workspace
// (a layout is about how this person looks at this view here, not about the view).
import type * as vscode from 'vscode';
import type { ViewTarget } from '../../model/targets';
import type { ColumnLayout } from '../../shared/protocol';


const KEY = 'portal.gridLayouts';

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

export class GridLayouts {
  constructor(private readonly state: vscode.Memento) {}

  get(view: ViewTarget): ColumnLayout | undefined {
    const all = this.state.get<Record<string, unknown>>(KEY, {});
    const layout = all[this.key(view)] as Partial<ColumnLayout> | undefined;
    if (!layout || !isStrings(layout.order) || !isStrings(layout.hidden) || typeof layout.frozen !== 'number') return undefined;
    return { order: layout.order, hidden: layout.hidden, frozen: layout.frozen };
  }

  async set(view: ViewTarget, layout: ColumnLayout): Promise<void> {
    const all = { ...this.state.get<Record<string, unknown>>(KEY, {}) };
    all[this.key(view)] = layout;
    await this.state.update(KEY, all);
  }

  private key(view: ViewTarget): string {
    return JSON.stringify([view.portalId, view.appId, view.viewId]);
  }
}
