// The record actions beside the documents: comments and attachments, with the parts they keep (the
// comment drafts, the attachments shown in editors). Publish and delete are record document commands
// (records.ts).
import * as vscode from 'vscode';
import { AttachmentViewer } from '../attachments/attachmentViewer';
import { CommentDrafts } from '../comments/commentDrafts';
import { registerAttachmentCommands } from './attachments';
import { registerCommentCommands } from './comments';
import type { RecordPickerParts } from './pickers';

export function registerRecordActions(parts: RecordPickerParts): vscode.Disposable {
  const drafts = new CommentDrafts();
  const viewer = new AttachmentViewer();
  return vscode.Disposable.from(drafts, viewer, registerCommentCommands({ ...parts, drafts }), registerAttachmentCommands({ ...parts, viewer }));
}
