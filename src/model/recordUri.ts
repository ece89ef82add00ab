// The vscode.Uri side of the record address (recordAddress.ts builds and parses the path).
import { RECORD_SCHEME } from '../ids';
import * as vscode from 'vscode';
import {
  parseAddress,
  recordKey,
  recordOfUri,
  recordPath,
  schemaPath,
  viewGridPath,
  type RecordNames,
  type ViewNames,
} from './recordAddress';
import type { AppTarget, RecordTarget, ViewTarget } from './targets';

/** The record's document: named for its tab when its title is known (recordAddress.ts). */
export function recordUri(target: RecordTarget, names?: RecordNames): vscode.Uri {
  return vscode.Uri.from({ scheme: RECORD_SCHEME, authority: target.portalId, path: recordPath(target, names) });
}

/** The view's grid (the custom editor portal.grid), named for its tab by the view and app. */
export function viewGridUri(target: ViewTarget, names: ViewNames = {}): vscode.Uri {
  return vscode.Uri.from({
    scheme: RECORD_SCHEME,
    authority: target.portalId,
    path: viewGridPath(target, { viewName: names.viewName ?? target.viewName, appName: names.appName }),
  });
}

export function schemaUri(app: AppTarget): vscode.Uri {
  return vscode.Uri.from({ scheme: RECORD_SCHEME, authority: app.portalId, path: schemaPath(app.appId) });
}

/** The same record's document, whatever each address's decoration. */
export function isSameRecord(uri: vscode.Uri, target: RecordTarget): boolean {
  const record = recordOfUri(uri);
  return record !== undefined && recordKey(record) === recordKey(target);
}

/** The address of the record's document VS Code has open already (under any name), if any. */
export function openRecordUri(target: RecordTarget): vscode.Uri | undefined {
  return vscode.workspace.textDocuments.find((document) => isSameRecord(document.uri, target))?.uri;
}

export { parseAddress, RECORD_SCHEME, recordOfUri };
