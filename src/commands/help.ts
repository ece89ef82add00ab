// Getting help: the walkthrough, the log, and the call-back URL to register in the portal.
import * as vscode from 'vscode';
import type { AuthUriHandler } from '../auth/uriHandler';
import { markWalkthroughStep, showingWalkthrough, WALKTHROUGH_ID } from '../help/walkthroughProgress';
import { HELP_COMMANDS } from '../ids';
import { createLogger, showLog } from '../log';
import { setting } from '../settings/settings';
import { prompter, tell } from '../ui/prompter';
import type { CommandTable } from './register';

const log = createLogger('help');

/** The call-back URL the portal must know for the Authorization Code sign-in, as portal.auth.* say. */
export async function callbackUrl(uriHandler: AuthUriHandler): Promise<string> {
  if (setting('auth.redirectMode') === 'loopback') {
    const port = setting('auth.loopbackPort');
    return `http://127.0.0.1${port === 0 ? '' : `:${port}`}/callback`;
  }
  return uriHandler.callbackUrl();
}

export function helpCommands(extensionId: string, uriHandler: AuthUriHandler): CommandTable {
  return {
    [HELP_COMMANDS.showLog]: () => showLog(),
    [HELP_COMMANDS.openWalkthrough]: () =>
      showingWalkthrough(() => vscode.commands.executeCommand('workbench.action.openWalkthrough', `${extensionId}#${WALKTHROUGH_ID}`, false)),
    [HELP_COMMANDS.copyCallbackUrl]: async () => {
      const url = await callbackUrl(uriHandler);
      await prompter().copyToClipboard(url);
      markWalkthroughStep('callbackCopied');
      log.info(`Call-back URL to register in the portal: ${url}`);
      tell('info', `Copied the call-back URL to register in the portal: ${url}`);
      return url;
    },
  };
}
