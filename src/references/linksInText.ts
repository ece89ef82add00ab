// Everything in a text that links to the portal (issue 33, issue 32's "links in files"): each app's
// references, `portal://` addresses of records and views, and the extension's own links
// (<scheme>://portal-labs.portal-explorer/open?…, whatever VS Code's scheme was where it was copied).
// One pass per kind over the text: links are computed again on each change of a document. Pure (no `vscode`).
import { parseAddress, uriOfText, type DocumentAddress } from '../model/recordAddress';
import { OPEN_PATH } from '../ids';
import { findReferences, type FoundReference, type ReferencePattern } from './patterns';

/** A reference is as findReferences gives it (no copy: a heavy file has tens of thousands). */
export type FoundLink =
  | (FoundReference & { readonly kind?: undefined })
  /** Its `uri` (decoded as vscode.Uri keeps it) addresses a record, a view or a schema: addressOfLink reads it. */
  | { readonly kind: 'address'; readonly start: number; readonly end: number; readonly text: string }
  | { readonly kind: 'extension'; readonly start: number; readonly end: number; readonly query: string };

/**
 * Where an address stops: space, quotes, brackets; trailing punctuation is the sentence's. The scan takes
 * what has a portal, an app and more; what it addresses is read when the link is followed.
 */
const ADDRESS = /portal:\/\/[^\s"'`<>()[\]{}/]+\/[^\s"'`<>()[\]{}/]+\/[^\s"'`<>()[\]{}]+/g;
const TRAILING = /[.,;:!?]+$/;

/** A URI scheme's characters, walked back from "://". */
const SCHEME_CHAR = /[A-Za-z0-9+.-]/;
const LINK_TAIL = /[^\s"'`<>()[\]{}]*/y;

/** Extension links by what they all hold, "://<extension id>/open?", then their scheme before it. */
function extensionLinks(text: string, extensionId: string): FoundLink[] {
  const marker = `://${extensionId}${OPEN_PATH}?`;
  const found: FoundLink[] = [];
  for (let at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + marker.length)) {
    let start = at;
    while (start > 0 && SCHEME_CHAR.test(text[start - 1])) start--;
    if (start === at || !/[A-Za-z]/.test(text[start])) continue;
    LINK_TAIL.lastIndex = at + marker.length;
    const end = LINK_TAIL.lastIndex + (LINK_TAIL.exec(text)?.[0].length ?? 0);
    const written = text.slice(start, end).replace(TRAILING, '');
    const query = written.slice(at - start + marker.length);
    if (query !== '') found.push({ kind: 'extension', start, end: start + written.length, query });
  }
  return found;
}

function matches(expression: RegExp, text: string): RegExpExecArray[] {
  const found: RegExpExecArray[] = [];
  expression.lastIndex = 0;
  for (let match = expression.exec(text); match !== null; match = expression.exec(text)) found.push(match);
  return found;
}

/** The links of `text`: its references in order, then its addresses and extension links; none inside another. */
export function findLinks(text: string, patterns: readonly ReferencePattern[], extensionId: string): FoundLink[] {
  const references: FoundLink[] = findReferences(text, patterns);
  // Most texts have neither: a cheap look first.
  const others = extensionLinks(text, extensionId);
  // Most texts have none: a cheap look first. exec, not matchAll: matchAll copies the expression, which V8
  // would compile again.
  if (text.includes('portal://'))
    for (const match of matches(ADDRESS, text)) {
      const written = match[0].replace(TRAILING, '');
      others.push({ kind: 'address', start: match.index, end: match.index + written.length, text: written });
    }
  if (others.length === 0) return references;
  // A reference inside an address or link (its record's id after a `#`) is part of that link. The
  // references are in order: a binary search per address finds those inside it.
  const inside = new Set<number>();
  for (const other of others) {
    let low = 0;
    let high = references.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (references[middle].end <= other.start) low = middle + 1;
      else high = middle;
    }
    for (let index = low; index < references.length && references[index].start < other.end; index++) inside.add(index);
  }
  return [...(inside.size === 0 ? references : references.filter((_reference, index) => !inside.has(index))), ...others];
}

/** What an address link addresses, with its path as written (decoded: its names too); undefined for nothing. */
export function addressOfLink(link: { readonly text: string }): { readonly address: DocumentAddress; readonly path: string } | undefined {
  const uri = uriOfText(link.text);
  const address = uri && parseAddress(uri);
  return uri && address && address.kind !== 'directory' ? { address, path: uri.path } : undefined;
}
