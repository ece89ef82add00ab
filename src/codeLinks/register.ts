// Records where the code is (issue 33): what the features register for references in any text editor.
import * as vscode from 'vscode';
import { registerCompletion, type CompletionParts } from './completion';
import { ReferenceHoverProvider, type HoverParts } from './hover';
import { REFERENCE_SELECTOR, ReferenceLinkProvider } from './links';

export interface CodeLinkParts extends HoverParts, CompletionParts {
  readonly extensionId: string;
}

export function registerCodeLinks(parts: CodeLinkParts): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.languages.registerDocumentLinkProvider(REFERENCE_SELECTOR, new ReferenceLinkProvider(parts.extensionId)),
    vscode.languages.registerHoverProvider(REFERENCE_SELECTOR, new ReferenceHoverProvider(parts)),
    registerCompletion(parts),
  );
}
