// The messages the panels send to the host, declared once: one valibot schema per message, the TypeScript
// type inferred from it (protocol.ts exports the types to both sides). The host checks every message
// against these where it enters (src/webviews/messages.ts): a page is a browser sandbox, and what it
// sends is not ours to trust. The panels import only the types, so their bundles carry none of this.
import { FILTER_OPERATORS, type FilterOperatorName } from '../api/types';
import * as v from 'valibot';

const id = v.pipe(v.string(), v.nonEmpty());
const count = v.pipe(v.number(), v.integer(), v.minValue(0));

const operatorNames = Object.keys(FILTER_OPERATORS) as [FilterOperatorName, ...FilterOperatorName[]];

export const viewFilterSchema = v.object({
  column: id,
  operator: v.picklist(operatorNames),
  value: v.optional(v.string()),
  lookupApp: v.optional(id),
});

const readySchema = v.object({ type: v.literal('ready') });
const openRecordSchema = v.object({ type: v.literal('openRecord'), recordId: id });
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

// The view grid (custom editor portal.grid). Cells are named by record id and field_id_in_data; a block
// by its display rows (the host's row order, which the page never changes) and its columns' keys in the
// order the page shows them (hidden and moved columns are the page's business).
const cellEditSchema = v.object({ recordId: id, field: id, value: v.string() });
const blockSchema = v.object({ top: count, bottom: count, columns: v.pipe(v.array(id), v.minLength(1)) });

/** Values typed into cells (one transaction): in the API's format, converted by the page as the form does. */
const gridEditSchema = v.object({
  type: v.literal('grid/edit'),
  label: v.string(),
  edits: v.pipe(v.array(cellEditSchema), v.minLength(1)),
});
/** Clipboard text (TSV) pasted at the block's top-left cell (or tiled over the block). */
const gridPasteSchema = v.object({
  type: v.literal('grid/paste'),
  /** Every shown column from the selection's first on (a block may reach beyond the selection)... */
  block: blockSchema,
  /** ...of which the first `width` are selected. */
  width: v.pipe(v.number(), v.integer(), v.minValue(1)),
  /**
   * The clipboard's text as the page's paste event had it; left out when the event carried none (VS Code
   * in a browser pastes into a webview without the clipboard's data): the host reads its clipboard.
   */
  text: v.optional(v.string()),
  /** The page's IANA time zone: date & time are read in it, as the page shows them. */
  timeZone: v.optional(v.pipe(v.string(), v.maxLength(100))),
});
const gridFillSchema = v.object({ type: v.literal('grid/fill'), block: blockSchema });
const gridClearSchema = v.object({ type: v.literal('grid/clear'), block: blockSchema });
const gridCopySchema = v.object({
  type: v.literal('grid/copy'),
  block: blockSchema,
  format: v.picklist(['tsv', 'csv', 'json', 'markdown']),
  timeZone: v.optional(v.pipe(v.string(), v.maxLength(100))),
});
/** A conflict held back at save, resolved one way. */
const gridResolveSchema = v.object({
  type: v.literal('grid/resolve'),
  recordId: id,
  action: v.picklist(['compare', 'keepMine', 'takeTheirs']),
});
/** Hidden, ordered and frozen columns, kept per view by the host. */
const gridLayoutSchema = v.object({ type: v.literal('grid/layout'), order: v.array(id), hidden: v.array(id), frozen: count });
const gridSaveSchema = v.object({ type: v.literal('grid/save') });
/** Read the view again with these filters (the builder above the grid); the pending changes stay. */
const gridFilterSchema = v.object({ type: v.literal('grid/filter'), filters: v.array(viewFilterSchema) });
/** Discard every pending change (the host confirms, then reverts the editor: the view is read again). */
const gridDiscardSchema = v.object({ type: v.literal('grid/discard') });
/** Read the view again after its rows could not be read, or were read partially (pending changes kept). */
const gridRetrySchema = v.object({ type: v.literal('grid/retry') });
/** Stop reading the view's rows (the loading line's Cancel): the rows read stay, the grid is marked partial. */
const gridCancelLoadSchema = v.object({ type: v.literal('grid/cancelLoad') });
/** Enter on a LookUp cell: open the record it links to. */
const gridOpenLinkedSchema = v.object({ type: v.literal('grid/openLinked'), recordId: id, field: id });
/** Add an empty row at the end, created as a record (a draft with Draft mode) at save. */
const gridAddRowSchema = v.object({ type: v.literal('grid/addRow') });
/**
 * Set Field… / Delete Rows… on the selected rows (`recordIds`), or on every row of the grid (the filtered
 * result) when none is given: the host runs portal.bulkSetField / portal.bulkDeleteRows on them.
 */
const gridBulkSchema = v.object({
  type: v.literal('grid/bulk'),
  change: v.picklist(['set-field', 'delete']),
  recordIds: v.optional(v.pipe(v.array(id), v.minLength(1))),
});

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

export const gridToHostSchema = v.variant('type', [
  readySchema,
  openRecordSchema,
  gridEditSchema,
  gridPasteSchema,
  gridFillSchema,
  gridClearSchema,
  gridCopySchema,
  gridResolveSchema,
  gridLayoutSchema,
  gridSaveSchema,
  gridAddRowSchema,
  gridOpenLinkedSchema,
  gridDiscardSchema,
  gridRetrySchema,
  gridCancelLoadSchema,
  gridFilterSchema,
  gridBulkSchema,
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

export type ReadyMessage = v.InferOutput<typeof readySchema>;
export type OpenRecordMessage = v.InferOutput<typeof openRecordSchema>;
export type RetryMessage = v.InferOutput<typeof retrySchema>;
export type FormCreateMessage = v.InferOutput<typeof formCreateSchema>;
export type FormToHostMessage = v.InferOutput<typeof formToHostSchema>;
export type SortSpec = v.InferOutput<typeof sortSchema>;
export type SortDirection = SortSpec['direction'];
export type QueryRunMessage = v.InferOutput<typeof queryRunSchema>;
export type QueryWindowMessage = v.InferOutput<typeof queryWindowSchema>;
export type QuerySortMessage = v.InferOutput<typeof querySortSchema>;
export type QueryCancelMessage = v.InferOutput<typeof queryCancelSchema>;
export type QueryExportMessage = v.InferOutput<typeof queryExportSchema>;
export type QuerySaveMessage = v.InferOutput<typeof querySaveSchema>;
export type QueryBulkMessage = v.InferOutput<typeof queryBulkSchema>;
export type ImportTargetValue = v.InferOutput<typeof importTargetSchema>;
export type ImportOptions = v.InferOutput<typeof importOptionsSchema>;
export type ImportToHostMessage = v.InferOutput<typeof importToHostSchema>;
export type QueryToHostMessage = v.InferOutput<typeof queryToHostSchema>;

export type GridBlock = v.InferOutput<typeof blockSchema>;
export type GridCellEdit = v.InferOutput<typeof cellEditSchema>;
export type GridLayoutMessage = v.InferOutput<typeof gridLayoutSchema>;
export type GridToHostMessage = v.InferOutput<typeof gridToHostSchema>;

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
