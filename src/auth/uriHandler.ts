// The extension's URI handler: the browser's answer to a sign-in comes back as
// <scheme>://portal-labs.portal-explorer/auth?code=...&state=... (in the web UI through the host's
// /callback route, which env.asExternalUri provides). Each waiting sign-in registers its state; an answer
// with a state nobody waits for is dropped with a log line (any web page can open the link). A link to a
// record or view (/open) goes to whoever opens those (the features, once built).
import * as vscode from 'vscode';
import type { Logger } from '../log';
import { AUTH_PATH } from './authPath';
import { abortion, type RedirectReceiver } from './redirectReceiver';
import { SignInWaiters } from './signInWaiters';
import { OPEN_PATH } from '../ids';

export class AuthUriHandler implements vscode.UriHandler {
  private readonly waiting = new SignInWaiters();
  private opener: ((query: string) => void) | undefined;

  constructor(
    private readonly extensionId: string,
    private readonly log: Logger,
  ) {}

  /** Who opens the links to records, views and saved queries. */
  openLinksWith(opener: (query: string) => void): void {
    this.opener = opener;
  }

  handleUri(uri: vscode.Uri): void {
    if (uri.path === OPEN_PATH && this.opener) {
      this.opener(uri.query);
      return;
    }
    if (uri.path !== AUTH_PATH) {
      this.log.warn(`Ignored a link to ${uri.path}: only ${AUTH_PATH} and ${OPEN_PATH} are handled.`);
      return;
    }
    if (!this.waiting.deliver(uri.query, uri.fragment)) {
      this.log.warn('A sign-in answer arrived that belongs to no waiting sign-in (it may have been cancelled or timed out); ignored.');
    }
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
    const remove = this.waiting.add(state, (url) => deliver(url));
    return {
      redirectUri,
      wait: (signal) => Promise.race([delivered, abortion(signal)]),
      dispose: remove,
    };
  }
}
