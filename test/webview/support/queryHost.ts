// A stand-in for the extension host of a query panel: the real ViewQuerySession over the real portal
// client (emulator over HTTP), with the page's messages instead of VS Code's. The webview tests and the
// bench use it. In VS Code the same session posts through webview.postMessage (see src/webviews/).
import type { Browser } from 'playwright-core';
import type { PortalClient } from '../../../src/api/client';
import type {
  HostToQueryMessage,
  QueryCancelMessage,
  QueryInitMessage,
  QueryLoadFailedMessage,
  QueryRunMessage,
  QuerySortMessage,
  QueryWindowMessage,
} from '../../../src/shared/protocol';
import { shownInPanel } from '../../../src/ui/failures';
import { ViewQuerySession } from '../../../src/webviews/viewQuery/querySession';
import { PanelPage, type OpenOptions, type PanelServer, type PosterMessage } from './panelPage';

export interface QueryHostOptions extends OpenOptions {
  appId: string;
  viewId: string;
  viewName?: string;
  init?: Partial<QueryInitMessage>;
}

export class QueryHost {
  panel!: PanelPage;
  session!: ViewQuerySession;
  /** Messages the host did not handle itself (export, save, openRecord), oldest first. */
  readonly received: PosterMessage[] = [];
  private pending: Promise<unknown> = Promise.resolve();
  /** Runs in progress, one after the other. */
  private runs: Promise<unknown> = Promise.resolve();
  /** Why the next loads fail, one each (as the host says when the portal cannot be read): then init again. */
  private loadFailures: string[] = [];
  /** How many times the page asked to load again (Retry). */
  retries = 0;

  static async open(browser: Browser, server: PanelServer, client: PortalClient, options: QueryHostOptions): Promise<QueryHost> {
    const host = new QueryHost();
    let ready: () => void = () => undefined;
    const readySeen = new Promise<void>((resolve) => (ready = resolve));
    // Messages are handled one after the other, as VS Code delivers them.
    const onPost = (message: { type: string }): void => {
      host.pending = host.pending
        .then(() => host.handle(message as PosterMessage, options, ready))
        .catch((error: unknown) => console.error('query host:', error));
    };
    host.panel = await PanelPage.open(browser, server, 'viewQuery', { ...options, onPost });
    // As VS Code's webview.postMessage: queued in order, the page taking each in while the host goes on.
    host.session = new ViewQuerySession(
      client,
      options.appId,
      options.viewId,
      (message: HostToQueryMessage) => host.panel.post(message),
      shownInPanel(() => undefined),
    );
    await readySeen;
    return host;
  }

  private async handle(message: PosterMessage, options: QueryHostOptions, ready: () => void): Promise<void> {
    // The page is open before the session exists: wait for it.
    while (!this.session) await new Promise((resolve) => setTimeout(resolve, 5));
    switch (message.type) {
      // Retry is answered as the first load is.
      case 'retry':
      case 'ready': {
        if (message.type === 'retry') this.retries += 1;
        const failure = this.loadFailures.shift();
        if (failure !== undefined) {
          await this.panel.post({ type: 'query/loadFailed', message: failure } satisfies QueryLoadFailedMessage);
          ready();
          break;
        }
        await this.panel.post({
          type: 'query/init',
          viewName: options.viewName ?? `View ${options.viewId}`,
          appName: `App ${options.appId}`,
          portalLabel: 'Demo portal',
          columns: await this.session.filterColumns(),
          saved: [],
          ...options.init,
        } satisfies QueryInitMessage);
        ready();
        break;
      }
      case 'query/run': {
        // Not awaited: the page's requests for rows are answered while the run reads the answer, as in VS Code.
        const run = message as unknown as QueryRunMessage;
        this.runs = this.runs.then(() => this.session.run(run.runId, run.filters));
        break;
      }
      case 'query/window': {
        const window = message as unknown as QueryWindowMessage;
        await this.session.window(window.runId, window.sortVersion, window.start, window.end);
        break;
      }
      case 'query/sort': {
        const sort = message as unknown as QuerySortMessage;
        await this.session.sort(sort.runId, sort.sort);
        break;
      }
      case 'query/cancel': {
        const cancel = message as unknown as QueryCancelMessage;
        this.session.cancel(cancel.runId);
        break;
      }
      default:
        this.received.push(message);
    }
  }

  /** The next loads (the page's ready or Retry) fail with these messages, one each. */
  failLoads(...messages: string[]): void {
    this.loadFailures.push(...messages);
  }

  /** Waits until the host has handled every message so far (a run included). */
  async settled(): Promise<void> {
    let current: Promise<unknown>;
    let runs: Promise<unknown>;
    do {
      current = this.pending;
      runs = this.runs;
      await runs;
      await current;
      await this.panel.delivered();
    } while (current !== this.pending || runs !== this.runs);
  }

  async close(): Promise<void> {
    this.session?.dispose();
    await this.panel.close();
  }
}
