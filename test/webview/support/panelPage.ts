// A built panel (dist/webview/<panel>.js) in headless Chromium, as VS Code shows it: the page the host
// builds (src/webviews/html.ts, with its Content-Security-Policy) served from 127.0.0.1, the theme's
// --vscode-* variables and body class as VS Code sets them (captured from VS Code 1.139: Default Light
// Modern, Dark Modern, High Contrast, High Contrast Light), and a stand-in for acquireVsCodeApi that records what the panel
// posts and keeps its state across reloads (as VS Code does when a panel is hidden and shown). The host's
// messages go in as VS Code's transport sends them (PanelPage.post): queued, in order, each a message event
// of its own, the host not waiting for the page between two.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { createNonce, panelHtml } from '../../../src/webviews/html';
import { chromiumLaunchOptions, repoRoot } from './repo';

export type ThemeName = 'light' | 'dark' | 'high-contrast' | 'high-contrast-light';
export const THEMES: readonly ThemeName[] = ['light', 'dark', 'high-contrast', 'high-contrast-light'];

interface ThemeFixture {
  bodyClass: string;
  kind: string;
  variables: string;
  defaultStyles: string;
}

function theme(name: ThemeName): ThemeFixture {
  return JSON.parse(readFileSync(join(repoRoot(), 'test', 'webview', 'support', 'themes', `${name}.json`), 'utf8')) as ThemeFixture;
}

/**
 * A page the host writes whole (the image viewer's), with what VS Code adds around it: the theme's styles
 * ahead of the page's own Content-Security-Policy (VS Code's webview puts them in before the page's markup)
 * and the body class.
 */
export function themedHtml(html: string, themeName: ThemeName): string {
  const fixture = theme(themeName);
  return html
    .replace('<head>', `<head>\n<style>${fixture.defaultStyles}\nhtml { ${fixture.variables} }</style>`)
    .replace('<body>', `<body class="${fixture.bodyClass}" data-vscode-theme-kind="${fixture.kind}">`);
}

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.map': 'application/json' };

/** Serves dist/webview/ and the panels' pages on 127.0.0.1 (the only address anything here talks to). */
export class PanelServer {
  private server: Server | undefined;
  origin = '';

  async start(): Promise<void> {
    const dist = join(repoRoot(), 'dist', 'webview');
    this.server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const page = /^\/panel\/(\w+)$/.exec(url.pathname);
      if (page) {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end(this.page(page[1], (url.searchParams.get('theme') ?? 'light') as ThemeName));
        return;
      }
      const themeCss = /^\/theme\/([\w-]+)\.css$/.exec(url.pathname);
      if (themeCss) {
        const fixture = theme(themeCss[1] as ThemeName);
        response.writeHead(200, { 'content-type': 'text/css' });
        response.end(`${fixture.defaultStyles}\nhtml { ${fixture.variables} }\n`);
        return;
      }
      const file = normalize(url.pathname.replace(/^\/dist\/webview\//, ''));
      if (!url.pathname.startsWith('/dist/webview/') || file.startsWith('..')) {
        response.writeHead(404).end();
        return;
      }
      try {
        const body = readFileSync(join(dist, file));
        response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
        response.end(body);
      } catch {
        response.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The host's page, plus what VS Code adds around it: the theme's variables and body class. */
  private page(panel: string, themeName: ThemeName): string {
    const fixture = theme(themeName);
    const html = panelHtml({
      cspSource: this.origin,
      scriptUri: `${this.origin}/dist/webview/${panel}.js`,
      styleUri: `${this.origin}/dist/webview/${panel}.css`,
      nonce: createNonce(),
      title: panel,
    });
    return html
      .replace('<meta name="viewport"', `<link rel="stylesheet" href="${this.origin}/theme/${themeName}.css">\n<meta name="viewport"`)
      .replace('<body>', `<body class="${fixture.bodyClass}" data-vscode-theme-kind="${fixture.kind}">`);
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

export async function launchChromium(): Promise<Browser> {
  const { executablePath, args } = await chromiumLaunchOptions();
  return chromium.launch({ executablePath, headless: true, args });
}

interface ViolationEvent {
  violatedDirective: string;
  blockedURI: string;
  sourceFile: string;
  lineNumber: number;
  columnNumber: number;
  sample: string;
}

/** The little of the page's DOM that functions run in the page use (the node side's type library has no DOM). */
export interface PageElement {
  textContent: string | null;
  scrollTop: number;
  scrollHeight: number;
  parentElement: PageElement | null;
  getAttribute(name: string): string | null;
}

export interface PageDocument {
  querySelector(selector: string): PageElement | null;
  getElementById(id: string): PageElement | null;
}

/** What the page's window has for these helpers. */
export interface PageGlobals {
  __posted: PosterMessage[];
  __csp: string[];
  __hostReceive?: (message: unknown) => void;
  __hostDeliver: (json: string) => void;
  acquireVsCodeApi: () => unknown;
  addEventListener(type: string, listener: unknown, options?: unknown): void;
  setTimeout(callback: () => void, ms: number): number;
  sessionStorage: { getItem(key: string): string | null; setItem(key: string, value: string): void };
  document: { addEventListener(type: 'securitypolicyviolation', listener: (event: ViolationEvent) => void): void };
  postMessage(data: unknown, targetOrigin: string): void;
  dispatchEvent(event: unknown): boolean;
  MessageEvent: new (type: 'message', init: { data: unknown }) => unknown;
}

/** Installed before the page's own scripts: the stand-in for VS Code's acquireVsCodeApi. */
function installVsCodeStandIn(): void {
  const win = globalThis as unknown as PageGlobals;
  const store = win.sessionStorage;
  win.__posted = [];
  win.__csp = [];
  win.document.addEventListener('securitypolicyviolation', (event) =>
    win.__csp.push(
      `${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}:${event.columnNumber} ${event.sample}`,
    ),
  );
  // The host's messages (PanelPage.post), each dispatched as VS Code's webview dispatches it; those that
  // come before the panel listens wait for it, in order, as VS Code holds them until the page is ready.
  const held: string[] = [];
  let listening = false;
  const dispatch = (json: string): void => {
    win.dispatchEvent(new win.MessageEvent('message', { data: JSON.parse(json) as unknown }));
  };
  const drain = (): void => {
    const next = held.shift();
    if (next === undefined) return;
    dispatch(next);
    if (held.length > 0) win.setTimeout(drain, 0);
  };
  win.__hostDeliver = (json) => {
    if (!listening || held.length > 0) held.push(json);
    else dispatch(json);
  };
  const addEventListener = win.addEventListener.bind(win);
  win.addEventListener = (type, listener, options) => {
    addEventListener(type, listener, options);
    if (type !== 'message' || listening) return;
    listening = true;
    if (held.length > 0) win.setTimeout(drain, 0);
  };
  let acquired = false;
  win.acquireVsCodeApi = () => {
    if (acquired) throw new Error('acquireVsCodeApi may be called only once');
    acquired = true;
    return {
      postMessage: (message: unknown) => {
        const copy = JSON.parse(JSON.stringify(message)) as PosterMessage;
        win.__posted.push(copy);
        win.__hostReceive?.(copy);
      },
      getState: () => {
        const saved = store.getItem('vscode-state');
        return saved === null ? undefined : (JSON.parse(saved) as unknown);
      },
      setState: (state: unknown) => store.setItem('vscode-state', JSON.stringify(state)),
    };
  };
}

export interface OpenOptions {
  theme?: ThemeName;
  viewport?: { width: number; height: number };
  /** Device pixels per CSS pixel: 2 with half the viewport is the page at 200% zoom. */
  deviceScaleFactor?: number;
  timezoneId?: string;
  /** Receives each message the panel posts (besides recording it), e.g. a host stand-in. */
  onPost?: (message: { type: string }) => void;
  /** Runs in the page before its own scripts (e.g. to take away a browser feature an older VS Code lacks). */
  initScript?: () => void;
}

export interface PosterMessage {
  type: string;
  [key: string]: unknown;
}

export class PanelPage {
  /** What the host posted and the page has not handled yet: settles when the last of it has been. */
  private delivering: Promise<unknown> = Promise.resolve();
  /** The first message the page could not take (delivered() rejects with it). */
  private undelivered: Error | undefined;

  private constructor(
    readonly context: BrowserContext,
    readonly page: Page,
    /** The host's channel into the page: one DevTools session, its commands run in the order they are sent. */
    private readonly channel: CDPSession,
  ) {}

  static async open(browser: Browser, server: PanelServer, panel: string, options: OpenOptions = {}): Promise<PanelPage> {
    const context = await browser.newContext({
      viewport: options.viewport ?? { width: 1100, height: 800 },
      deviceScaleFactor: options.deviceScaleFactor ?? 1,
      timezoneId: options.timezoneId ?? 'UTC',
      locale: 'en-US',
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    if (options.onPost) {
      const onPost = options.onPost;
      await page.exposeFunction('__hostReceive', (message: { type: string }) => onPost(message));
    }
    await page.addInitScript(installVsCodeStandIn);
    if (options.initScript) await page.addInitScript(options.initScript);
    const channel = await context.newCDPSession(page);
    await page.goto(`${server.origin}/panel/${panel}?theme=${options.theme ?? 'light'}`);
    const handle = new PanelPage(context, page, channel);
    handle.pageErrors = errors;
    await handle.waitForPost('ready');
    return handle;
  }

  pageErrors: string[] = [];

  /** Everything the panel posted, oldest first. */
  async posted(): Promise<PosterMessage[]> {
    return this.page.evaluate(() => (globalThis as unknown as PageGlobals).__posted);
  }

  /** The last message of `type` the panel posted, waiting for one when there is none yet. */
  async waitForPost(type: string, since = 0): Promise<PosterMessage> {
    await this.page.waitForFunction(
      ([wanted, from]) => (globalThis as unknown as PageGlobals).__posted.slice(from).some((message) => message.type === wanted),
      [type, since] as const,
      { timeout: 10_000 },
    );
    const all = await this.posted();
    return all
      .slice(since)
      .filter((message) => message.type === type)
      .pop() as PosterMessage;
  }

  async postedCount(): Promise<number> {
    return (await this.posted()).length;
  }

  /**
   * A message from the host, as webview.postMessage sends it: serialized to JSON, queued behind the ones
   * before it and dispatched in the page as a message event of its own when the page's thread gets to it.
   * The host does not wait for the page between two messages (each is one DevTools command, sent at once;
   * the session runs them in order). Resolves with true once the page has handled it (VS Code's resolves
   * sooner, when the workbench has passed it on); delivered() waits for all of them.
   */
  post(message: object): Promise<boolean> {
    const expression = `globalThis.__hostDeliver(${JSON.stringify(JSON.stringify(message))})`;
    const handled = this.channel.send('Runtime.evaluate', { expression }).then(({ exceptionDetails }) => {
      if (exceptionDetails)
        throw new Error(`The page refused a message: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
      return true;
    });
    const settled = handled.catch((error: unknown) => {
      this.undelivered ??= error instanceof Error ? error : new Error(String(error));
    });
    this.delivering = Promise.all([this.delivering, settled]);
    return handled;
  }

  /** Resolves when the page has handled every message posted so far (rejects when one could not be). */
  async delivered(): Promise<void> {
    let current: Promise<unknown>;
    do {
      current = this.delivering;
      await current;
    } while (current !== this.delivering);
    if (this.undelivered) throw this.undelivered;
  }

  /**
   * A message from the host dispatched at once, outside the queue of post(): the page has handled it when
   * this resolves, for a test that then looks at what it did. (One string crosses to the page; Playwright's
   * own serializer is slow on big arrays.)
   */
  async send(message: object): Promise<void> {
    await this.page.evaluate((json) => {
      const win = globalThis as unknown as PageGlobals;
      win.dispatchEvent(new win.MessageEvent('message', { data: JSON.parse(json) as unknown }));
    }, JSON.stringify(message));
  }

  /** Content-Security-Policy violations the page reported. */
  async cspViolations(): Promise<string[]> {
    return this.page.evaluate(() => (globalThis as unknown as PageGlobals).__csp);
  }

  async screenshot(name: string): Promise<string> {
    const path = join(repoRoot(), 'test-results', 'screenshots', `webview-${name}.png`);
    await this.page.screenshot({ path, fullPage: false });
    return path;
  }

  async close(): Promise<void> {
    await this.context.close();
  }
}
