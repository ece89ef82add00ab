// The error boundary (failures.ts) as the extension runs it: failures to the "Portal Explorer" channel and
// the user's notifications (or the panel that shows them itself), "Sign In" through the sign-in command.
import * as vscode from 'vscode';
import { COMMANDS } from '../ids';
import { createLogger } from '../log';
import { errorBoundary, shownInPanel } from './failures';
import { prompter } from './prompter';

export { describeError, SIGN_IN_ACTION } from './failures';

/** The command that signs in (optionally to the connection id given) and resolves true when it did. */
export const SIGN_IN_COMMAND = COMMANDS.portal.signIn;

const log = createLogger('errors');

/** Runs `action`, reporting a failure the one way this extension reports failures. */
export const runReported = errorBoundary(
  {
    logError: (line) => log.error(line),
    showError: (message, ...actions) => prompter().error(message, ...actions),
    signIn: async (connectionId) => (await vscode.commands.executeCommand<unknown>(SIGN_IN_COMMAND, connectionId)) === true,
  },
  SIGN_IN_COMMAND,
);

/** Runs a panel's `action`, its failure shown inside the panel: the same rule, one log line to the same channel. */
export const runShownInPanel = shownInPanel((line) => log.error(line));
