// Every question the extension asks the user, and every message it shows, goes through one Prompter.
// In normal use it is VS Code's own window API. The integration tests replace it (through the API that
// activate() returns in test mode) with a scripted one, because code-server's dialogs and clipboard are
// not the desktop's and a test must never wait on a real dialog.
import * as vscode from 'vscode';

export interface Prompter {
  inputBox(options: vscode.InputBoxOptions): Promise<string | undefined>;
  quickPick<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Promise<T | undefined>;
  quickPickMany<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Promise<readonly T[] | undefined>;
  /** Resolves to the chosen action, or undefined when dismissed. */
  info<A extends string>(message: string, ...actions: A[]): Promise<A | undefined>;
  warn<A extends string>(message: string, options: vscode.MessageOptions, ...actions: A[]): Promise<A | undefined>;
  error<A extends string>(message: string, ...actions: A[]): Promise<A | undefined>;
  saveDialog(options: vscode.SaveDialogOptions): Promise<vscode.Uri | undefined>;
  openDialog(options: vscode.OpenDialogOptions): Promise<readonly vscode.Uri[] | undefined>;
  /**
   * Opens a link outside VS Code. A string is opened exactly as written: VS Code re-encodes the query of a
   * Uri, which breaks a URL that carries another URL with its own query (an OAuth redirect_uri).
   */
  openExternal(target: vscode.Uri | string): Promise<boolean>;
  copyToClipboard(text: string): Promise<void>;
}

export const vscodePrompter: Prompter = {
  inputBox: async (options) => vscode.window.showInputBox(options),
  quickPick: async (items, options) => vscode.window.showQuickPick(items, { ...options, canPickMany: false }),
  quickPickMany: async (items, options) => vscode.window.showQuickPick(items, { ...options, canPickMany: true }),
  info: async (message, ...actions) => vscode.window.showInformationMessage(message, ...actions),
  warn: async (message, options, ...actions) => vscode.window.showWarningMessage(message, options, ...actions),
  error: async (message, ...actions) => vscode.window.showErrorMessage(message, ...actions),
  saveDialog: async (options) => vscode.window.showSaveDialog(options),
  openDialog: async (options) => vscode.window.showOpenDialog(options),
  // env.openExternal takes a string too at run time (its typing says Uri) and then opens it untouched.
  openExternal: async (target) => vscode.env.openExternal(target as vscode.Uri),
  copyToClipboard: async (text) => vscode.env.clipboard.writeText(text),
};

let current: Prompter = vscodePrompter;

/** The prompter in use; call it at the moment of asking, never cache it. */
export function prompter(): Prompter {
  return current;
}

/** Test seam: swaps the prompter; returns the one it replaced. */
export function setPrompter(next: Prompter): Prompter {
  const previous = current;
  current = next;
  return previous;
}

/**
 * Shows a notification without waiting for it: the action that tells ends now, and the notification stays
 * until the user dismisses it (awaiting it would hold a command, a progress or a test until then).
 */
export function tell(level: 'info' | 'warn', message: string): void {
  // Not awaited, on purpose: see above.
  if (level === 'info') void prompter().info(message);
  else void prompter().warn(message, {});
}
