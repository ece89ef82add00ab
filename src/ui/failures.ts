// The one error boundary of everything the user triggers (commands, panel messages, drops), without
// `vscode` so that it is unit-tested in plain node: a cancelled action shows nothing; any other failure
// shows one clear message and logs one line. When the failure is that the user must sign in again
// (PortalError code 'unauthorized'), the message offers "Sign In"; once signed in, the same action runs
// again, so nothing is retyped. A panel may show a failure inside itself instead of as a notification
// (shownInPanel): the same rule, its one message posted to the page. errorBoundary.ts wires both to the log
// channel, the prompter and the sign-in command.
import { isCancellation, isPortalError } from '../api/errors';
import { connectionOf, isSignInRequired } from '../model/signInRequired';

export const SIGN_IN_ACTION = 'Sign In';

/** The sentence shown to the user for a failure (`fallback` when the failure says nothing). */
export function describeError(error: unknown, fallback = 'Something went wrong.'): string {
  if (isPortalError(error)) {
    const portal = error.portalMessage && !error.message.includes(error.portalMessage) ? ` (${error.portalMessage})` : '';
    return `${error.message}${portal}`;
  }
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}

/** Where a failure goes: one log line, one message (with actions), and the way to sign in again. */
export interface FailureOutlet {
  logError(line: string): void;
  showError(message: string, ...actions: string[]): PromiseLike<string | undefined>;
  /** Signs in (to the connection when known); resolves true when it did. */
  signIn(connectionId: string | undefined): PromiseLike<boolean>;
}

export type RunReported = (id: string, action: () => unknown) => Promise<unknown>;

/** `run(id, action)`: runs the action, reporting a failure the one way this extension reports failures. */
export function errorBoundary(outlet: FailureOutlet, signInId: string): RunReported {
  const run: RunReported = async (id, action) => {
    try {
      return await action();
    } catch (error) {
      if (isCancellation(error)) return undefined;
      const message = describeError(error);
      outlet.logError(`${id}: ${message}`);
      if (isSignInRequired(error) && id !== signInId) {
        // Not awaited: the action ends now; the retry runs if and when the user chooses to sign in.
        void Promise.resolve(outlet.showError(message, SIGN_IN_ACTION)).then(async (choice) => {
          if (choice === SIGN_IN_ACTION && (await outlet.signIn(connectionOf(error)))) await run(id, action);
        });
        return undefined;
      }
      // Not awaited: the message stays up while the action ends.
      void outlet.showError(message);
      return undefined;
    }
  };
  return run;
}

/** Shows a failure inside the panel (next to the field the error names, in the panel's own bar). */
export type ShowInPanel = (message: string, error: unknown) => unknown;

/**
 * `run(id, action, show)`: the boundary for what a panel shows in itself (its load, a query, a refused
 * create) rather than as a notification. A cancelled action (or one whose `signal` was aborted, whatever it
 * threw) shows nothing; any other failure logs one line and is shown by `show`, in describeError's words
 * (`fallback` when the failure says nothing). Resolves with the action's value, undefined when it failed.
 */
export type RunShownInPanel = <T>(
  id: string,
  action: () => T | PromiseLike<T>,
  show: ShowInPanel,
  options?: { signal?: AbortSignal; fallback?: string },
) => Promise<T | undefined>;

export function shownInPanel(logError: FailureOutlet['logError']): RunShownInPanel {
  return async (id, action, show, options = {}) => {
    try {
      return await action();
    } catch (error) {
      if (options.signal?.aborted || isCancellation(error)) return undefined;
      const message = describeError(error, options.fallback);
      logError(`${id}: ${message}`);
      await show(message, error);
      return undefined;
    }
  };
}
