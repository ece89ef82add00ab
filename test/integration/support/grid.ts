// The view grid's tab and document as the integration tests find them.
import * as vscode from 'vscode';
import { driver, type WebviewDom } from './driver';
import type { GridDocument } from '../../../src/grid/host/gridDocument';
import { testApi } from './extension';

export function gridTab(): vscode.Tab | undefined {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .find((tab) => tab.input instanceof vscode.TabInputCustom && tab.input.viewType === 'portal.grid');
}

/** The document of the grid tab open now. */
export async function liveGrid(): Promise<GridDocument | undefined> {
  const input = gridTab()?.input;
  return input instanceof vscode.TabInputCustom ? (await testApi()).gridEditor.openDocument(input.uri) : undefined;
}

/** Types `text` into the cell (row, column) of the grid's page as a person does: Ctrl+Home, arrows, F2, type, Enter. */
export async function typeInto(grid: WebviewDom, row: number, column: number, text: string): Promise<void> {
  await grid.press('.data-grid', 'Control+Home');
  for (let at = 0; at < row; at += 1) await grid.press('.data-grid', 'ArrowDown');
  for (let at = 0; at < column; at += 1) await grid.press('.data-grid', 'ArrowRight');
  await grid.press('.data-grid', 'F2');
  await grid.press('.cell-editor', 'Control+A');
  for (const key of text) await driver.press(key === ' ' ? 'Space' : key);
  await driver.press('Enter');
}
