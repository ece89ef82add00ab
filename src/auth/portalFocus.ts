// The portal the user works on: that of the record (comment, attachment) in the active editor or of the
// item selected in the Portal view, whichever came last. The status bar names it rather than the active
// portal while they differ; switching portal (the active one changes) starts again from the active one.
import * as vscode from 'vscode';
import { Disposable } from '../lifecycle';

export class PortalFocus extends Disposable {
  private current: string | undefined;
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;

  /** `schemes`: the URI schemes of the extension's documents, whose authority is the portal's id. */
  constructor(private readonly schemes: readonly string[]) {
    super();
    this.current = this.portalOf(vscode.window.activeTextEditor?.document.uri);
    this._register(
      vscode.window.onDidChangeActiveTextEditor((editor) => {
        const id = this.portalOf(editor?.document.uri);
        if (id) this.set(id);
      }),
    );
  }

  /** Follows the selection of a tree whose items name their portal. */
  follow(view: vscode.TreeView<{ readonly portalId?: string }>): vscode.Disposable {
    return view.onDidChangeSelection((event) => {
      const id = event.selection[0]?.portalId;
      if (id) this.set(id);
    });
  }

  portalId(): string | undefined {
    return this.current;
  }

  clear(): void {
    this.set(undefined);
  }

  private portalOf(uri: vscode.Uri | undefined): string | undefined {
    return uri && this.schemes.includes(uri.scheme) && uri.authority ? uri.authority : undefined;
  }

  private set(id: string | undefined): void {
    if (id === this.current) return;
    this.current = id;
    this.changed.fire();
  }
}
