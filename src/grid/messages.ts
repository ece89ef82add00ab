// What the view grid (custom editor portal.grid) sends the host, declared once as valibot schemas; the
// types are inferred from them (protocol.ts re-exports them to both sides). The host checks every message
// against gridToHostSchema where it enters (src/webviews/messages.ts): a page is a browser sandbox.
import * as v from 'valibot';
import { count, id, openRecordSchema, readySchema, viewFilterSchema } from '../shared/panelMessages';

// Cells are named by record id and field_id_in_data; a block
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
/** Hidden, ordered and frozen columns, kept per view by the host. */
const gridLayoutSchema = v.object({ type: v.literal('grid/layout'), order: v.array(id), hidden: v.array(id), frozen: count });

/**
 * What every editor of a view's document (the grid, and the board on the grid's model) sends, under its
 * prefix: its own messages come on top of these.
 */
export function documentEditorSchemas<P extends 'grid' | 'board'>(prefix: P) {
  return [
    /** A conflict held back at save, resolved one way. */
    v.object({
      type: v.literal(`${prefix}/resolve` as const),
      recordId: id,
      action: v.picklist(['compare', 'keepMine', 'takeTheirs']),
    }),
    v.object({ type: v.literal(`${prefix}/save` as const) }),
    /** Read the view again with these filters (the builder above the editor); the pending changes stay. */
    v.object({ type: v.literal(`${prefix}/filter` as const), filters: v.array(viewFilterSchema) }),
    /** Discard every pending change (the host confirms, then reverts the editor: the view is read again). */
    v.object({ type: v.literal(`${prefix}/discard` as const) }),
    /** Read the view again after its rows could not be read, or were read partially (pending changes kept). */
    v.object({ type: v.literal(`${prefix}/retry` as const) }),
    /** Stop reading the view's rows (the loading line's Cancel): the rows read stay, marked partial. */
    v.object({ type: v.literal(`${prefix}/cancelLoad` as const) }),
  ] as const;
}
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

export const gridToHostSchema = v.variant('type', [
  readySchema,
  openRecordSchema,
  gridEditSchema,
  gridPasteSchema,
  gridFillSchema,
  gridClearSchema,
  gridCopySchema,
  gridLayoutSchema,
  ...documentEditorSchemas('grid'),
  gridAddRowSchema,
  gridOpenLinkedSchema,
  gridBulkSchema,
]);

export type GridBlock = v.InferOutput<typeof blockSchema>;
export type GridToHostMessage = v.InferOutput<typeof gridToHostSchema>;
/** What every editor of a view's document sends under its prefix (`documentEditorSchemas`). */
export type EditorToHostMessage<P extends 'grid' | 'board'> = v.InferOutput<ReturnType<typeof documentEditorSchemas<P>>[number]>;
