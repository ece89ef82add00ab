// The pending changes as JSON, for the custom editor's backup (hot exit, a crash, a reload) and their
// restore. Versioned: a later format must not be misread by this code, nor this one lost by a later code.
// Everything read back is checked (a backup is a file on disk; anything may be in it) and the restored
// edits pass the rules again, since the app's columns may have changed in the meantime.
import type { Column, RecordData } from '../../api/types';
import type { ChangeSet, PortalCopy, RefusedCell } from './changeSet';

export const BACKUP_VERSION = 1;

export interface BackupRow {
  recordId: string;
  asRead: RecordData;
  edits: RecordData;
  /** The portal's newer copy, "deleted", or null. */
  changedOnPortal: RecordData | 'deleted' | null;
  /** A row added in the grid, not created yet (left out when false, as older backups have it). */
  isNew?: true;
}

export interface GridBackup {
  version: typeof BACKUP_VERSION;
  appId: string;
  viewId: string;
  rows: BackupRow[];
}

export function backupOf(changeSet: ChangeSet, appId: string, viewId: string): GridBackup {
  return {
    version: BACKUP_VERSION,
    appId,
    viewId,
    rows: changeSet.rows().map((row) => ({
      recordId: row.recordId,
      asRead: { ...row.asRead },
      edits: Object.fromEntries(row.edits),
      changedOnPortal:
        row.changedOnPortal === undefined ? null : row.changedOnPortal === 'deleted' ? 'deleted' : { ...row.changedOnPortal },
      ...(row.isNew ? { isNew: true as const } : {}),
    })),
  };
}

export function serializeBackup(backup: GridBackup): string {
  return JSON.stringify(backup);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function recordData(value: unknown, what: string): RecordData {
  if (!isObject(value)) throw new Error(`${what} is not an object`);
  for (const [key, field] of Object.entries(value)) if (typeof field !== 'string') throw new Error(`${what}.${key} is not a string`);
  return value as RecordData;
}

/** The backup in `text`, checked; throws an Error saying what is wrong (and nothing is restored). */
export function parseBackup(text: string): GridBackup {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('The backup of the grid is not JSON.');
  }
  if (!isObject(value)) throw new Error('The backup of the grid is not an object.');
  if (value.version !== BACKUP_VERSION)
    throw new Error(
      `The backup of the grid has version ${JSON.stringify(value.version)}; this version of Portal Explorer reads version ${BACKUP_VERSION}.`,
    );
  if (typeof value.appId !== 'string' || typeof value.viewId !== 'string' || !Array.isArray(value.rows))
    throw new Error('The backup of the grid has no appId, viewId or rows.');
  const rows = value.rows.map((row: unknown, index): BackupRow => {
    const what = `row ${index + 1}`;
    if (!isObject(row) || typeof row.recordId !== 'string') throw new Error(`The backup of the grid is damaged: ${what} has no recordId.`);
    try {
      const changed = row.changedOnPortal;
      return {
        recordId: row.recordId,
        asRead: recordData(row.asRead, 'asRead'),
        edits: recordData(row.edits, 'edits'),
        changedOnPortal:
          changed === null || changed === undefined ? null : changed === 'deleted' ? 'deleted' : recordData(changed, 'changedOnPortal'),
        ...(row.isNew === true ? { isNew: true as const } : {}),
      };
    } catch (error) {
      throw new Error(`The backup of the grid is damaged: ${what}: ${error instanceof Error ? error.message : String(error)}.`);
    }
  });
  return { version: BACKUP_VERSION, appId: value.appId, viewId: value.viewId, rows };
}

/** Puts the backup's pending edits back; edits the app's columns no longer allow are handed back, not kept. */
export function restoreBackup(changeSet: ChangeSet, backup: GridBackup): RefusedCell[] {
  const refused: RefusedCell[] = [];
  for (const row of backup.rows) {
    const changed: PortalCopy | undefined = row.changedOnPortal === null ? undefined : row.changedOnPortal;
    refused.push(...changeSet.restoreRow(row.recordId, row.asRead, row.edits, changed, row.isNew === true));
  }
  return refused;
}

/** The most left-out edits one message lists: a notification of pages is read by no one. */
const MAX_DROPPED_LISTED = 20;

/**
 * What the user is told when a restore left edits out (`refused`, from restoreBackup): each edit with its
 * record, field, value and why, so that none is lost without a word. Undefined when none was.
 */
export function droppedEditsMessage(refused: readonly RefusedCell[], columns: readonly Column[], gridName: string): string | undefined {
  if (refused.length === 0) return undefined;
  const names = new Map(columns.map((column) => [column.field_id_in_data, column.field_name]));
  const listed = refused.slice(0, MAX_DROPPED_LISTED).map((cell) => {
    const name = names.get(cell.field);
    return `record ${cell.recordId}, ${name ? `${name} (${cell.field})` : cell.field}: ${JSON.stringify(cell.value)} (${cell.message})`;
  });
  const more = refused.length > MAX_DROPPED_LISTED ? `; and ${refused.length - MAX_DROPPED_LISTED} more` : '';
  const count = refused.length === 1 ? '1 edit' : `${refused.length} edits`;
  return `Restoring the unsaved changes of ${gridName} left out ${count} that the app's columns no longer allow: ${listed.join('; ')}${more}.`;
}
