// "Set Field…" and "Delete Rows…" on records of a view. The target is { portalId, appId, viewId,
// recordIds }: the Query View sends the rows of its result (or those selected), and any other grid of a
// view can send the same. The rows' current values come from the Query View's host store when a panel of
// that view holds them (what the person sees), else from reading the view. Same runner, journal (in the
// extension's storage), progress and failure report as an import.
import { cancelled } from '../api/errors';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ViewRow } from '../api/answers';
import { isWritable } from '../api/columnKinds';
import { bulkFailuresCsv, previewSetField, runBulkChange, type BulkChange, type BulkResult } from '../import/bulkChange';
import { bulkSummaryText } from '../import/report';
import { viewTargetOf, type ViewTarget } from '../model/targets';
import { prompter } from '../ui/prompter';
import { ViewQueryPanel } from '../webviews/viewQueryPanel';
import { announcer, type ImportDeps } from './importRecords';
import { withRunProgress } from './runProgress';

/** What a bulk command works on: records of a view, by id. */
export interface BulkTarget extends ViewTarget {
  readonly recordIds: readonly string[];
  /** True: the rows selected in a grid; false: every row of a query's result; absent: not said. */
  readonly selected?: boolean;
}

export function bulkTargetOf(arg: unknown): BulkTarget | undefined {
  const view = viewTargetOf(arg);
  const fields = typeof arg === 'object' && arg !== null ? (arg as { recordIds?: unknown; selected?: unknown }) : {};
  const ids = fields.recordIds;
  if (!view || !Array.isArray(ids) || !ids.every((id): id is string => typeof id === 'string' && id !== '')) return undefined;
  return { ...view, recordIds: ids, ...(typeof fields.selected === 'boolean' ? { selected: fields.selected } : {}) };
}

/** The open Query View of the target's view, if any. */
function queryOf(target: BulkTarget): ViewQueryPanel | undefined {
  return ViewQueryPanel.all().find(
    (open) => open.target.portalId === target.portalId && open.target.appId === target.appId && open.target.viewId === target.viewId,
  );
}

/** The target's rows, with their current values: from an open Query View of the view, else read anew. */
async function rowsOf(deps: ImportDeps, target: BulkTarget): Promise<ViewRow[]> {
  const panel = queryOf(target);
  const wanted = new Set(target.recordIds);
  const stored = panel?.session.result?.rows;
  const held = stored && [...stored.rows()].filter((row) => row.id !== undefined && wanted.has(row.id));
  if (held && held.length === wanted.size) return held;
  const read = await deps.portals.client(target.portalId).readView(target.appId, target.viewId);
  return read.rows.filter((row) => row.id !== undefined && wanted.has(row.id));
}

function noTarget(title: string): never {
  throw new Error(
    `${title} works on records of a view: run it from the Query View's toolbar (or a view's grid), with the rows you want to change.`,
  );
}

const records = (count: number): string => `${count.toLocaleString('en-US')} record${count === 1 ? '' : 's'}`;

/** Which rows, as the confirmation says it: "the 3 selected records", "all 120 records of the result". */
function scopeOf(target: BulkTarget, count: number): string {
  if (target.selected === true) return count === 1 ? 'the selected record' : `the ${count.toLocaleString('en-US')} selected records`;
  if (target.selected === false) return count === 1 ? 'the one record of the result' : `all ${records(count)} of the result`;
  return records(count);
}

async function run(deps: ImportDeps, target: BulkTarget, change: BulkChange, rows: readonly ViewRow[], title: string): Promise<BulkResult> {
  const journalFolder = join(deps.storageFolder, 'bulk');
  await mkdir(journalFolder, { recursive: true });
  const client = deps.portals.client(target.portalId, 'bulk');
  const result = await withRunProgress(title, (signal, onProgress) =>
    runBulkChange({
      appId: target.appId,
      change,
      rows,
      writer: client,
      limiter: deps.portals.limiter(target.portalId),
      journalFolder,
      signal,
      onProgress,
      onRecordChanged: announcer(deps, target, 'bulk'),
      history: { versions: deps.versions, portalId: target.portalId, cause: 'bulk' },
    }),
  );
  deps.rows.drop(target.portalId, target.appId);
  const summary = bulkSummaryText(result.counts);
  if (result.cancelled) {
    // The message waits for no one: the command is done.
    void prompter().info(`${title} cancelled: ${summary}. Run the same change on the same rows to resume.`);
    return result;
  }
  if (result.failures.length === 0) {
    await rm(result.journalPath, { force: true });
    // The message waits for no one: the command is done.
    // Open documents and grids follow the changed records by themselves; a Query View's result does not.
    void prompter().info(`${title}: ${summary}.${queryOf(target) ? ' Run the query again to see the change.' : ''}`);
    return result;
  }
  const failuresPath = result.journalPath.replace(/\.portal-journal\.jsonl$/, '.failures.csv');
  await writeFile(failuresPath, await bulkFailuresCsv(result.failures));
  await rm(result.journalPath, { force: true });
  // The command ends now; the button, if clicked later, opens the file on its own.
  void prompter()
    .info(`${title}: ${summary}.`, 'Open Failures File')
    .then(async (answer) => {
      if (answer) await vscode.window.showTextDocument(vscode.Uri.file(failuresPath));
    });
  return result;
}

export async function bulkSetField(deps: ImportDeps, arg: unknown): Promise<BulkResult> {
  const target = bulkTargetOf(arg) ?? noTarget('Set Field');
  const [columns, rows] = await Promise.all([deps.catalog.columns(target.portalId, target.appId), rowsOf(deps, target)]);
  if (rows.length === 0) throw new Error('None of these records is in the view any more: run the query again.');
  const items = columns.filter(isWritable).map((column) => ({ label: column.field_name, description: column.field_id_in_data, column }));
  const scope = scopeOf(target, rows.length);
  const picked = await prompter().quickPick(items, {
    title: `Set Field on ${scope}`,
    placeHolder: 'Which column?',
    matchOnDescription: true,
  });
  if (!picked) throw cancelled('Set Field');
  const column = picked.column;
  const value = await prompter().inputBox({
    title: `Set ${column.field_name} on ${scope}`,
    prompt: 'The value, as in a record document (empty clears the field)',
    ignoreFocusOut: true,
    validateInput: (text) => {
      const preview = previewSetField(column, columns, text, rows);
      return preview.problem === undefined ? undefined : `${preview.problem}${preview.expected ? ` (expected ${preview.expected})` : ''}`;
    },
  });
  if (value === undefined) throw cancelled('Set Field');
  const preview = previewSetField(column, columns, value, rows);
  if (preview.problem !== undefined) throw new Error(`${column.field_name}: ${preview.problem}`);
  const shown = preview.value === '' ? 'empty' : `"${preview.value}"`;
  const answer = await prompter().warn(
    `Set ${column.field_name} to ${shown} on ${records(preview.changes)}?`,
    {
      modal: true,
      detail: `Rows: ${scope}.${preview.unchanged > 0 ? ` ${records(preview.unchanged)} already hold it and stay as they are.` : ''}`,
    },
    'Set Field',
  );
  if (answer !== 'Set Field') throw cancelled('Set Field');
  return run(
    deps,
    target,
    { kind: 'set-field', field: column.field_id_in_data, value: preview.value as string },
    rows,
    `Setting ${column.field_name}`,
  );
}

export async function bulkDeleteRows(deps: ImportDeps, arg: unknown): Promise<BulkResult> {
  const target = bulkTargetOf(arg) ?? noTarget('Delete Rows');
  const rows = await rowsOf(deps, target);
  if (rows.length === 0) throw new Error('None of these records is in the view any more: run the query again.');
  const answer = await prompter().warn(
    `Move ${scopeOf(target, rows.length)} to trash?`,
    { modal: true, detail: 'They can be restored from the trash in the portal.' },
    'Delete',
  );
  if (answer !== 'Delete') throw cancelled('Delete Rows');
  return run(deps, target, { kind: 'delete' }, rows, `Deleting ${records(rows.length)}`);
}
