// portal.tree.pageSize: how many records a view shows before "Load more…".
import * as vscode from 'vscode';

export const PAGE_SIZE_DEFAULT = 100;
const MIN = 10;
const MAX = 1000;

export function pageSize(): number {
  const value = vscode.workspace.getConfiguration('portal.tree').get<number>('pageSize', PAGE_SIZE_DEFAULT);
  return Number.isFinite(value) ? Math.min(MAX, Math.max(MIN, Math.round(value))) : PAGE_SIZE_DEFAULT;
}
