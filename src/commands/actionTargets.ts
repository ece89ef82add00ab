// Which record a record action (comment, attachment) is about: the one it was given (a tree item, a
// record URI, {portalId, appId, recordId}), else the record of the active editor (its document or its
// comment draft), else one picked from the records of the view last viewed (or an id typed in).
import { RECORD_SCHEME } from '../ids';
import { cancelled } from '../api/errors';
import * as vscode from 'vscode';
import { commentTargetOf } from '../comments/commentDrafts';
import { recordOfUri } from '../model/recordAddress';
import { recordTargetOf, type RecordTarget } from '../model/targets';
import { pickRecord, type RecordPickerParts } from './pickers';

/** The record of the active editor: a record document or a comment draft on a record. */
export function activeRecordTarget(): RecordTarget | undefined {
  const uri = vscode.window.activeTextEditor?.document.uri;
  if (!uri) return undefined;
  if (uri.scheme === RECORD_SCHEME) return recordOfUri(uri);
  return commentTargetOf(uri);
}

/** The record for an action titled `title` (e.g. "Add Comment"); a cancelled pick is a silent cancel. */
export async function recordForAction(parts: RecordPickerParts, arg: unknown, title: string): Promise<RecordTarget> {
  const target =
    recordTargetOf(arg) ??
    (arg instanceof vscode.Uri ? commentTargetOf(arg) : undefined) ??
    activeRecordTarget() ??
    (await pickRecord(parts, { title }));
  if (!target) throw cancelled(title);
  return target;
}
