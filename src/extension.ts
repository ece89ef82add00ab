// activate(): builds the extension's parts and registers them; nothing else happens here.
import * as vscode from 'vscode';
import { initLogging } from './log';
import { createTestApi, type PortalExplorerApi } from './testApi';

export function activate(context: vscode.ExtensionContext): PortalExplorerApi {
  context.subscriptions.push(initLogging());
  return context.extensionMode === vscode.ExtensionMode.Test ? { testing: createTestApi(context) } : {};
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
