// A team's Start Work convention (the workspace file's `startWork` of an app) matched to the app's columns:
// the Choice column that says a record's state and its values, the USER column that names who works on it.
// Columns are named by field_id_in_data or name, values by a choice's name or id, so that the file reads as
// the team says it ("Status": "In progress"). What does not match is said, never guessed.
import { columnKind } from '../api/columnKinds';
import type { Column, RecordData } from '../api/types';
import { holdsUser, withUser } from '../records/people';
import { choiceOptions, type ChoiceOption } from '../shared/protocol';
import type { SharedStartWork } from '../workspaceFile/model';

export interface Convention {
  readonly status?: { readonly column: Column; readonly start?: ChoiceOption; readonly done?: ChoiceOption };
  readonly user?: Column;
  /** What in the convention does not match the app's columns, one sentence each. */
  readonly problems: readonly string[];
}

function columnNamed(columns: readonly Column[], name: string): Column | undefined {
  const wanted = name.trim().toLowerCase();
  return (
    columns.find((column) => column.field_id_in_data === name.trim()) ??
    columns.find((column) => column.field_name.trim().toLowerCase() === wanted)
  );
}

/** The choice of `column` named `value` (by id, else by name without regard to case). */
export function choiceNamed(column: Column, value: string): ChoiceOption | undefined {
  const options = choiceOptions(column);
  const wanted = value.trim().toLowerCase();
  return options.find((option) => option.id === value.trim()) ?? options.find((option) => option.name.trim().toLowerCase() === wanted);
}

export function matchConvention(columns: readonly Column[], shared: SharedStartWork | undefined): Convention {
  const problems: string[] = [];
  let status: Convention['status'];
  let user: Column | undefined;
  if (shared?.statusField !== undefined) {
    const column = columnNamed(columns, shared.statusField);
    if (!column) problems.push(`the app has no column "${shared.statusField}" (startWork.statusField)`);
    else if (columnKind(column) !== 'choice') problems.push(`"${column.field_name}" is not a Choice column (startWork.statusField)`);
    else {
      const value = (key: 'startStatus' | 'doneStatus'): ChoiceOption | undefined => {
        const wanted = shared[key];
        if (wanted === undefined) return undefined;
        const found = choiceNamed(column, wanted);
        if (!found) problems.push(`"${column.field_name}" has no choice "${wanted}" (startWork.${key})`);
        return found;
      };
      const start = value('startStatus');
      const done = value('doneStatus');
      status = { column, ...(start ? { start } : {}), ...(done ? { done } : {}) };
    }
  }
  if (shared?.userField !== undefined) {
    const column = columnNamed(columns, shared.userField);
    if (!column) problems.push(`the app has no column "${shared.userField}" (startWork.userField)`);
    else if (columnKind(column) !== 'user') problems.push(`"${column.field_name}" is not a USER column (startWork.userField)`);
    else user = column;
  }
  return { ...(status ? { status } : {}), ...(user ? { user } : {}), problems };
}

/** The fields Start Work changes on `data`: the start status, and `email` added to the USER column; only what differs. */
export function startEdit(data: RecordData, convention: Convention, email: string | undefined): RecordData {
  const edit: Record<string, string> = {};
  const status = convention.status;
  if (status?.start && data[status.column.field_id_in_data] !== status.start.id) edit[status.column.field_id_in_data] = status.start.id;
  const user = convention.user;
  if (user && email !== undefined && !holdsUser(data[user.field_id_in_data], email))
    edit[user.field_id_in_data] = withUser(data[user.field_id_in_data], email);
  return edit;
}
