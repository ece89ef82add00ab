// What a sign-in shows and asks in VS Code: a progress notification with Cancel while the browser step
// runs (or the token call, for client credentials), the browser opened through the prompter, the answer
// received through the URI handler or the loopback listener as the workspace file's portal or the setting
// portal.auth.redirectMode says.
import * as vscode from 'vscode';
import { clientCredentials, type TokenSet } from '../api/oauth';
import { setting, type SettingValue } from '../settings/settings';
import { prompter } from '../ui/prompter';
import { authorizationCodeSignIn, SIGN_IN_TIMEOUT_MS, verifyClient } from './authorizationCode';
import { startLoopbackReceiver } from './loopbackReceiver';
import type { AuthFlow } from './portals';
import type { RedirectReceiver } from './redirectReceiver';
import type { AuthUriHandler } from './uriHandler';
import { createLogger, requestLogger, type Logger } from '../log';

export type RedirectMode = SettingValue<'auth.redirectMode'>;

export interface SignInRequest {
  /** The connection's id when signing in again; a new portal has none yet (its name stands for it in the log). */
  id?: string;
  label: string;
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  flow: AuthFlow;
  /** The user confirmed plain http:// for this portal (confirmPlainHttp). */
  allowPlainHttp?: boolean;
  /** How the browser's answer comes back, when the workspace file says; else the setting portal.auth.redirectMode. */
  redirectMode?: RedirectMode;
}

export interface SignInUiOptions {
  uriHandler: AuthUriHandler;
  log: Logger;
  /** The browser step's time limit when the tests shorten it; else 5 minutes. */
  timeoutMs(): number | undefined;
}

/** An AbortSignal that follows `token`, and the listener to dispose once the sign-in ends. */
function abortSignalOf(token: vscode.CancellationToken): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  const listener = token.onCancellationRequested(() => controller.abort());
  return { signal: controller.signal, dispose: () => listener.dispose() };
}

export class SignInUi {
  private readonly requestLog = createLogger('http');

  constructor(private readonly options: SignInUiOptions) {}

  /** Runs the flow with progress and Cancel; resolves with tokens, stores nothing. */
  obtainTokens(request: SignInRequest): Promise<TokenSet> {
    const title = `Signing in to the portal "${request.label}"`;
    return Promise.resolve(
      vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
        const cancel = abortSignalOf(token);
        try {
          const onRequest = requestLogger(this.requestLog, request.id ?? request.label);
          const { baseUrl, clientId, clientSecret, allowPlainHttp } = request;
          const common = { baseUrl, clientId, clientSecret, allowPlainHttp, signal: cancel.signal, onRequest };
          if (request.flow === 'clientCredentials') return await clientCredentials(common);
          progress.report({ message: 'checking the client id and secret…' });
          await verifyClient(common);
          progress.report({ message: 'approve the sign-in in your browser…' });
          return await authorizationCodeSignIn({
            ...common,
            timeoutMs: this.options.timeoutMs() ?? SIGN_IN_TIMEOUT_MS,
            openReceiver: (state) => this.receiver(state, request.redirectMode ?? setting('auth.redirectMode')),
            openBrowser: (url) => prompter().openExternal(url),
          });
        } finally {
          cancel.dispose();
        }
      }),
    );
  }

  private async receiver(state: string, mode: RedirectMode): Promise<RedirectReceiver> {
    const receiver =
      mode === 'loopback'
        ? await startLoopbackReceiver({ port: setting('auth.loopbackPort'), expectedState: state })
        : await this.options.uriHandler.receiver(state);
    // The call-back URL is no secret, and the one thing to register in the portal: say which it is.
    this.options.log.info(
      `Authorization code sign-in (${mode}): waiting for the browser at the call-back URL ${receiver.redirectUri.split('?')[0]}`,
    );
    return receiver;
  }
}

const USE_PLAIN_HTTP = 'Use http:// Anyway';

/**
 * Asks once per portal whether it may be used over plain http:// to another machine (api/urls.ts,
 * exposesInClearText), saying what would travel in clear text. Resolves true only when the user chose so.
 */
export async function confirmPlainHttp(label: string, base: URL): Promise<boolean> {
  const answer = await prompter().warn(
    `The portal "${label}" is at ${base.origin}, without encryption (http://, not https://).`,
    {
      modal: true,
      detail:
        "Its client secret, the sign-in codes, the access and refresh tokens, and every record read or written would cross the network in clear text: anyone on the way (the Wi-Fi, a proxy) could read them, sign in as this application and change records. Use the portal's https:// address if it has one. VS Code asks this once for this portal.",
    },
    USE_PLAIN_HTTP,
  );
  return answer === USE_PLAIN_HTTP;
}
