// Attachments of records: "Add Attachment…" sends a file chosen in the open dialog; "Download
// Attachment…" fetches the record's first attachment (the only one the portal hands out) and saves it,
// or shows a text or image attachment in an editor.
import * as os from 'node:os';
import * as vscode from 'vscode';
import { cancelled, isPortalError } from '../api/errors';
import type { AttachmentViewer } from '../attachments/attachmentViewer';
import { viewerOf } from '../attachments/contentTypes';
import { formatBytes, safeFileName } from '../attachments/fileNames';
import { sourceOfUri, uploadAttachment } from '../attachments/upload';
import { appInfoOf, appNameOf } from '../catalog/appNames';
import { ATTACHMENT_COMMANDS } from '../ids';
import type { RecordTarget } from '../model/targets';
import { prompter, tell } from '../ui/prompter';
import { recordForAction } from './actionTargets';
import type { RecordPickerParts } from './pickers';
import type { CommandTable } from './register';

/** The size is not known before the download: ten minutes, with Cancel on the notification. */
const DOWNLOAD_TIMEOUT_MS = 10 * 60_000;

export const OPEN_IN_EDITOR = 'Open in Editor';
export const SAVE_AS = 'Save As…';

export type AttachmentCommandParts = RecordPickerParts & { readonly viewer: AttachmentViewer };

function defaultFolder(): vscode.Uri {
  return vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(os.homedir());
}

/** Resolves with the file's URI once attached. */
async function addAttachment(parts: AttachmentCommandParts, arg: unknown): Promise<string> {
  const target = await recordForAction(parts, arg, 'Add Attachment');
  const picked = await prompter().openDialog({
    title: `Attach a file to record ${target.recordId}`,
    openLabel: 'Attach',
    canSelectFiles: true,
    canSelectFolders: false,
    canSelectMany: false,
    defaultUri: defaultFolder(),
  });
  const file = picked?.[0];
  if (!file) throw cancelled('Adding an attachment');
  const appName = appNameOf(await appInfoOf(parts.catalog, target), target);
  await uploadAttachment(parts.portals, target, appName, await sourceOfUri(file));
  return file.toString();
}

async function download(
  parts: AttachmentCommandParts,
  target: RecordTarget,
): Promise<{ fileName: string | undefined; contentType: string | undefined; content: Uint8Array } | undefined> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Downloading the attachment of record ${target.recordId}`, cancellable: true },
    async (_progress, token) => {
      const controller = new AbortController();
      const cancel = token.onCancellationRequested(() => controller.abort());
      try {
        return await parts.portals
          .client(target.portalId)
          .downloadAttachment(target.appId, target.recordId, controller.signal, { timeoutMs: DOWNLOAD_TIMEOUT_MS });
      } catch (error) {
        if (isPortalError(error) && error.code === 'no_attachment') return undefined;
        throw error;
      } finally {
        cancel.dispose();
      }
    },
  );
}

/** Resolves with the URI written, or of the text opened; undefined for an image shown or no attachment. */
async function downloadAttachment(parts: AttachmentCommandParts, arg: unknown): Promise<string | undefined> {
  const target = await recordForAction(parts, arg, 'Download Attachment');
  const attachment = await download(parts, target);
  if (!attachment) {
    tell('info', `Record ${target.recordId} has no attachment.`);
    return undefined;
  }
  const fileName = safeFileName(attachment.fileName, `record-${target.recordId}-attachment`);
  const size = formatBytes(attachment.content.byteLength);
  const viewer = viewerOf(attachment.contentType, fileName);
  if (viewer) {
    const choice = await prompter().quickPick(
      [
        { label: OPEN_IN_EDITOR, detail: viewer === 'image' ? 'Show the image in VS Code.' : 'Show the text in a read-only editor.' },
        { label: SAVE_AS, detail: 'Save the file to disk.' },
      ],
      { title: `${fileName} (${size}), the attachment of record ${target.recordId}`, placeHolder: 'Open it in VS Code or save it?' },
    );
    if (!choice) throw cancelled('Downloading an attachment');
    if (choice.label === OPEN_IN_EDITOR) {
      if (viewer === 'text') return (await parts.viewer.openText(target, fileName, attachment.content)).toString();
      parts.viewer.openImage(fileName, attachment.contentType, attachment.content);
      return undefined;
    }
  }
  const destination = await prompter().saveDialog({
    title: `Save the attachment of record ${target.recordId}`,
    saveLabel: 'Save Attachment',
    defaultUri: vscode.Uri.joinPath(defaultFolder(), fileName),
  });
  if (!destination) throw cancelled('Downloading an attachment');
  await vscode.workspace.fs.writeFile(destination, attachment.content);
  tell(
    'info',
    `Saved ${fileName} (${size}), the attachment of record ${target.recordId}, to ${vscode.workspace.asRelativePath(destination)}.`,
  );
  return destination.toString();
}

export function attachmentCommands(parts: AttachmentCommandParts): CommandTable {
  return {
    [ATTACHMENT_COMMANDS.add]: (arg) => addAttachment(parts, arg),
    [ATTACHMENT_COMMANDS.download]: (arg) => downloadAttachment(parts, arg),
  };
}
