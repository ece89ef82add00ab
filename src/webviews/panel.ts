// What both panels share on the host side: a WebviewPanel with scripts on, resources only from dist/webview
// and media, the page of html.ts, and typed messages both ways: what the page sends is checked against the
// panel's schema and handled inside the error boundary (messages.ts).
import * as vscode from 'vscode';
import type { IMPORT_VIEW_TYPE, PANEL_VIEW_TYPES } from '../ids';
import type { MessageSchema } from '../shared/panelMessages';
import { runReported } from '../ui/errorBoundary';
import { createNonce, panelHtml } from './html';
import { messageReceiver } from './messages';

export interface PanelOptions {
  /** The restorable panels' types, or the import mapping's (not restored: its file and run are gone). */
  viewType: (typeof PANEL_VIEW_TYPES)[keyof typeof PANEL_VIEW_TYPES] | typeof IMPORT_VIEW_TYPE;
  title: string;
  /** The bundle's name under dist/webview (recordForm, viewQuery, importRecords). */
  bundle: string;
  extensionUri: vscode.Uri;
}

export class Panel<In, Out> implements vscode.Disposable {
  readonly webview: vscode.Webview;
  private readonly disposables: vscode.Disposable[] = [];
  /** Called when the panel closes, before what it holds is disposed (see onDidDispose). */
  private readonly disposeListeners: Array<() => void> = [];
  private disposed = false;

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly options: PanelOptions,
    private readonly schema: MessageSchema<In>,
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
    panel.onDidDispose(
      () => {
        for (const listener of this.disposeListeners.splice(0)) listener();
        this.dispose();
      },
      undefined,
      this.disposables,
    );
  }

  /** A new panel, or `restored`: the one VS Code brought back after a reload (panelRestore.ts). */
  static create<In, Out>(options: PanelOptions, schema: MessageSchema<In>, restored?: vscode.WebviewPanel): Panel<In, Out> {
    const panel = restored ?? vscode.window.createWebviewPanel(options.viewType, options.title, vscode.ViewColumn.Active, { enableScripts: true, enableFindWidget: true });
    if (restored) restored.title = options.title;
    return new Panel<In, Out>(panel, options, schema);
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** The page's messages, once checked against the panel's schema; a failure is reported, not thrown. */
  onMessage(handler: (message: In) => unknown): void {
    this.webview.onDidReceiveMessage(messageReceiver(this.options.viewType, this.schema, handler, runReported), undefined, this.disposables);
  }

  /** Sends a message; false when the page is not there to receive it (hidden, or closed). */
  async post(message: Out): Promise<boolean> {
    if (this.disposed) return false;
    return this.webview.postMessage(message);
  }

  reveal(): void {
    this.panel.reveal();
  }

  /**
   * `listener` runs when the panel closes. Kept here rather than added to the WebviewPanel's own event: the
   * first listener of that event disposes the others (this.disposables), and VS Code skips a listener
   * removed while its event fires, so a second one never ran (a closed Query View kept its rows).
   */
  onDidDispose(listener: () => void): void {
    this.disposeListeners.push(listener);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.panel.dispose();
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}
