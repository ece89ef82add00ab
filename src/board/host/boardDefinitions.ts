// The board each view opens with, kept per view in the workspace as grid layouts are (gridLayouts.ts):
// the user's own choice first, else the workspace file's (.vscode/portal.json "boards"), else none (the
// board then takes the view's first Choice column). A damaged entry is ignored rather than misread.
import * as v from 'valibot';
import type * as vscode from 'vscode';
import type { SharedSetup } from '../../catalog/workspaceSetup';
import type { ViewTarget } from '../../model/targets';
import { boardDefinitionSchema, type BoardDefinition } from '../messages';

const KEY = 'portal.boards';

export class BoardDefinitions {
  constructor(
    private readonly state: vscode.Memento,
    private readonly shared?: Pick<SharedSetup, 'app'>,
  ) {}

  get(view: ViewTarget): BoardDefinition | undefined {
    const kept = v.safeParse(boardDefinitionSchema, this.state.get<Record<string, unknown>>(KEY, {})[this.key(view)]);
    if (kept.success) return kept.output;
    const board = this.shared?.app(view.portalId, view.appId)?.boards?.find((candidate) => candidate.viewId === view.viewId);
    if (!board) return undefined;
    return { column: board.column, ...(board.lanes === undefined ? {} : { lanes: board.lanes }), fields: [...board.fields] };
  }

  async set(view: ViewTarget, definition: BoardDefinition): Promise<void> {
    const all = { ...this.state.get<Record<string, unknown>>(KEY, {}) };
    all[this.key(view)] = definition;
    await this.state.update(KEY, all);
  }

  private key(view: ViewTarget): string {
    return JSON.stringify([view.portalId, view.appId, view.viewId]);
  }
}
