// What commands receive from tree items, the palette and other commands. Tree elements for apps, views and
// records carry these fields themselves, so a context-menu command can pass its argument straight here.
// The parsing is pure (targetParsing.ts); this module adds the record document's vscode.Uri.
import * as vscode from 'vscode';
import { RECORD_SCHEME, recordPath, type RecordTarget } from './targetParsing';

export type { AppTarget, PortalTarget, RecordTarget, ViewTarget } from './targetParsing';
export { appTargetOf, portalTargetOf, RECORD_SCHEME, recordTargetOf, sameRecord, viewTargetOf } from './targetParsing';

/** portal://<portalId>/<appId>/<recordId>.json: the record's document. */
export function recordUri(target: RecordTarget): vscode.Uri {
  return vscode.Uri.from({ scheme: RECORD_SCHEME, authority: target.portalId, path: recordPath(target) });
}
