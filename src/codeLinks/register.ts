// Records where the code is (issue 33): what the features register for references in any text editor.
import * as vscode from 'vscode';
import { registerCompletion, type CompletionParts } from './completion';
import { ReferenceHoverProvider, type HoverParts } from './hover';
import { REFERENCE_SELECTOR, ReferenceLinkProvider } from './links';
import { onDidChangeReferencePatterns } from './referencePatterns';

export interface CodeLinkParts extends HoverParts, CompletionParts {
  readonly extensionId: string;
}

/**
 * The link provider, registered anew whenever the reference patterns change: VS Code asks an editor's
 * links again only when its text or the providers change, so a pattern that arrives later (the team file
 * read or pulled, the setting changed) would otherwise leave the editors on screen without their links.
 */
function registerLinks(extensionId: string): vscode.Disposable {
  const provider = new ReferenceLinkProvider(extensionId);
  let registration = vscode.languages.registerDocumentLinkProvider(REFERENCE_SELECTOR, provider);
  const changes = onDidChangeReferencePatterns(() => {
    registration.dispose();
    registration = vscode.languages.registerDocumentLinkProvider(REFERENCE_SELECTOR, provider);
  });
  return { dispose: () => vscode.Disposable.from(changes, registration).dispose() };
}

export function registerCodeLinks(parts: CodeLinkParts): vscode.Disposable {
  return vscode.Disposable.from(
    registerLinks(parts.extensionId),
    vscode.languages.registerHoverProvider(REFERENCE_SELECTOR, new ReferenceHoverProvider(parts)),
    registerCompletion(parts),
  );
}
