// Create Record from TODO / from Selection (issue 33): the create-record form of an app, its title from the
// comment (or the selection's first line), a text or multiline field with the file's path and line (and
// the code, when the field holds lines); after the create, the new record's reference goes into the TODO
// comment as one WorkspaceEdit, which Undo takes back.
import { cancelled } from '../api/errors';
import * as vscode from 'vscode';
import { columnKind, isWritable } from '../api/columnKinds';
import type { Column } from '../api/types';
import { chooseTitleField } from '../catalog/titleField';
import type { CodePlace } from '../codeWork/todoActions';
import type { AppTarget } from '../model/targets';
import { formatReference } from '../references/patterns';
import { setting } from '../settings/settings';
import { prompter, tell } from '../ui/prompter';
import { codeContext, findTodo, titleFromSelection, triggerWords } from '../work/todoComments';
import { RecordFormPanel } from '../webviews/recordFormPanel';
import { pickApp } from './pickers';
import { referenceOf, type WorkParts } from './work';

const TITLE = 'Create Record from TODO';

function placeOf(arg: unknown): CodePlace | undefined {
  const candidate = arg as Partial<Record<keyof CodePlace, unknown>> | undefined;
  if (typeof candidate?.uri === 'string')
    return ['startLine', 'endLine', 'startCharacter', 'endCharacter'].every((key) => Number.isInteger(candidate[key as keyof CodePlace]))
      ? (candidate as CodePlace)
      : undefined;
  const editor = vscode.window.activeTextEditor;
  if (!editor) return undefined;
  const { start, end } = editor.selection;
  return {
    uri: editor.document.uri.toString(),
    startLine: start.line,
    endLine: end.line,
    startCharacter: start.character,
    endCharacter: end.character,
  };
}

/** The app: one whose records have a reference pattern first (the reference goes back into the code). */
async function appFor(parts: WorkParts): Promise<AppTarget | undefined> {
  const patterns = parts.patterns();
  if (patterns.length === 0) return pickApp(parts.portals, parts.catalog, { title: TITLE });
  const other = '$(list-tree) Another app…';
  const items = [
    ...patterns.map((pattern) => ({
      label: formatReference(pattern, '…'),
      description: `app ${pattern.appId} · ${parts.portals.get(pattern.portalId)?.label ?? pattern.portalId}`,
      app: { portalId: pattern.portalId, appId: pattern.appId } as AppTarget | undefined,
    })),
    { label: other, app: undefined },
  ];
  const picked =
    items.length === 2 ? items[0] : await prompter().quickPick(items, { title: TITLE, placeHolder: 'Which app is the record for?' });
  if (!picked) return undefined;
  return picked.app ?? pickApp(parts.portals, parts.catalog, { title: TITLE });
}

/** The field for where the code is: a multiline one (with the code), else a text one besides the title. */
function contextColumn(columns: readonly Column[], title: Column | undefined): { column: Column; multiline: boolean } | undefined {
  const free = columns.filter((column) => isWritable(column) && column.field_id_in_data !== title?.field_id_in_data);
  const multiline = free.find((column) => columnKind(column) === 'multiline');
  if (multiline) return { column: multiline, multiline: true };
  const text = free.find((column) => columnKind(column) === 'text');
  return text ? { column: text, multiline: false } : undefined;
}

export async function createRecordFromCode(parts: WorkParts, arg: unknown): Promise<void> {
  const place = placeOf(arg);
  if (!place) throw new Error('Create Record from TODO works on a comment or a selection in an editor.');
  const uri = vscode.Uri.parse(place.uri);
  const document = await vscode.workspace.openTextDocument(uri);
  const triggers = triggerWords(setting('todo.triggers'));
  const todoLine = document.lineAt(place.startLine).text;
  const todo = findTodo(todoLine, triggers);
  const selection = new vscode.Range(place.startLine, place.startCharacter, place.endLine, place.endCharacter);
  const code = selection.isEmpty ? todoLine : document.getText(selection);
  const app = await appFor(parts);
  if (!app) throw cancelled(TITLE);
  const columns = await parts.catalog.columns(app.portalId, app.appId);
  const titleColumn = chooseTitleField(columns, parts.titles.get(app));
  const values: Record<string, string> = {};
  const title = (todo?.title ?? '') !== '' && selection.isEmpty ? (todo?.title ?? '') : titleFromSelection(code) || (todo?.title ?? '');
  if (titleColumn && isWritable(titleColumn) && ['text', 'multiline'].includes(columnKind(titleColumn)))
    values[titleColumn.field_id_in_data] = title;
  const where = contextColumn(columns, titleColumn);
  const path = uri.scheme === 'file' ? vscode.workspace.asRelativePath(uri) : uri.toString();
  if (where) values[where.column.field_id_in_data] = codeContext({ path, line: place.startLine + 1 }, code, where.multiline);
  const appName = (await parts.catalog.app(app.portalId, app.appId).catch(() => undefined))?.name;
  const onCreated = async (recordId: string): Promise<void> => {
    if (!todo) return;
    const reference = referenceOf(parts.patterns(), { ...app, recordId });
    // The line may have moved while the form was open: the TODO is looked for again where it was.
    const now = await vscode.workspace.openTextDocument(uri);
    const line = Math.min(place.startLine, now.lineCount - 1);
    const found = findTodo(now.lineAt(line).text, triggers);
    if (!found || found.title !== todo.title) {
      tell('info', `Record ${recordId} was created; its TODO comment moved or changed, so ${reference} was not written into it.`);
      return;
    }
    const edit = new vscode.WorkspaceEdit();
    edit.insert(uri, new vscode.Position(line, found.end), ` ${reference}`);
    if (!(await vscode.workspace.applyEdit(edit)))
      tell('warn', `Record ${recordId} was created; ${reference} could not be written into its TODO comment.`);
  };
  RecordFormPanel.showPrefilled({ ...parts, extensionUri: parts.context.extensionUri }, app, appName, values, onCreated);
}
