// Every command goes through the one error boundary (src/ui/errorBoundary.ts): a cancelled action shows
// nothing; any other failure shows one clear message and logs one line.
import * as vscode from 'vscode';
import { runReported } from '../ui/errorBoundary';

/** Arguments arrive from menus, keybindings, the palette and executeCommand: their types are not ours to trust. */
export type CommandHandler = (...args: unknown[]) => unknown;

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
