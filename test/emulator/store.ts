// The portal's state: sites, apps (with their Draft-mode and comments-plugin settings), columns, views and
// records. Records of the big app are generated on demand (generate.ts) and only kept once they change.
// `version` grows with every change of any record, so cached view bodies know when they are stale.
import { ticketGenerator } from './generate';
import type { AppDef, ColumnDef, SiteDef, StoredRecord, ViewDef } from './model';
import { fieldKey } from './model';
import { CUSTOMERS, SEED_RECORDS, SITES, TICKETS } from './seed';

const SEED_TIME = '2026-01-01T00:00:00.000Z';

/** The records of one app: generated ones (1..generatedCount) unless changed, then everything kept. */
export class AppRecords {
  private readonly kept = new Map<number, StoredRecord>();
  private nextNum: number;

  constructor(
    private readonly generatedCount = 0,
    private readonly generate?: (n: number) => Record<string, string>,
  ) {
    this.nextNum = generatedCount + 1;
  }

  /** The record as stored (trash included); do not change what this returns, use forWrite(). */
  peek(num: number): Readonly<StoredRecord> | undefined {
    const kept = this.kept.get(num);
    if (kept || num > this.generatedCount || num < 1 || !this.generate) return kept;
    return {
      num,
      draft: false,
      trashed: false,
      data: this.generate(num),
      comments: [],
      attachments: [],
      created_at: SEED_TIME,
      updated_at: SEED_TIME,
    };
  }

  /** The record to change, now kept; undefined when there is none. */
  forWrite(num: number): StoredRecord | undefined {
    const kept = this.kept.get(num);
    if (kept) return kept;
    const generated = this.peek(num);
    if (!generated) return undefined;
    const record = { ...generated, data: { ...generated.data }, comments: [], attachments: [] };
    this.kept.set(num, record);
    return record;
  }

  /** Adds a record under the next number. */
  add(make: (num: number) => StoredRecord): StoredRecord {
    const record = make(this.nextNum++);
    this.kept.set(record.num, record);
    return record;
  }

  /** Records ever made, trash included (an upper bound of a view's rows). */
  get count(): number {
    return this.nextNum - 1;
  }

  /** Every record not in trash, in ascending id. */
  *live(): Generator<Readonly<StoredRecord>> {
    for (let num = 1; num < this.nextNum; num++) {
      const record = this.peek(num);
      if (record && !record.trashed) yield record;
    }
  }
}

export interface AppState {
  def: AppDef;
  site: SiteDef;
  draftMode: boolean;
  commentsPlugin: boolean;
  records: AppRecords;
}

/** "12" -> 12; anything but a positive whole number in canonical form -> undefined. */
export function recordNum(id: string): number | undefined {
  const num = Number(id);
  return Number.isSafeInteger(num) && num > 0 && String(num) === id ? num : undefined;
}

export class Store {
  readonly sites: SiteDef[] = SITES;
  private apps = new Map<string, AppState>();
  private readonly columns = new Map<string, { column: ColumnDef; app: AppDef }>();
  /** Grows with every change to any record. */
  version = 0;
  private nextChildId = 1;

  constructor(
    private bigViewRecords: number,
    private readonly seed: number,
  ) {
    for (const site of SITES)
      for (const app of site.apps) for (const column of app.columns) this.columns.set(column.field_id, { column, app });
    this.reset();
  }

  reset(): void {
    this.apps = new Map();
    this.nextChildId = 1;
    for (const site of SITES) {
      for (const def of site.apps) {
        const records = def.app_id === TICKETS ? this.ticketRecords() : new AppRecords();
        const state: AppState = { def, site, draftMode: def.draftMode, commentsPlugin: def.commentsPlugin, records };
        for (const seedRecord of SEED_RECORDS[def.app_id] ?? []) {
          records.add((num) => ({
            num,
            draft: seedRecord.draft ?? false,
            trashed: false,
            data: { ...this.autoNumbers(def, num), ...seedRecord.data },
            comments: [],
            attachments: [],
            created_at: SEED_TIME,
            updated_at: SEED_TIME,
          }));
        }
        this.apps.set(def.app_id, state);
      }
    }
    this.version++;
  }

  private ticketRecords(): AppRecords {
    return new AppRecords(this.bigViewRecords, ticketGenerator(this.seed, SEED_RECORDS[CUSTOMERS].length));
  }

  /** Regenerates Tickets with `count` records (changes to Tickets are forgotten); other apps keep theirs. */
  setBigViewRecords(count: number): void {
    if (count === this.bigViewRecords) return;
    this.bigViewRecords = count;
    const tickets = this.apps.get(TICKETS);
    if (tickets) tickets.records = this.ticketRecords();
    this.version++;
  }

  app(appId: string): AppState | undefined {
    return this.apps.get(appId);
  }

  allApps(): AppState[] {
    return [...this.apps.values()];
  }

  /** A column anywhere in the portal, with the app it belongs to. */
  column(fieldId: string): { column: ColumnDef; app: AppDef } | undefined {
    return this.columns.get(fieldId);
  }

  view(app: AppState, viewId: string): ViewDef | undefined {
    return app.def.views.find((view) => view.view_id === viewId);
  }

  /** Auto Number values of record `num` of `def`. */
  autoNumbers(def: AppDef, num: number): Record<string, string> {
    const values: Record<string, string> = {};
    for (const column of def.columns)
      if (column.kind === 'autonumber') values[fieldKey(column.field_id)] = String((column.autoStart ?? 1) + num - 1);
    return values;
  }

  /**
   * A function giving the live record of the Lookup app `lookupAppId` that a record of `app` links to.
   * Keys and apps are resolved once: views call these for every row.
   */
  linker(app: AppState, lookupAppId: string): (record: Readonly<StoredRecord>) => Readonly<StoredRecord> | undefined {
    const link = app.def.lookups.find((candidate) => candidate.appId === lookupAppId);
    const target = this.apps.get(lookupAppId);
    if (!link || !target) return () => undefined;
    const key = fieldKey(link.viaFieldId);
    return (record) => {
      const num = recordNum(record.data[key] ?? '');
      const linked = num === undefined ? undefined : target.records.peek(num);
      return linked && !linked.trashed ? linked : undefined;
    };
  }

  /** A function giving the value a column shows for a record of `app`: stored, or through the link for LookUp. */
  reader(app: AppState, column: ColumnDef): (record: Readonly<StoredRecord>) => string {
    if (column.kind !== 'lookup') {
      const key = fieldKey(column.field_id);
      return (record) => record.data[key] ?? '';
    }
    const target = column.lookupAppId ? this.apps.get(column.lookupAppId) : undefined;
    const targetColumn = column.lookupFieldId ? this.columns.get(column.lookupFieldId)?.column : undefined;
    if (!target || !targetColumn) return () => '';
    const linked = this.linker(app, target.def.app_id);
    const read = this.reader(target, targetColumn);
    return (record) => {
      const other = linked(record);
      return other ? read(other) : '';
    };
  }

  /** Every column's value, keyed by field_id_in_data, in column order. */
  data(app: AppState, record: Readonly<StoredRecord>): Record<string, string> {
    const data: Record<string, string> = {};
    for (const column of app.def.columns) data[fieldKey(column.field_id)] = this.reader(app, column)(record);
    return data;
  }

  /** A fresh id for a comment or an attachment. */
  childId(): string {
    return String(this.nextChildId++);
  }

  /** Marks a record changed; `valuesChanged` false for comments and attachments, which no view shows. */
  touch(record: StoredRecord, valuesChanged = true): void {
    record.updated_at = new Date().toISOString();
    if (valuesChanged) this.version++;
  }
}
