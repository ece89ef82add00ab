// Sending a file to a record as its attachment: refused before anything is read when it is over the
// size limit (portal.attachments.maxUploadBytes), then sent with a progress notification whose Cancel
// aborts the request. Used by "Add Attachment…" and by dropping files on a record in the explorer.
import * as vscode from 'vscode';
import { isCancellation } from '../api/errors';
import type { Portals } from '../auth/portals';
import { createLogger } from '../log';
import type { RecordTarget } from '../model/targets';
import { setting, settingId } from '../settings/settings';
import { prompter, tell } from '../ui/prompter';
import { contentTypeOf } from './contentTypes';
import { formatBytes } from './fileNames';

export const MAX_UPLOAD_SETTING = settingId('attachments.maxUploadBytes');

const log = createLogger('attachments');

/**
 * The upload's time limit: a minute, plus the time the file takes at 64 KB/s. The client's per-request
 * limit (30 s) would cut a large file on a slow link short; the notification's Cancel is there for the rest.
 */
export function uploadTimeoutMs(bytes: number): number {
  return Math.round(60_000 + (bytes / (64 * 1024)) * 1000);
}

/** A file to attach: its name, its size as known before reading it, and how to read it. */
export interface UploadSource {
  readonly name: string;
  readonly size: number;
  read(): Promise<Uint8Array>;
}

export function maxUploadBytes(): number {
  return setting('attachments.maxUploadBytes');
}

/** A file of a file system VS Code knows, by its stat: nothing is read yet. */
export async function sourceOfUri(uri: vscode.Uri): Promise<UploadSource> {
  const stat = await vscode.workspace.fs.stat(uri);
  const name = uri.path.split('/').pop() || 'attachment';
  if (stat.type & vscode.FileType.Directory) throw new Error(`${name} is a folder: attach a file.`);
  return { name, size: stat.size, read: async () => vscode.workspace.fs.readFile(uri) };
}

/** Refuses a file over the limit, saying the limit and where it is set. */
export function checkSize(source: UploadSource): void {
  const limit = maxUploadBytes();
  if (source.size <= limit) return;
  throw new Error(
    `${source.name} is ${formatBytes(source.size)}, over the ${formatBytes(limit)} limit for attachments (setting ${MAX_UPLOAD_SETTING}). Nothing was sent.`,
  );
}

/**
 * Sends `source` as the record's attachment. Resolves when the portal took it; a Cancel rejects with a
 * cancellation (silent), any failure with the client's PortalError.
 */
export async function uploadAttachment(portals: Portals, target: RecordTarget, appName: string, source: UploadSource): Promise<void> {
  checkSize(source);
  const content = await source.read();
  // The file may have grown between stat and read.
  checkSize({ ...source, size: content.byteLength });
  const file = { fileName: source.name, contentType: contentTypeOf(source.name), content };
  let sentAll = false;
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Attaching ${source.name} to record ${target.recordId}`, cancellable: true },
    async (progress, token) => {
      const controller = new AbortController();
      const cancel = token.onCancellationRequested(() => controller.abort());
      let reported = 0;
      try {
        await portals.client(target.portalId).addAttachment(
          target.appId,
          target.recordId,
          file,
          {
            timeoutMs: uploadTimeoutMs(content.byteLength),
            onProgress: (sent, total) => {
              sentAll = sent >= total;
              const percent = total > 0 ? (sent / total) * 100 : 100;
              progress.report({
                message: `${formatBytes(Math.min(sent, content.byteLength))} of ${formatBytes(content.byteLength)}`,
                increment: percent - reported,
              });
              reported = percent;
            },
          },
          controller.signal,
        );
      } catch (error) {
        if (isCancellation(error) && sentAll) {
          // Every byte was on its way: the portal may have taken the file before the answer came.
          log.warn(`Attaching ${source.name} to record ${target.recordId} was cancelled after the whole file was sent.`);
          // Not awaited: the upload goes on while the warning is up.
          void prompter().warn(
            `Cancelled after all of ${source.name} was sent: the portal may have kept it. "Download Attachment" shows the record's first attachment.`,
            {},
          );
        }
        throw error;
      } finally {
        cancel.dispose();
      }
    },
  );
  tell('info', `Attached ${source.name} (${formatBytes(content.byteLength)}) to record ${target.recordId} of ${appName}.`);
}
