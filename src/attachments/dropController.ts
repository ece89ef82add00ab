// Files dropped on a record in the Portal explorer become its attachments, after a confirmation (a drop
// is easily made by accident, and the portal has no way to remove an attachment). Files come as URIs
// (from VS Code's explorer, text/uri-list) or as the files of the operating system's drag ('files').
// Each is sent as "Add Attachment…" sends it: size limit first, progress with Cancel.
import * as vscode from 'vscode';
import { appInfoOf, appNameOf } from '../catalog/appNames';
import type { Stores } from '../catalog/stores';
import { COMMANDS } from '../ids';
import { EXPLORER_DROP_TYPES } from '../ids';
import { recordTargetOf } from '../model/targets';
import type { ExplorerNode } from '../tree/nodes';
import { runReported } from '../ui/errorBoundary';
import { prompter } from '../ui/prompter';
import { sourceOfUri, uploadAttachment, type UploadSource } from './upload';

const URI_LIST = EXPLORER_DROP_TYPES.uriList;
const FILES = EXPLORER_DROP_TYPES.files;
export const ATTACH_ACTION = 'Attach';

export type AttachmentDropParts = Pick<Stores, 'portals' | 'catalog'>;

/** The URIs of a text/uri-list (RFC 2483: one per line, "#" lines are comments). */
function urisOf(list: string): vscode.Uri[] {
  return list
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => vscode.Uri.parse(line, true));
}

/** What was dropped, as sources to upload. */
async function sourcesOf(dataTransfer: vscode.DataTransfer): Promise<UploadSource[]> {
  const list = await dataTransfer.get(URI_LIST)?.asString();
  if (list) return Promise.all(urisOf(list).map(sourceOfUri));
  const sources: UploadSource[] = [];
  const files: vscode.DataTransferFile[] = [];
  dataTransfer.forEach((item) => {
    const file = item.asFile();
    if (file) files.push(file);
  });
  for (const file of files) {
    if (file.uri) {
      sources.push(await sourceOfUri(file.uri));
    } else {
      // A file of the operating system's drag without a path VS Code can read: its bytes come with it.
      const content = await file.data();
      sources.push({ name: file.name, size: content.byteLength, read: async () => content });
    }
  }
  return sources;
}

export class AttachmentDropController implements vscode.TreeDragAndDropController<ExplorerNode> {
  readonly dropMimeTypes: readonly string[] = [FILES, URI_LIST];
  readonly dragMimeTypes: readonly string[] = [];

  constructor(private readonly parts: AttachmentDropParts) {}

  async handleDrop(target: ExplorerNode | undefined, dataTransfer: vscode.DataTransfer, token: vscode.CancellationToken): Promise<void> {
    const record = target?.kind === 'record' ? recordTargetOf(target) : undefined;
    if (!record) return;
    await runReported(COMMANDS.attachment.add, async () => {
      const sources = await sourcesOf(dataTransfer);
      if (sources.length === 0 || token.isCancellationRequested) return;
      const appName = appNameOf(await appInfoOf(this.parts.catalog, record), record);
      const names = sources.map((source) => source.name).join(', ');
      const answer = await prompter().warn(
        `Attach ${sources.length === 1 ? names : `${sources.length} files (${names})`} to record ${record.recordId} of ${appName}? The portal has no way to remove an attachment.`,
        { modal: true },
        ATTACH_ACTION,
      );
      if (answer !== ATTACH_ACTION) return;
      for (const source of sources) await uploadAttachment(this.parts.portals, record, appName, source);
    });
  }
}
