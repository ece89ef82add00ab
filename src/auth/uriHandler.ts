// The extension's URI handler: the browser's answer to a sign-in comes back as
// <scheme>://portal-labs.portal-explorer/auth?code=...&state=... (in the web UI through the host's
// /callback route, which env.asExternalUri provides). Each waiting sign-in registers its state; an answer
// with a state nobody waits for goes to the oldest waiting sign-in, whose state check then refuses it.
import * as vscode from 'vscode';
import type { Logger } from '../log';
import { abortion, type RedirectReceiver } from './redirectReceiver';

export const AUTH_PATH = '/auth';

interface Waiting {
  state: string;
  deliver(url: string): void;
}

export class AuthUriHandler implements vscode.UriHandler {
  private readonly waiting: Waiting[] = [];

  constructor(
    private readonly extensionId: string,
    private readonly log: Logger,
  ) {}

  handleUri(uri: vscode.Uri): void {
    if (uri.path !== AUTH_PATH) {
      this.log.warn(`Ignored a link to ${uri.path}: only ${AUTH_PATH} is handled.`);
      return;
    }
    const state = new URLSearchParams(uri.query).get('state');
    const target = this.waiting.find((entry) => entry.state === state) ?? this.waiting[0];
    if (!target) {
      this.log.warn('A sign-in answer arrived, but no sign-in is waiting for one (it may have been cancelled or timed out).');
      return;
    }
    this.waiting.splice(this.waiting.indexOf(target), 1);
    // Only the query and fragment matter to the flow; a neutral base keeps the URL parser happy.
    target.deliver(`http://uri-handler.invalid${AUTH_PATH}?${uri.query}${uri.fragment ? `#${uri.fragment}` : ''}`);
  }

  /** The call-back URL to register in the portal: the external form of our /auth URI. */
  async callbackUrl(): Promise<string> {
    const internal = vscode.Uri.parse(`${vscode.env.uriScheme}://${this.extensionId}${AUTH_PATH}`);
    return (await vscode.env.asExternalUri(internal)).toString(true);
  }

  /** A receiver for one sign-in; its redirect URI is the external form of our /auth URI. */
  async receiver(state: string): Promise<RedirectReceiver> {
    const redirectUri = await this.callbackUrl();
    let deliver: (url: string) => void = () => undefined;
    const delivered = new Promise<string>((resolve) => (deliver = resolve));
    const entry: Waiting = { state, deliver: (url) => deliver(url) };
    this.waiting.push(entry);
    const remove = (): void => {
      const index = this.waiting.indexOf(entry);
      if (index >= 0) this.waiting.splice(index, 1);
    };
    return {
      redirectUri,
      wait: (signal) => Promise.race([delivered, abortion(signal)]),
      dispose: remove,
    };
  }
}
