// The one error boundary of everything the user triggers (commands, panel messages, drops): a cancelled action shows nothing; any other failure shows
// one clear message and logs one line to the "Portal Explorer" channel. When the failure is that the user
// must sign in again (PortalError code 'unauthorized'), the message offers "Sign In"; once signed in, the
// same command runs again with the same arguments, so nothing is retyped.
import * as vscode from 'vscode';
import { isCancellation, isPortalError } from '../api/errors';
import { connectionOf, isSignInRequired } from '../auth/signInRequired';
import { createLogger } from '../log';
import { prompter } from './prompter';

/** The command that signs in (optionally to the connection id given) and resolves true when it did. */
export const SIGN_IN_COMMAND = 'portal.signIn';
export const SIGN_IN_ACTION = 'Sign In';

const log = createLogger('errors');

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
