// "Open record" from a panel: the documents feature's command portal.openRecord, when it exists.
import * as vscode from 'vscode';
import { COMMANDS } from '../ids';
import { tell } from '../ui/prompter';

export const OPEN_RECORD_COMMAND = COMMANDS.record.open;

/**
 * Opens the record; a failure is thrown to the caller's error boundary. `title` names its tab, as a record
 * opened from the Portal view is named (without it the tab says only the record id).
 */
export async function openRecord(portalId: string, appId: string, recordId: string, title?: string): Promise<void> {
  const commands = await vscode.commands.getCommands(true);
  if (!commands.includes(OPEN_RECORD_COMMAND)) {
    tell('info', `Record ${recordId} of app ${appId} cannot be opened here: this version of Portal Explorer has no record documents.`);
    return;
  }
  await vscode.commands.executeCommand(OPEN_RECORD_COMMAND, { portalId, appId, recordId, ...(title ? { title } : {}) });
}
