// The light bulb's Create Record from TODO (on a comment with a trigger word) and Create Record from
// Selection (on any selection). Registered at activation for files (src/extension.ts): it reads only the
// line under the cursor and the setting, asks nothing of a portal, and hands the place to the command.
import * as vscode from 'vscode';
import { WORK_COMMANDS } from '../ids';
import { setting } from '../settings/settings';
import { findTodo, triggerWords } from '../work/todoComments';

/** What the code action hands to portal.createRecordFromCode. */
export interface CodePlace {
  readonly uri: string;
  /** 0-based lines of the selection (or the TODO's line). */
  readonly startLine: number;
  readonly endLine: number;
  readonly startCharacter: number;
  readonly endCharacter: number;
}

/** A reference written already right after the word (`TODO TCK-42:`): no second record. */
const REFERENCED = /^\s*\(?[^\s:()]*\d\)?\s*[:\-–]/u;

export class TodoCodeActions implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix.append('portal'), vscode.CodeActionKind.RefactorExtract.append('portal')];

  provideCodeActions(document: vscode.TextDocument, range: vscode.Range | vscode.Selection): vscode.CodeAction[] {
    const actions: vscode.CodeAction[] = [];
    const place: CodePlace = {
      uri: document.uri.toString(),
      startLine: range.start.line,
      endLine: range.end.line,
      startCharacter: range.start.character,
      endCharacter: range.end.character,
    };
    const line = document.lineAt(range.start.line).text;
    const todo = findTodo(line, triggerWords(setting('todo.triggers')));
    if (todo && !REFERENCED.test(line.slice(todo.end))) {
      const action = new vscode.CodeAction(`Create Record from ${todo.trigger}…`, TodoCodeActions.kinds[0]);
      action.command = { command: WORK_COMMANDS.createFromCode, title: action.title, arguments: [place] };
      actions.push(action);
    }
    if (!range.isEmpty) {
      const action = new vscode.CodeAction('Create Record from Selection…', TodoCodeActions.kinds[1]);
      action.command = { command: WORK_COMMANDS.createFromCode, title: action.title, arguments: [place] };
      actions.push(action);
    }
    return actions;
  }
}
