// Where the branches Start Work made are kept (the workspace's state), in a module of its own: activation
// asks whether there are any without loading Start Work (src/extension.ts).
import type * as vscode from 'vscode';

export const WORK_STATE_KEY = 'portal.work.branches';

/** Whether Start Work made a branch in this workspace (activation then follows branch changes). */
export function hasWorkBranches(state: vscode.Memento): boolean {
  const stored = state.get<unknown>(WORK_STATE_KEY);
  return typeof stored === 'object' && stored !== null && Object.keys(stored).length > 0;
}
