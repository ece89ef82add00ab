// Record documents as the tests use them: open one the way the tree does (portal.openRecord), change a
// field's value with a real edit, read the emulator's request log and its copy of a record.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { LoggedRequest } from '../../emulator/requestLog';
import { emulatorControl } from './emulator';
import { waitFor } from './wait';

export type { LoggedRequest };

export interface EmulatorRecord {
  app_id: string;
  id: string;
  draft: boolean;
  trashed: boolean;
  data: Record<string, string>;
  comments: Array<{ id: string; comment: string; created_at: string }>;
}

/** How long a copy read from the portal stands for "now" (FRESH_MS of src/fs/recordFileSystem.ts). */
export const FRESH_MS = 300;

/**
 * Waits out FRESH_MS: a save within it of the last read reuses that read as its conflict check. A user
 * does not open, edit and save within 300 ms; a test does, and would then not see the check's GET.
 */
export function afterFreshCopy(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, FRESH_MS + 100));
}

export function recordUriOf(portalId: string, appId: string, recordId: string): vscode.Uri {
  return vscode.Uri.from({ scheme: 'portal', authority: portalId, path: `/${appId}/${recordId}.json` });
}

/** The highest sequence number of the request log now: pass it to requestsSince. */
export async function requestMark(): Promise<number> {
  const log = await emulatorControl<LoggedRequest[]>('GET', 'requests');
  return log.length === 0 ? 0 : log[log.length - 1].seq;
}

/** Data requests after `mark` as "METHOD path status" (OAuth token requests left out). */
export async function requestsSince(mark: number): Promise<string[]> {
  const log = await emulatorControl<LoggedRequest[]>('GET', `requests?since=${mark}`);
  return log.filter((entry) => !entry.path.includes('/oauth2/')).map((entry) => `${entry.method} ${entry.path} ${entry.status}`);
}

export async function emulatorRecord(appId: string, recordId: string): Promise<EmulatorRecord> {
  return emulatorControl<EmulatorRecord>('GET', `records/${appId}/${recordId}`);
}

/** Opens a record through portal.openRecord (as the tree does) and resolves with its document, once active. */
/** The record a `portal:` document address names: /<app_id>[ <app name>]/[<title> · ]<record_id>.json. */
function recordOfText(text: string): { portalId: string; appId: string; recordId: string } | undefined {
  const uri = vscode.Uri.parse(text);
  const match = /^\/(\d+)(?: [^/]*)?\/(?:.* · )?([^/\s]+)\.json$/.exec(uri.path);
  return match ? { portalId: uri.authority, appId: match[1], recordId: match[2] } : undefined;
}

export async function openRecord(portalId: string, appId: string, recordId: string): Promise<vscode.TextDocument> {
  const opened = await vscode.commands.executeCommand<string | undefined>('portal.openRecord', { portalId, appId, recordId });
  // By ids, or under the named address of a document VS Code still keeps from an earlier test (it keeps a
  // document a while after its tab closes, and portal.openRecord shows that one): the same record either way.
  const record = opened === undefined ? undefined : recordOfText(opened);
  assert.deepEqual(record, { portalId, appId, recordId }, `portal.openRecord resolves with the record's document: ${opened}`);
  return waitFor(
    () => {
      const document = vscode.window.activeTextEditor?.document;
      return document?.uri.toString() === opened ? document : undefined;
    },
    {
      message: `the editor of ${opened}`,
    },
  );
}

/** The range of a top-level field's string value (quotes included), found in the document's text. */
export function valueRange(document: vscode.TextDocument, field: string): vscode.Range {
  const text = document.getText();
  const match = new RegExp(`"${field}": ("(?:[^"\\\\]|\\\\.)*")`).exec(text);
  if (!match) throw new Error(`${field} is not in the document:\n${text}`);
  const start = match.index + match[0].length - match[1].length;
  return new vscode.Range(document.positionAt(start), document.positionAt(start + match[1].length));
}

/** Replaces a field's value with a real edit (the document becomes dirty, as when typed). */
export async function setField(document: vscode.TextDocument, field: string, value: string): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, valueRange(document, field), JSON.stringify(value));
  assert.equal(await vscode.workspace.applyEdit(edit), true, `the edit of ${field} applies`);
}

/** The document's fields as parsed JSON. */
export function fieldsOf(document: vscode.TextDocument): Record<string, string> {
  return JSON.parse(document.getText()) as Record<string, string>;
}

/** Closes every editor, reverting unsaved changes of record documents first (VS Code would ask whether to save them). */
export async function closeAllEditors(): Promise<void> {
  for (const document of vscode.workspace.textDocuments.filter((candidate) => candidate.isDirty && candidate.uri.scheme === 'portal')) {
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}
