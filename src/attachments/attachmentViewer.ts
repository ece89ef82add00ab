// Attachments opened in VS Code instead of saved. Text opens in a read-only editor on the
// `portal-attachment:` scheme (in memory, never on disk, kept while a tab shows it):
// portal-attachment://<portal>/<app_id>/<record_id>/<file name>. Images open in a small panel that shows
// the bytes as a data: URI under a CSP that allows nothing else: VS Code's own image preview cannot read
// an extension's file system in VS Code for the Web (code-server), and a temporary file would reach the disk.
import * as vscode from 'vscode';
import { MemoryFileSystem } from '../fs/memoryFileSystem';
import { shownInTabs } from '../fs/tabs';
import { ATTACHMENT_SCHEME } from '../ids';
import { Disposable } from '../lifecycle';
import type { RecordTarget } from '../model/targets';
import { contentTypeOf } from './contentTypes';
import { imagePage } from './imagePage';

export const IMAGE_VIEW_TYPE = 'portal.attachmentImage';

export class AttachmentViewer extends Disposable {
  /** Text attachments shown: the provider of the portal-attachment: scheme (registered at activation, see extension.ts). */
  readonly files = this._register(new MemoryFileSystem());
  /** Put, and its tab not opened yet: not forgotten meanwhile. */
  private readonly opening = new Set<string>();
  private readonly panels = new Set<vscode.WebviewPanel>();

  constructor() {
    super();
    this._register(
      vscode.window.tabGroups.onDidChangeTabs((event) => {
        if (event.closed.length > 0) this.forgetUnshown();
      }),
    );
  }

  /** Shows a text attachment in a read-only editor; resolves with its URI. */
  async openText(target: RecordTarget, fileName: string, content: Uint8Array): Promise<vscode.Uri> {
    const uri = vscode.Uri.from({
      scheme: ATTACHMENT_SCHEME,
      authority: target.portalId,
      path: `/${target.appId}/${target.recordId}/${fileName}`,
    });
    this.files.put(uri, content);
    this.opening.add(uri.toString());
    try {
      await vscode.window.showTextDocument(uri, { preview: false });
    } finally {
      this.opening.delete(uri.toString());
    }
    return uri;
  }

  /** Shows an image attachment in a panel titled with its file name. */
  openImage(fileName: string, contentType: string | undefined, content: Uint8Array): vscode.WebviewPanel {
    const type = /^image\/[a-z0-9.+-]+$/i.test(contentType ?? '') ? (contentType as string) : contentTypeOf(fileName);
    const panel = vscode.window.createWebviewPanel(IMAGE_VIEW_TYPE, fileName, vscode.ViewColumn.Active, {
      enableScripts: false,
      localResourceRoots: [],
    });
    panel.webview.html = imagePage({
      fileName,
      dataUri: `data:${type};base64,${Buffer.from(content).toString('base64')}`,
      size: content.byteLength,
    });
    this.panels.add(panel);
    panel.onDidDispose(() => this.panels.delete(panel));
    return panel;
  }

  override dispose(): void {
    for (const panel of this.panels) panel.dispose();
    super.dispose();
  }

  private forgetUnshown(): void {
    const shown = shownInTabs();
    for (const uri of this.files.list()) if (!shown.has(uri.toString()) && !this.opening.has(uri.toString())) this.files.remove(uri);
  }
}
