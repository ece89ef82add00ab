// What both panels share on the host side: a WebviewPanel with scripts on, resources only from dist/webview
// and media, the page of html.ts, and typed messages both ways (anything unknown from the page is ignored).
import * as vscode from 'vscode';
import { isMessage } from '../shared/protocol';
import { createNonce, panelHtml } from './html';

export interface PanelOptions {
  viewType: 'portal.recordForm' | 'portal.viewQuery';
  title: string;
  /** The bundle's name under dist/webview (recordForm, viewQuery). */
  bundle: string;
  extensionUri: vscode.Uri;
}

export class Panel<In extends { type: string }, Out> implements vscode.Disposable {
  readonly webview: vscode.Webview;
  private readonly disposables: vscode.Disposable[] = [];
  private disposed = false;

  constructor(
    readonly panel: vscode.WebviewPanel,
    options: PanelOptions,
    private readonly messageTypes: readonly string[],
  ) {
    this.webview = panel.webview;
    const dist = vscode.Uri.joinPath(options.extensionUri, 'dist', 'webview');
    this.webview.options = { enableScripts: true, localResourceRoots: [dist, vscode.Uri.joinPath(options.extensionUri, 'media')] };
    this.webview.html = panelHtml({
      cspSource: this.webview.cspSource,
      scriptUri: this.webview.asWebviewUri(vscode.Uri.joinPath(dist, `${options.bundle}.js`)).toString(),
      styleUri: this.webview.asWebviewUri(vscode.Uri.joinPath(dist, `${options.bundle}.css`)).toString(),
      nonce: createNonce(),
      title: options.title,
    });
    panel.onDidDispose(() => this.dispose(), undefined, this.disposables);
  }

  static create<In extends { type: string }, Out>(options: PanelOptions, messageTypes: readonly string[]): Panel<In, Out> {
    const panel = vscode.window.createWebviewPanel(options.viewType, options.title, vscode.ViewColumn.Active, { enableScripts: true, enableFindWidget: true });
    return new Panel<In, Out>(panel, options, messageTypes);
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Messages from the page whose type is one of `messageTypes` (or starts with one ending in "/"). */
  onMessage(handler: (message: In) => unknown): void {
    this.webview.onDidReceiveMessage(
      (message: unknown) => {
        if (isMessage(message, ...this.messageTypes)) void handler(message as In);
      },
      undefined,
      this.disposables,
    );
  }

  /** Sends a message; false when the page is not there to receive it (hidden, or closed). */
  async post(message: Out): Promise<boolean> {
    if (this.disposed) return false;
    return this.webview.postMessage(message);
  }

  reveal(): void {
    this.panel.reveal();
  }

  onDidDispose(listener: () => void): void {
    this.panel.onDidDispose(listener, undefined, this.disposables);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.panel.dispose();
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}
