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
  return registrableCallbackUrl(await uriHandler.callbackUrl());
}

/**
 * The part of the URI handler's call-back URL that stays the same. VS Code for the web hands out its
 * /callback route with a query naming one sign-in (`vscode-reqid=N&vscode-scheme=…`); the workbench takes
 * an answer only for a request id it issued in this page, so the sign-in must send that query, and what
 * can be registered is the address without it (a portal that matches call-back URLs exactly needs the
 * loopback mode there). Desktop VS Code's `vscode://…/auth` has no query and comes back unchanged.
 */
export function registrableCallbackUrl(url: string): string {
  const query = url.indexOf('?');
  if (query < 0 || !new URLSearchParams(url.slice(query + 1)).has('vscode-reqid')) return url;
  return url.slice(0, query);
}

/** What the copy command adds to the URL: in the web, the address gets a per-sign-in query at sign-in. */
function callbackNote(copied: string): string {
  if (setting('auth.redirectMode') === 'loopback' || !/^https?:/.test(copied)) return '';
  return ' VS Code for the web adds a query naming each sign-in to it; for a portal that accepts only the exact registered address, use the loopback redirect mode.';
}

export function helpCommands(extensionId: string, uriHandler: AuthUriHandler): CommandTable {
  return {
    [HELP_COMMANDS.showLog]: () => showLog(),
    [HELP_COMMANDS.openWalkthrough]: () =>
      showingWalkthrough(() =>
        vscode.commands.executeCommand('workbench.action.openWalkthrough', `${extensionId}#${WALKTHROUGH_ID}`, false),
      ),
    [HELP_COMMANDS.copyCallbackUrl]: async () => {
      const url = await callbackUrl(uriHandler);
      await prompter().copyToClipboard(url);
      markWalkthroughStep('callbackCopied');
      log.info(`Call-back URL to register in the portal: ${url}`);
      tell('info', `Copied the call-back URL to register in the portal: ${url}.${callbackNote(url)}`);
      return url;
    },
  };
}
