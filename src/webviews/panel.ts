// What the three panels (record form, Query View, import mapping) share on the host side: a WebviewPanel with scripts on, resources only from dist/webview
// and media, the page of html.ts, and typed messages both ways: what the page sends is checked against the
// panel's schema and handled inside the error boundary (messages.ts).
import * as vscode from 'vscode';
import type { IMPORT_VIEW_TYPE, PANEL_VIEW_TYPES } from '../ids';
import type { MessageSchema } from '../shared/panelMessages';
import { Disposable } from '../lifecycle';
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

export class Panel<In, Out> extends Disposable {
  readonly webview: vscode.Webview;
  /**
   * The owners' clean-up when the panel closes. Not VS Code's own onDidDispose: a listener let go while
   * that event is delivered is skipped, and this panel lets go of its listeners when it closes.
   */
  private readonly closed = this._register(new vscode.EventEmitter<void>());
  private closing = false;

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly options: PanelOptions,
    private readonly schema: MessageSchema<In>,
  ) {
    super();
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
    this._register(panel.onDidDispose(() => this.dispose()));
  }

  /** A new panel, or `restored`: the one VS Code brought back after a reload (panelRestore.ts). */
  static create<In, Out>(options: PanelOptions, schema: MessageSchema<In>, restored?: vscode.WebviewPanel): Panel<In, Out> {
    const panel =
      restored ??
      vscode.window.createWebviewPanel(options.viewType, options.title, vscode.ViewColumn.Active, {
        enableScripts: true,
        enableFindWidget: true,
      });
    if (restored) restored.title = options.title;
    return new Panel<In, Out>(panel, options, schema);
  }

  override get isDisposed(): boolean {
    return this.closing;
  }

  /** The page's messages, once checked against the panel's schema; a failure is reported, not thrown. */
  onMessage(handler: (message: In) => unknown): void {
    this._register(this.webview.onDidReceiveMessage(messageReceiver(this.options.viewType, this.schema, handler, runReported)));
  }

  /** Sends a message; false when the page is not there to receive it (hidden, or closed). */
  async post(message: Out): Promise<boolean> {
    if (this.isDisposed) return false;
    return this.webview.postMessage(message);
  }

  reveal(): void {
    this.panel.reveal();
  }

  /** Runs when the panel closes (the user closed it, or dispose()), before its listeners are let go. */
  onDidDispose(listener: () => void): void {
    this._register(this.closed.event(listener));
  }

  override dispose(): void {
    if (this.closing) return;
    this.closing = true;
    this.panel.dispose(); // when the user closed it, VS Code's panel is disposed already
    this.closed.fire();
    super.dispose();
  }
}
