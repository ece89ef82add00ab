// The one-shot loopback listener (RFC 8252 §7.3) for portals whose registered call-back URL is a localhost
// one: an HTTP server on 127.0.0.1 only, on a random port unless one is configured, answering one valid
// call-back with a small "you can close this tab" page and closing; it also closes on cancel or timeout.
// No `vscode` import: unit-tested in plain node against the emulator.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PortalError } from '../api/errors';
import { parseRedirect } from '../api/oauth';
import { abortion, type RedirectReceiver } from './redirectReceiver';

export interface LoopbackOptions {
  /** 0 (default): any free port; the portal must then accept any port for a loopback call-back. */
  port?: number;
  /** The call-back path registered in the portal; "/callback" by default. */
  path?: string;
  /** The state this sign-in sent: a call-back with another state is answered with an error page and ignored. */
  expectedState: string;
}

const STYLE = 'body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5}';

function page(title: string, text: string): string {
  const escape = (value: string): string => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title><style>${STYLE}</style></head><body><h1>${escape(title)}</h1><p>${escape(text)}</p></body></html>`;
}

function answer(response: ServerResponse, status: number, html: string): void {
  response.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
    Connection: 'close',
  });
  response.end(html);
}

export async function startLoopbackReceiver(options: LoopbackOptions): Promise<RedirectReceiver> {
  const path = options.path ?? '/callback';
  let deliver: (url: string) => void = () => undefined;
  let refuse: (error: unknown) => void = () => undefined;
  const delivered = new Promise<string>((resolve, reject) => {
    deliver = resolve;
    refuse = reject;
  });
  // An answer that arrives before wait() is called must not be an unhandled rejection.
  delivered.catch(() => undefined);
  let done = false;

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    if (done || request.method !== 'GET' || url.pathname !== path) {
      answer(response, 404, page('Not found', 'This address only receives the answer of a Portal Explorer sign-in.'));
      return;
    }
    try {
      parseRedirect(url, options.expectedState);
      done = true;
      answer(response, 200, page('Signed in', 'Portal Explorer received the answer. You can close this tab and return to VS Code.'));
      deliver(url.href);
    } catch (error) {
      const message = error instanceof Error ? error.message : 'Sign-in failed.';
      answer(response, 400, page('Sign-in failed', `${message} You can close this tab.`));
      // Only an answer carrying this sign-in's state ends it (a denial, say): any page the user visits can
      // send a request here, and must not end the sign-in with its own text.
      if (error instanceof PortalError && error.code === 'state_mismatch') return;
      done = true;
      refuse(error);
    }
    close();
  });

  const close = (): void => {
    server.close();
    server.closeAllConnections();
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        new PortalError({
          kind: 'invalid-input',
          code: 'loopback_unavailable',
          message:
            error.code === 'EADDRINUSE'
              ? `Sign-in failed: port ${options.port} on 127.0.0.1 is in use; free it or change the setting portal.auth.loopbackPort.`
              : `Sign-in failed: could not listen on 127.0.0.1 for the browser's answer (${error.code ?? error.message}).`,
          cause: error,
        }),
      );
    });
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    redirectUri: `http://127.0.0.1:${port}${path}`,
    wait: (signal) => Promise.race([delivered, abortion(signal)]),
    dispose: () => {
      done = true;
      close();
    },
  };
}
