// Where a panel's messages enter the host: each is checked against its schema (src/shared/panelMessages.ts)
// and handled inside the one error boundary, as a command is: a cancelled action shows nothing; a failure,
// or a message that fails its schema, shows one clear message and logs one line. Pure (no `vscode`).
import { checkMessage, type MessageSchema } from '../shared/panelMessages';
import type { RunReported } from '../ui/failures';

/** A message a panel sent that is not one of its protocol's: said in words, for the log and the user. */
export class MalformedMessage extends Error {
  override readonly name = 'MalformedMessage';
}

function typeOf(message: unknown): string {
  const type = typeof message === 'object' && message !== null ? (message as { type?: unknown }).type : undefined;
  return typeof type === 'string' ? type.slice(0, 40) : 'message';
}

/** The listener of a panel's messages: checked, then handled by `handler`, through `run`. */
export function messageReceiver<T>(
  panel: string,
  schema: MessageSchema<T>,
  handler: (message: T) => unknown,
  run: RunReported,
): (message: unknown) => Promise<unknown> {
  return (message) =>
    run(`${panel} ${typeOf(message)}`, () => {
      const checked = checkMessage(schema, message);
      if (!checked.ok)
        throw new MalformedMessage(
          `The ${panel} panel sent a message this version of Portal Explorer cannot read (${checked.problem}). Close the panel and open it again.`,
        );
      return handler(checked.message);
    });
}
