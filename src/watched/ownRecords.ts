// The user's own records in watched reads: My Records' reads (per chosen view, one read per USER column,
// filtered to the user's e-mail by the portal, so no view is scanned), the copies of the user's records
// kept to say what changed ("TCK-1042 changed: Status Open → Done"), and the notification with Open.
// Only the user's records are kept as values (a few hundred at most); a watched view's other rows are
// hashes only.
import * as vscode from 'vscode';
import { kindOfTypeName } from '../api/columnKinds';
import type { ViewFilter } from '../api/filters';
import type { ViewMetadataEntry } from '../api/types';
import { myEmailOn } from '../catalog/me';
import { titleColumnOfView, viewColumns } from '../catalog/recordTitles';
import type { Stores } from '../catalog/stores';
import { displayValue, recordTitle } from '../catalog/titleField';
import { RECORD_COMMANDS } from '../ids';
import type { Logger } from '../log';
import { recordKey } from '../model/recordAddress';
import type { ViewTarget } from '../model/targets';
import { holdsUser } from '../records/people';
import { setting } from '../settings/settings';
import { prompter } from '../ui/prompter';
import type { RowChange } from '../watch/rowDigest';
import { changeSummary } from '../watch/summary';
import { readFiltered, type WatchedRead } from './reads';

/** My Records of a portal, as a watched "view": its app and view ids are these. */
export const MY_RECORDS = { appId: '*', viewId: 'my-records' } as const;

/** The views My Records reads, per portal (chosen by the user or named by the workspace file). */
export interface MyRecordsSource {
  views(portalId: string, signal?: AbortSignal): Promise<readonly ViewTarget[]>;
}

/**
 * My Records' views: every view added to each app of the portal, or those the workspace file's `myRecords`
 * names for an app when it names some (a team's "my work" views, without the big ones).
 */
export function addedViewsSource(parts: Pick<Stores, 'catalog' | 'views' | 'workspace'>): MyRecordsSource {
  return {
    async views(portalId, signal) {
      const apps = await parts.catalog.apps(portalId, signal);
      return apps.flatMap((app) => {
        const added = parts.views.list(portalId, app.appId);
        const named = parts.workspace.app(portalId, app.appId)?.myRecords ?? [];
        const chosen = named.length > 0 ? added.filter((view) => named.includes(view.viewId)) : added;
        return chosen.map((view) => ({ portalId, appId: app.appId, viewId: view.viewId, viewName: view.name }));
      });
    },
  };
}

/** One app's records in My Records, in the order the reads found them. */
export interface MyAppRecords {
  readonly appId: string;
  readonly appName: string;
  readonly records: ReadonlyArray<{ readonly recordId: string; readonly title: string }>;
}

/** Copies of the user's records kept for the notifications' "before", at most. */
const KEPT_COPIES = 2_000;
/** Notifications of one read at most; beyond them one says how many more. */
const NOTIFIED_PER_READ = 3;

export type OwnRecordsParts = Pick<Stores, 'portals' | 'catalog' | 'titles'> & {
  readonly log: Logger;
  readonly myRecords?: MyRecordsSource;
};

export class OwnRecords {
  private readonly copies = new Map<string, Record<string, string>>();

  constructor(private readonly parts: OwnRecordsParts) {}

  isMyRecords(view: ViewTarget): boolean {
    return view.appId === MY_RECORDS.appId && view.viewId === MY_RECORDS.viewId;
  }

  /** The USER columns of a view, from its metadata. */
  static userColumns(metadata: readonly ViewMetadataEntry[]): ViewMetadataEntry[] {
    return metadata.filter((entry) => kindOfTypeName(String(entry.type_name ?? '')) === 'user');
  }

  /** The filters of My Records' reads of an app's view: one read per USER column (the portal ANDs filters). */
  async filtersOf(view: ViewTarget, email: string, signal?: AbortSignal): Promise<Array<{ column: string; filters: ViewFilter[] }>> {
    const columns = await this.parts.catalog.columns(view.portalId, view.appId, signal);
    return columns
      .filter((column) => kindOfTypeName(column.type_name, column.type) === 'user')
      .map((column) => ({ column: column.field_id, filters: [{ column: column.field_id, operator: 'contains', value: email }] }));
  }

  /** My Records' reads of a portal, each its own view's rows, filtered to the user. */
  async reads(view: ViewTarget, signal: AbortSignal): Promise<Array<{ key: string; read: WatchedRead; target: ViewTarget }>> {
    const connection = this.parts.portals.get(view.portalId);
    const email = connection ? await myEmailOn(connection) : undefined;
    if (!email) return [];
    const out: Array<{ key: string; read: WatchedRead; target: ViewTarget }> = [];
    for (const source of (await this.parts.myRecords?.views(view.portalId, signal)) ?? []) {
      for (const { column, filters } of await this.filtersOf(source, email, signal)) {
        const read = await readFiltered(this.parts, source, filters, signal);
        out.push({ key: `${view.portalId}\u0000${source.appId}\u0000${source.viewId}\u0000${column}`, read, target: source });
      }
    }
    return out;
  }

  /**
   * My Records of a portal for the tree, grouped by app: the same filtered reads as a watched My Records'
   * (no view is scanned), a record held by several USER columns or views listed once.
   */
  async list(portalId: string, email: string, signal: AbortSignal = new AbortController().signal): Promise<MyAppRecords[]> {
    const byApp = new Map<string, Map<string, string>>();
    for (const source of (await this.parts.myRecords?.views(portalId, signal)) ?? []) {
      for (const { filters } of await this.filtersOf(source, email, signal)) {
        const read = await readFiltered(this.parts, source, filters, signal);
        try {
          // A partial answer would list some of the user's records as if they were all.
          if (read.partial) throw read.partial;
          const title = await titleColumnOfView(this.parts.catalog, source, this.parts.titles.get(source), read);
          const records = byApp.get(source.appId) ?? new Map<string, string>();
          byApp.set(source.appId, records);
          for (const row of read.rows.rows(0, read.rows.length))
            if (row.id !== undefined && !records.has(row.id)) records.set(row.id, recordTitle(row.id, row.values, title));
        } finally {
          read.rows.release();
        }
      }
    }
    const out: MyAppRecords[] = [];
    for (const [appId, records] of byApp) {
      if (records.size === 0) continue;
      const appName = (await this.parts.catalog.app(portalId, appId, signal).catch(() => undefined))?.name ?? `App ${appId}`;
      out.push({ appId, appName, records: [...records].map(([recordId, title]) => ({ recordId, title })) });
    }
    return out;
  }

  /**
   * Keeps the user's records of a read as it found them, to say later what changed. In My Records' reads
   * every row is the user's; in a view's, only the rows whose bytes hold the user's address are parsed (a
   * byte search, so a 100,000-row view costs no parse of its other rows) and kept if a USER column holds it.
   */
  async remember(view: ViewTarget, read: WatchedRead): Promise<void> {
    if (read.own) {
      for (let index = 0; index < Math.min(read.rows.length, KEPT_COPIES); index += 1) {
        const row = read.rows.row(index);
        if (row.id !== undefined) this.keep(view, row.id, row.values);
      }
      return;
    }
    const connection = this.parts.portals.get(view.portalId);
    const email = connection ? await myEmailOn(connection) : undefined;
    const userColumns = OwnRecords.userColumns(read.metadata);
    if (!email || userColumns.length === 0) return;
    const needles = [...new Set([email, email.toLowerCase()])].map((text) => Buffer.from(text, 'utf8'));
    let kept = 0;
    for (let index = 0; index < read.rows.length && kept < KEPT_COPIES; index += 1) {
      const bytes = read.rows.rowBytes(index);
      const haystack = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      if (!needles.some((needle) => haystack.includes(needle))) continue;
      const row = read.rows.row(index);
      if (row.id === undefined || !userColumns.some((column) => holdsUser(row.values[column.field_id_in_data], email))) continue;
      this.keep(view, row.id, row.values);
      kept += 1;
    }
  }

  private keep(view: ViewTarget, recordId: string, values: Record<string, string>): void {
    const key = recordKey({ portalId: view.portalId, appId: view.appId, recordId });
    this.copies.delete(key);
    this.copies.set(key, values);
    if (this.copies.size > KEPT_COPIES) this.copies.delete(this.copies.keys().next().value as string);
  }

  /** Tells the user of their own records among `changes` (unless the setting turned it off). */
  async notify(view: ViewTarget, read: WatchedRead, changes: readonly RowChange[]): Promise<void> {
    const connection = this.parts.portals.get(view.portalId);
    const email = connection ? await myEmailOn(connection) : undefined;
    const userColumns = OwnRecords.userColumns(read.metadata);
    const mine: Array<{ change: RowChange; text: string }> = [];
    const title = await titleColumnOfView(this.parts.catalog, view, this.parts.titles.get(view), read).catch(() => undefined);
    const columns = viewColumns(read.metadata);
    for (const change of changes) {
      if (change.index === undefined || email === undefined) continue;
      const row = read.rows.row(change.index);
      const ownRead = read.own === true;
      if (!ownRead && !userColumns.some((column) => holdsUser(row.values[column.field_id_in_data], email))) continue;
      const key = recordKey({ portalId: view.portalId, appId: view.appId, recordId: change.recordId });
      const name = recordTitle(change.recordId, row.values, title);
      const text =
        change.kind === 'new'
          ? `${name} is new in ${viewName(view)}`
          : changeSummary(name, this.copies.get(key), row.values, columns, (column, value) =>
              displayValue(
                columns.find((candidate) => candidate.field_id_in_data === column.field_id_in_data),
                value,
              ),
            );
      mine.push({ change, text });
    }
    if (mine.length === 0 || !setting('watch.notifyMyRecords')) return;
    for (const { change, text } of mine.slice(0, NOTIFIED_PER_READ)) this.offerOpen(view, change.recordId, text);
    if (mine.length > NOTIFIED_PER_READ)
      // Not awaited: a notification; nothing follows from it.
      void prompter().info(`${mine.length - NOTIFIED_PER_READ} more of your records changed in ${viewName(view)}.`);
  }

  private offerOpen(view: ViewTarget, recordId: string, text: string): void {
    this.parts.log.info(`Watched: ${text}.`);
    // Not awaited: the notification stays until the user answers; the watched read goes on.
    void prompter()
      .info(text, 'Open')
      .then(async (choice) => {
        if (choice === 'Open')
          await vscode.commands.executeCommand(RECORD_COMMANDS.open, { portalId: view.portalId, appId: view.appId, recordId });
      })
      .catch((error: unknown) =>
        this.parts.log.error(`Opening record ${recordId}: ${error instanceof Error ? error.message : String(error)}`),
      );
  }
}

const viewName = (view: ViewTarget): string => view.viewName ?? `view ${view.viewId}`;
