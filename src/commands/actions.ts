// The record actions beside the documents: comments and attachments, with the parts they keep (the
// comment drafts, the attachments shown in editors). Publish and delete are record document commands
// (records.ts).
import * as vscode from 'vscode';
import { AttachmentViewer } from '../attachments/attachmentViewer';
import { CommentDrafts } from '../comments/commentDrafts';
import { attachmentCommands } from './attachments';
import { commentCommands } from './comments';
import type { RecordPickerParts } from './pickers';
import type { CommandTable } from './register';

export interface RecordActions {
  readonly commands: CommandTable;
  /** The file systems of the portal-comment: and portal-attachment: schemes. */
  readonly commentFiles: vscode.FileSystemProvider;
  readonly attachmentFiles: vscode.FileSystemProvider;
  readonly disposable: vscode.Disposable;
}

export function recordActions(parts: RecordPickerParts): RecordActions {
  const drafts = new CommentDrafts();
  const viewer = new AttachmentViewer();
  return {
    commands: { ...commentCommands({ ...parts, drafts }), ...attachmentCommands({ ...parts, viewer }) },
    commentFiles: drafts.files,
    attachmentFiles: viewer.files,
    disposable: vscode.Disposable.from(drafts, viewer),
  };
}
