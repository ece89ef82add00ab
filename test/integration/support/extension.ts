// The extension under test, as the tests reach it: through VS Code's extension API and the test API that
// activate() returns in ExtensionMode.Test. Only types are imported from src/: a value import would bundle
// a second copy of the extension's modules into the test, with its own state.
import * as vscode from 'vscode';
import type { PortalExplorerApi, PortalExplorerTestApi } from '../../../src/testApi';

export const EXTENSION_ID = 'portal-labs.portal-explorer';

export function extension(): vscode.Extension<PortalExplorerApi> {
  const found = vscode.extensions.getExtension<PortalExplorerApi>(EXTENSION_ID);
  if (!found) throw new Error(`${EXTENSION_ID} is not loaded in this extension host (is extensionDevelopmentPath the repository?).`);
  return found;
}

/**
 * Activates the extension when needed and returns its test API, once ready(): the portals read and the
 * parts the extension builds on first use built.
 */
export async function testApi(): Promise<PortalExplorerTestApi> {
  const ext = extension();
  const api = ext.isActive ? ext.exports : await ext.activate();
  if (!api?.testing) throw new Error('activate() returned no test API: the extension is not running in ExtensionMode.Test.');
  await api.testing.ready();
  return api.testing;
}
