// Record History's commands: Show Record History (the palette) and Compare with This Version (a version
// selected in the view, or its inline button).
import * as vscode from 'vscode';
import { HISTORY_COMMANDS, HISTORY_VIEW_ID } from '../ids';
import type { RecordHistory, VersionNode } from '../recordHistory/recordHistory';
import type { CommandTable } from './register';

function isVersionNode(value: unknown): value is VersionNode {
  if (typeof value !== 'object' || value === null) return false;
  const node = value as Partial<VersionNode>;
  return typeof node.record?.recordId === 'string' && typeof node.version?.hash === 'string';
}

export function historyCommands(history: RecordHistory): CommandTable {
  return {
    [HISTORY_COMMANDS.show]: async () => {
      await vscode.commands.executeCommand(`${HISTORY_VIEW_ID}.focus`);
    },
    [HISTORY_COMMANDS.compare]: async (arg?: unknown) => {
      if (!isVersionNode(arg)) throw new Error('Compare with This Version: select a version in the Record History view.');
      await history.compare(arg);
    },
  };
}
