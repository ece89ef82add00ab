// The vscode.Uri side of the record address (recordAddress.ts builds and parses the path).
import * as vscode from 'vscode';
import { newRecordPath, parseAddress, RECORD_SCHEME, recordKey, recordOfUri, recordPath, schemaPath } from './recordAddress';
import type { AppTarget, RecordTarget } from './targets';

/** portal://<portalId>/<appId>/<recordId>.json: the record's document. */
export function recordUri(target: RecordTarget): vscode.Uri {
  return vscode.Uri.from({ scheme: RECORD_SCHEME, authority: target.portalId, path: recordPath(target) });
}

export function schemaUri(app: AppTarget): vscode.Uri {
  return vscode.Uri.from({ scheme: RECORD_SCHEME, authority: app.portalId, path: schemaPath(app.appId) });
}

export function newRecordUri(app: AppTarget, n: number): vscode.Uri {
  return vscode.Uri.from({ scheme: RECORD_SCHEME, authority: app.portalId, path: newRecordPath(app.appId, n) });
}

/** The same record's document, whatever each address's decoration. */
export function isSameRecord(uri: vscode.Uri, target: RecordTarget): boolean {
  const record = recordOfUri(uri);
  return record !== undefined && recordKey(record) === recordKey(target);
}

export { parseAddress, RECORD_SCHEME, recordOfUri };
