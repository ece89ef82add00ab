// References, portal:// addresses and the extension's links as links in any text editor and in the
// commit message box (issue 33). A reference opens its record's document; an address opens what it
// addresses; an extension link opens through this window's URI handler (its scheme is this VS Code's,
// whichever it was copied from), which checks what it names.
import * as vscode from 'vscode';
import { OPEN_PATH, RECORD_SCHEME } from '../ids';
import { recordUri } from '../model/recordUri';
import { addressOfLink, findLinks, type FoundLink } from '../references/linksInText';
import { referencePatterns } from './referencePatterns';

/** Where references are looked for: files, new files, and the SCM input box. */
export const REFERENCE_SELECTOR: vscode.DocumentSelector = [{ scheme: 'file' }, { scheme: 'untitled' }, { scheme: 'vscode-scm' }];

function targetOf(link: FoundLink, extensionId: string): vscode.Uri | undefined {
  switch (link.kind) {
    case undefined:
      return recordUri({ portalId: link.pattern.portalId, appId: link.pattern.appId, recordId: link.recordId });
    case 'address': {
      const read = addressOfLink(link);
      return read && vscode.Uri.from({ scheme: RECORD_SCHEME, authority: read.address.portalId, path: read.path });
    }
    case 'extension':
      return vscode.Uri.from({ scheme: vscode.env.uriScheme, authority: extensionId, path: OPEN_PATH, query: link.query });
  }
}

const TOOLTIPS: Record<NonNullable<FoundLink['kind']> | 'reference', string> = {
  reference: 'Open the record',
  address: 'Open in Portal Explorer',
  extension: 'Open the Portal Explorer link',
};

export class ReferenceLinkProvider implements vscode.DocumentLinkProvider {
  constructor(private readonly extensionId: string) {}

  provideDocumentLinks(document: vscode.TextDocument, token: vscode.CancellationToken): vscode.DocumentLink[] {
    const links: vscode.DocumentLink[] = [];
    for (const found of findLinks(document.getText(), referencePatterns(), this.extensionId)) {
      if (token.isCancellationRequested) return [];
      const target = targetOf(found, this.extensionId);
      if (!target) continue;
      const link = new vscode.DocumentLink(new vscode.Range(document.positionAt(found.start), document.positionAt(found.end)), target);
      link.tooltip = TOOLTIPS[found.kind ?? 'reference'];
      links.push(link);
    }
    return links;
  }
}
