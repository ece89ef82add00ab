// The view grid's tab and document as the integration tests find them.
import * as vscode from 'vscode';
import type { GridDocument } from '../../../src/webviews/grid/gridDocument';
import { testApi } from './extension';

export function gridTab(): vscode.Tab | undefined {
  return vscode.window.tabGroups.all.flatMap((group) => group.tabs).find((tab) => tab.input instanceof vscode.TabInputCustom && tab.input.viewType === 'portal.grid');
}

/** The document of the grid tab open now. */
export async function liveGrid(): Promise<GridDocument | undefined> {
  const input = gridTab()?.input;
  return input instanceof vscode.TabInputCustom ? (await testApi()).gridEditor.openDocument(input.uri) : undefined;
}
