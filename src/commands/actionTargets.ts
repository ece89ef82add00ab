// Which record a record action (comment, attachment) is about: the one it was given (a tree item, a
// record URI, {portalId, appId, recordId}), else the record of the active editor (its document or its
// comment draft), else one picked from the records of the view last viewed (or an id typed in).
import * as vscode from 'vscode';
import { cancelled } from '../auth/signInUi';
import type { AppInfo, Catalog } from '../catalog/catalog';
import { commentTargetOf } from '../comments/commentDrafts';
import { parseDocumentPath } from '../fs/documentPaths';
import { pickRecord, type RecordPickerParts } from './pickers';
import { RECORD_SCHEME, recordTargetOf, type RecordTarget } from './targets';

/** The record of the active editor: a record document or a comment draft on a record. */
export function activeRecordTarget(): RecordTarget | undefined {
  const uri = vscode.window.activeTextEditor?.document.uri;
  if (!uri) return undefined;
  if (uri.scheme === RECORD_SCHEME) return parseDocumentPath(uri.path)?.kind === 'record' ? recordTargetOf(uri) : undefined;
  return commentTargetOf(uri);
}

/** The record for an action titled `title` (e.g. "Add Comment"); a cancelled pick is a silent cancel. */
export async function recordForAction(parts: RecordPickerParts, arg: unknown, title: string): Promise<RecordTarget> {
  const target = recordTargetOf(arg) ?? (arg instanceof vscode.Uri ? commentTargetOf(arg) : undefined) ?? activeRecordTarget() ?? (await pickRecord(parts, { title }));
  if (!target) throw cancelled(title);
  return target;
}

/** What the catalog knows of the record's app; undefined when it cannot say (not loaded, offline). */
export async function appInfoOf(catalog: Catalog, target: RecordTarget): Promise<AppInfo | undefined> {
  try {
    return await catalog.app(target.portalId, target.appId);
  } catch {
    return undefined;
  }
}

/** "Customers", or "app 101" when the catalog cannot say. */
export function appNameOf(info: AppInfo | undefined, target: RecordTarget): string {
  return info?.name ?? `app ${target.appId}`;
}
