// The one wrapper every command goes through: a cancelled action shows nothing; any other failure shows
// one clear message and logs one line to the "Portal Explorer" channel.
import * as vscode from 'vscode';
import { isCancellation, isPortalError } from '../api/errors';
import { createLogger } from '../log';
import { prompter } from '../ui/prompter';

const log = createLogger('commands');

/** Arguments arrive from menus, keybindings, the palette and executeCommand: their types are not ours to trust. */
export type CommandHandler = (...args: unknown[]) => unknown;

/** The sentence shown to the user for a failure. */
export function describeError(error: unknown): string {
  if (isPortalError(error)) {
    const portal = error.portalMessage && !error.message.includes(error.portalMessage) ? ` (${error.portalMessage})` : '';
    return `${error.message}${portal}`;
  }
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong.';
}

/** Runs `action`, reporting a failure the one way this extension reports failures. */
export async function runReported(id: string, action: () => unknown): Promise<unknown> {
  try {
    return await action();
  } catch (error) {
    if (isCancellation(error)) return undefined;
    const message = describeError(error);
    log.error(`${id}: ${message}`);
    void prompter().error(message);
    return undefined;
  }
}

export function registerCommand(id: string, handler: CommandHandler): vscode.Disposable {
  return vscode.commands.registerCommand(id, (...args: unknown[]) => runReported(id, () => handler(...args)));
}
