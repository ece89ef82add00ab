// The messages the panels send to the host, declared once: one valibot schema per message, the TypeScript
// type inferred from it (protocol.ts exports the types to both sides). The host checks every message
// against these where it enters (src/webviews/messages.ts): a page is a browser sandbox, and what it
// sends is not ours to trust. The panels import only the types, so their bundles carry none of this.
import { FILTER_OPERATORS, type FilterOperatorName } from '../api/types';
import * as v from 'valibot';

export const id = v.pipe(v.string(), v.nonEmpty());
export const count = v.pipe(v.number(), v.integer(), v.minValue(0));

const operatorNames = Object.keys(FILTER_OPERATORS) as [FilterOperatorName, ...FilterOperatorName[]];

export const viewFilterSchema = v.object({
  column: id,
  operator: v.picklist(operatorNames),
  value: v.optional(v.string()),
  lookupApp: v.optional(id),
});

export const readySchema = v.object({ type: v.literal('ready') });
export const openRecordSchema = v.object({ type: v.literal('openRecord'), recordId: id });
/** Load the panel again after its load failed (the Retry of form/loadFailed and query/loadFailed). */
const retrySchema = v.object({ type: v.literal('retry') });

const formCreateSchema = v.object({
  type: v.literal('form/create'),
  /** Values in the API's formats (date-times already in UTC), keyed by field_id_in_data; empty ones left out. */
  data: v.record(v.string(), v.string()),
  draft: v.boolean(),
});

const sortSchema = v.object({ key: id, direction: v.picklist(['ascending', 'descending']) });

const queryRunSchema = v.object({
  type: v.literal('query/run'),
  /** Chosen by the panel, increasing; answers carry it so that a late answer to an older run is dropped. */
  runId: count,
  filters: v.array(viewFilterSchema),
  /** A saved query's: the result sorted so once it is in (the grid sorts by one column). */
  sort: v.optional(sortSchema),
  /** A saved query's: the columns shown, in this order (field_id_in_data). */
  columns: v.optional(v.array(id)),
});

/** Rows [start, end) of the result, in the order of `sortVersion`, for the grid. */
const queryWindowSchema = v.object({ type: v.literal('query/window'), runId: count, sortVersion: count, start: count, end: count });

/** Sort the result (or back to the portal's order); the host answers query/sorted. */
const querySortSchema = v.object({ type: v.literal('query/sort'), runId: count, sort: v.optional(sortSchema) });

/** Stop reading the run's rows: those read so far stay, marked partial. */
const queryCancelSchema = v.object({ type: v.literal('query/cancel'), runId: count });

/** Export every row of the result, in the grid's current order. */
const queryExportSchema = v.object({ type: v.literal('query/export'), format: v.picklist(['csv', 'json']) });

/** "Save query": the host asks for the name (suggesting `name`, the saved query last loaded). */
const querySaveSchema = v.object({ type: v.literal('query/save'), filters: v.array(viewFilterSchema), name: v.optional(v.string()) });

/** Positions [start, end) of rows in the order the grid shows them. */
const rowRangeSchema = v.object({ start: count, end: count });

/**
 * Bulk change of the query's rows: the rows selected in the grid (`rows`: their positions in the order
 * shown, which the host maps to record ids), or every row of the result when none is given. The host runs
 * portal.bulkSetField / portal.bulkDeleteRows on them.
 */
// Strict: a key it does not know (record ids, say) is refused, not dropped, which would mean every row.
const queryBulkSchema = v.strictObject({
  type: v.literal('query/bulk'),
  change: v.picklist(['set-field', 'delete']),
  runId: v.pipe(v.number(), v.integer(), v.minValue(0)),
  sortVersion: v.pipe(v.number(), v.integer(), v.minValue(0)),
  rows: v.optional(v.pipe(v.array(rowRangeSchema), v.minLength(1))),
});

// The import mapping panel (view type portal.importMapping).

/** What a source column feeds: "field:<field_id_in_data>", "recordId" or "ignore". */
const importTargetSchema = v.union([v.pipe(v.string(), v.regex(/^field:.+$/)), v.literal('recordId'), v.literal('ignore')]);

const importSetTargetSchema = v.object({ type: v.literal('import/setTarget'), source: v.string(), target: importTargetSchema });

export const importOptionsSchema = v.object({
  mode: v.picklist(['create', 'upsert']),
  /** Upsert: the unique column (field_id_in_data) whose value finds the record; none: the record id column only. */
  matchField: v.optional(id),
  /** Upsert: the view through which existing records are read. */
  viewId: v.optional(id),
  draft: v.picklist(['draft', 'published']),
  decimalSeparator: v.picklist(['.', ',']),
  /** IANA time zone of date-times written without an offset. */
  timeZone: v.pipe(v.string(), v.nonEmpty()),
  /** Rows whose quotes break the file (a quote never closed): the run refuses to start unless 'skip'. */
  unreadableRows: v.optional(v.picklist(['stop', 'skip'])),
});

const importOptionsMessageSchema = v.object({ type: v.literal('import/options'), options: importOptionsSchema });
const importDryRunSchema = v.object({ type: v.literal('import/dryRun') });
const importRunSchema = v.object({ type: v.literal('import/run') });
const importExportProblemsSchema = v.object({ type: v.literal('import/exportProblems') });

export const formToHostSchema = v.variant('type', [readySchema, formCreateSchema, openRecordSchema, retrySchema]);
export const queryToHostSchema = v.variant('type', [
  readySchema,
  retrySchema,
  queryRunSchema,
  queryWindowSchema,
  querySortSchema,
  queryCancelSchema,
  openRecordSchema,
  queryExportSchema,
  querySaveSchema,
  queryBulkSchema,
]);

export const importToHostSchema = v.variant('type', [
  readySchema,
  retrySchema,
  importSetTargetSchema,
  importOptionsMessageSchema,
  importDryRunSchema,
  importRunSchema,
  importExportProblemsSchema,
]);

export type FormToHostMessage = v.InferOutput<typeof formToHostSchema>;
export type SortSpec = v.InferOutput<typeof sortSchema>;
export type SortDirection = SortSpec['direction'];
export type QueryRunMessage = v.InferOutput<typeof queryRunSchema>;
export type QueryWindowMessage = v.InferOutput<typeof queryWindowSchema>;
export type QuerySortMessage = v.InferOutput<typeof querySortSchema>;
export type QueryCancelMessage = v.InferOutput<typeof queryCancelSchema>;
export type QueryExportMessage = v.InferOutput<typeof queryExportSchema>;
export type QueryBulkMessage = v.InferOutput<typeof queryBulkSchema>;
export type ImportTargetValue = v.InferOutput<typeof importTargetSchema>;
export type ImportOptions = v.InferOutput<typeof importOptionsSchema>;
export type ImportToHostMessage = v.InferOutput<typeof importToHostSchema>;
export type QueryToHostMessage = v.InferOutput<typeof queryToHostSchema>;

// What a page keeps in its state (VS Code hands it back to the serializer after a reload): the panel's
// target, which the host sent in its init message, beside the page's own state (filters, values entered).
const formRestoreSchema = v.object({ portalId: id, appId: id });
const queryRestoreSchema = v.object({ portalId: id, appId: id, viewId: id, viewName: v.optional(v.string()) });
export const restoredFormSchema = v.looseObject({ restore: formRestoreSchema });
export const restoredQuerySchema = v.looseObject({ restore: queryRestoreSchema });
export type FormRestore = v.InferOutput<typeof formRestoreSchema>;
export type QueryRestore = v.InferOutput<typeof queryRestoreSchema>;

/** A message's schema, for the one place messages enter (src/webviews/messages.ts). */
export type MessageSchema<T> = v.GenericSchema<unknown, T>;

/** The first problem of a message that fails its schema, in words for the log and the user. */
export function checkMessage<T>(schema: MessageSchema<T>, message: unknown): { ok: true; message: T } | { ok: false; problem: string } {
  const result = v.safeParse(schema, message);
  if (result.success) return { ok: true, message: result.output };
  const [first] = result.issues;
  const path = first.path?.map((item) => String(item.key)).join('.') ?? '';
  return { ok: false, problem: `${path === '' ? '' : `${path}: `}${first.message}` };
}
