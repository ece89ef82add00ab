// The one wrapper every command goes through: a cancelled action shows nothing; any other failure shows
// one clear message and logs one line to the "Portal Explorer" channel. When the failure is that the user
// must sign in again (PortalError code 'unauthorized'), the message offers "Sign In"; once signed in, the
// same command runs again with the same arguments, so nothing is retyped.
import * as vscode from 'vscode';
import { isCancellation, isPortalError } from '../api/errors';
import { connectionOf, isSignInRequired } from '../auth/signInRequired';
import { createLogger } from '../log';
import { prompter } from '../ui/prompter';

/** The command that signs in (optionally to the connection id given) and resolves true when it did. */
export const SIGN_IN_COMMAND = 'portal.signIn';
export const SIGN_IN_ACTION = 'Sign In';

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
    if (isSignInRequired(error) && id !== SIGN_IN_COMMAND) {
      // Not awaited: the command ends now; the retry runs if and when the user chooses to sign in.
      void prompter()
        .error(message, SIGN_IN_ACTION)
        .then(async (choice) => {
          if (choice !== SIGN_IN_ACTION) return;
          if ((await vscode.commands.executeCommand<unknown>(SIGN_IN_COMMAND, connectionOf(error))) === true) await runReported(id, action);
        });
      return undefined;
    }
    void prompter().error(message);
    return undefined;
  }
}

export function registerCommand(id: string, handler: CommandHandler): vscode.Disposable {
  return vscode.commands.registerCommand(id, (...args: unknown[]) => runReported(id, () => handler(...args)));
}

/** The handlers of a group of commands, by id: what a command module hands over once it is loaded. */
export type CommandTable = Readonly<Record<string, CommandHandler>>;

/**
 * Registers every command of `ids` now (VS Code must know them at activation), each one running its
 * handler from `table()`: the module that implements them is loaded when one of them first runs.
 */
export function registerLazyCommands(ids: readonly string[], table: () => Promise<CommandTable>): vscode.Disposable {
  return vscode.Disposable.from(
    ...ids.map((id) =>
      registerCommand(id, async (...args) => {
        const handler = (await table())[id];
        if (!handler) throw new Error(`The command ${id} is not implemented.`);
        return handler(...args);
      }),
    ),
  );
}
