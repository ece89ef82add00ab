// What the record-action suites share: the emulator's copy of a record with its comments and attachments,
// files in the workspace, the portal's data requests of an action, and a setting changed for one test.
import { deflateSync } from 'node:zlib';
import * as vscode from 'vscode';
import type { ExplorerNode } from '../../../src/tree/nodes';
import type { StoredAttachment, StoredComment } from '../../emulator/model';
import { emulatorControl } from '../support/emulator';
import { driver } from '../support/driver';
import { children, path } from '../support/explorer';
import { testApi } from '../support/extension';
import { waitFor } from '../support/wait';
import { workspaceRoot } from '../support/workspace';

/** As GET /_emulator/records/:app_id/:record_id shows them. */
export type ShownComment = Omit<StoredComment, 'text'> & { comment: string };
export type ShownAttachment = Omit<StoredAttachment, 'bytes'>;

export interface StoredRecord {
  comments: ShownComment[];
  attachments: ShownAttachment[];
}

export function storedRecord(appId: string, recordId: string): Promise<StoredRecord> {
  return emulatorControl<StoredRecord>('GET', `records/${appId}/${recordId}`);
}

/** Writes bytes to `relativePath` in the workspace and returns its URI. */
export async function workspaceBytes(relativePath: string, content: Uint8Array): Promise<vscode.Uri> {
  const uri = vscode.Uri.joinPath(workspaceRoot(), relativePath);
  await vscode.workspace.fs.writeFile(uri, content);
  return uri;
}

/** `size` bytes that do not compress and hold every byte value (a binary file, not text). */
export function randomBytes(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let offset = 0; offset < size; offset += 65536) crypto.getRandomValues(bytes.subarray(offset, Math.min(offset + 65536, size)));
  return bytes;
}

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A real PNG of `width` x `height`: red and white squares of 16 pixels, to see in a screenshot. */
export function checkerboardPng(width: number, height: number): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter, no interlace
  const rows = Buffer.alloc(height * (1 + width * 3));
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const red = (Math.floor(x / 16) + Math.floor(y / 16)) % 2 === 0;
      rows.set(red ? [204, 51, 51] : [255, 255, 255], y * (1 + width * 3) + 1 + x * 3);
    }
  }
  const signature = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
  return Buffer.concat([signature, pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(rows)), pngChunk('IEND', new Uint8Array())]);
}

/** Sets a user setting for the test; returns how to put it back. */
export async function withSetting(key: string, value: unknown): Promise<() => Promise<void>> {
  const configuration = vscode.workspace.getConfiguration();
  const before = configuration.inspect(key)?.globalValue;
  await configuration.update(key, value, vscode.ConfigurationTarget.Global);
  return async () => vscode.workspace.getConfiguration().update(key, before, vscode.ConfigurationTarget.Global);
}

/**
 * The record items of a view as the explorer shows them, after adding the view (as "Add View…" keeps it):
 * expanding it reads its rows, and it becomes the view the pickers offer records of.
 */
export async function recordItemsOf(
  portalId: string,
  site: string,
  app: string,
  appId: string,
  viewId: string,
  viewName: string,
): Promise<ExplorerNode[]> {
  const api = await testApi();
  if (!api.views.get(portalId, appId, viewId)) await api.views.add(portalId, appId, { viewId, name: viewName });
  const view = await path(portalId, site, app, 'Views', viewName);
  return (await children(view)).filter((node) => node.kind === 'record');
}

/** Whether some tab shows `uri`. */
export function isShown(uri: vscode.Uri | string): boolean {
  const key = uri.toString();
  return vscode.window.tabGroups.all.some((group) =>
    group.tabs.some(
      (tab) => (tab.input instanceof vscode.TabInputText || tab.input instanceof vscode.TabInputCustom) && tab.input.uri.toString() === key,
    ),
  );
}

/**
 * Waits for a notification matching `pattern` in the notification center, opening the center on each look:
 * it closes while it has nothing to show, and a progress notification comes only once its work starts.
 */
export async function notificationShown(pattern: RegExp, timeoutMs = 20_000): Promise<string> {
  return waitFor(
    async () => {
      await vscode.commands.executeCommand('notifications.showList');
      return (await driver.texts('.notifications-center .notification-list-item-message')).find((message) => pattern.test(message));
    },
    { message: `a notification matching ${pattern}`, timeoutMs, intervalMs: 100 },
  );
}
