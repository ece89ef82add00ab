// Comments are written in an editor: the portal takes multi-line text and VS Code's input box has one
// line. A comment is a small document of its own, `portal-comment://<portal>/<app_id>/<record_id>/Comment
// on record N of App`, kept in memory for the session: Ctrl+S keeps the draft (closing the editor asks, as
// for any file), "Send Comment" (editor title, CodeLens, Ctrl+Enter) sends it, and only a comment the
// portal took is thrown away. A refused comment stays in its editor.
import * as vscode from 'vscode';
import { closeDocument } from '../fs/closeDocument';
import { MemoryFileSystem } from '../fs/memoryFileSystem';
import { COMMENT_COMMANDS, COMMENT_SCHEME } from '../ids';
import { Disposable } from '../lifecycle';
import { recordTargetOf, type RecordTarget } from '../model/targets';

/** The record a comment draft is about: portal-comment://<portalId>/<appId>/<recordId>/<title>. */
export function commentTargetOf(uri: vscode.Uri): RecordTarget | undefined {
  if (uri.scheme !== COMMENT_SCHEME) return undefined;
  const [appId, recordId] = uri.path.split('/').filter((segment) => segment !== '');
  return recordTargetOf({ portalId: uri.authority, appId, recordId });
}

export class CommentDrafts extends Disposable {
  /** The drafts: the provider of the portal-comment: scheme (registered at activation, see extension.ts). */
  readonly files = this._register(new MemoryFileSystem());

  constructor() {
    super();
    this._register(
      vscode.languages.registerCodeLensProvider({ scheme: COMMENT_SCHEME }, { provideCodeLenses: (document) => this.codeLenses(document) }),
    );
  }

  /** The draft's URI for a record; `appName` names the app in the editor's title. */
  uriOf(target: RecordTarget, appName: string): vscode.Uri {
    const existing = this.files.list().find((uri) => {
      const known = commentTargetOf(uri);
      return (
        known !== undefined && known.portalId === target.portalId && known.appId === target.appId && known.recordId === target.recordId
      );
    });
    if (existing) return existing;
    const title = `Comment on record ${target.recordId} of ${appName.replace(/[/\\]/g, '-')}`;
    return vscode.Uri.from({ scheme: COMMENT_SCHEME, authority: target.portalId, path: `/${target.appId}/${target.recordId}/${title}` });
  }

  /** Opens the record's draft (the one kept, or a new empty one) in an editor. */
  async open(target: RecordTarget, appName: string): Promise<vscode.Uri> {
    const uri = this.uriOf(target, appName);
    if (!this.files.has(uri)) this.files.put(uri, new Uint8Array());
    await vscode.window.showTextDocument(uri, { preview: false });
    return uri;
  }

  /** The draft's text as the editor has it (unsaved changes included), or as kept. */
  text(uri: vscode.Uri): string | undefined {
    const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === uri.toString());
    if (document) return document.getText();
    const kept = this.files.peek(uri);
    return kept === undefined ? undefined : new TextDecoder().decode(kept);
  }

  /** After the portal took it: the editor closes without asking, and the draft is gone. */
  async discard(uri: vscode.Uri): Promise<void> {
    await closeDocument(uri);
    this.files.remove(uri);
  }

  private codeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const target = commentTargetOf(document.uri);
    if (!target) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    return [
      new vscode.CodeLens(top, {
        title: `$(send) Send Comment to record ${target.recordId}`,
        command: COMMENT_COMMANDS.send,
        arguments: [document.uri],
      }),
    ];
  }
}
