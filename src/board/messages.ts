// What the board (custom editor portal.board) sends the host, declared once as valibot schemas; the types
// are inferred from them (protocol.ts re-exports them to both sides). The host checks every message
// against boardToHostSchema where it enters, as it does the grid's: a page is a browser sandbox.
import * as v from 'valibot';
import { viewFilterSchema } from '../shared/panelMessages';

const id = v.pipe(v.string(), v.nonEmpty());
const count = v.pipe(v.number(), v.integer(), v.minValue(0));
/** A column's or lane's key: a choice id, a USER column's value, or '' for "none". */
const placeKey = v.pipe(v.string(), v.maxLength(2000));

/** Which column makes the board's columns, which its lanes (none: no lanes), and the fields a card shows. */
export const boardDefinitionSchema = v.object({
  column: id,
  lanes: v.optional(id),
  fields: v.pipe(v.array(id), v.maxLength(50)),
});

export const boardPlaceSchema = v.object({ column: placeKey, lane: v.optional(placeKey) });

const readySchema = v.object({ type: v.literal('ready') });
const openRecordSchema = v.object({ type: v.literal('openRecord'), recordId: id });
/** The cards [start, end) of one column (and lane) that are in sight. */
const boardWindowSchema = v.object({ type: v.literal('board/window'), place: boardPlaceSchema, start: count, end: count });
/** A card dropped on (or moved with the keyboard to) another column or lane: a pending edit of its field. */
const boardMoveSchema = v.object({ type: v.literal('board/move'), recordId: id, to: boardPlaceSchema });
/** The board's column, lanes and fields chosen in the page: kept per view. */
const boardDefineSchema = v.object({ type: v.literal('board/define'), definition: boardDefinitionSchema });
/** Read the view again with these filters (the builder above the board); pending moves stay. */
const boardFilterSchema = v.object({ type: v.literal('board/filter'), filters: v.array(viewFilterSchema) });
const boardSaveSchema = v.object({ type: v.literal('board/save') });
const boardDiscardSchema = v.object({ type: v.literal('board/discard') });
const boardResolveSchema = v.object({
  type: v.literal('board/resolve'),
  recordId: id,
  action: v.picklist(['compare', 'keepMine', 'takeTheirs']),
});
const boardRetrySchema = v.object({ type: v.literal('board/retry') });
const boardCancelLoadSchema = v.object({ type: v.literal('board/cancelLoad') });

export const boardToHostSchema = v.variant('type', [
  readySchema,
  openRecordSchema,
  boardWindowSchema,
  boardMoveSchema,
  boardDefineSchema,
  boardFilterSchema,
  boardSaveSchema,
  boardDiscardSchema,
  boardResolveSchema,
  boardRetrySchema,
  boardCancelLoadSchema,
]);

export type BoardDefinition = v.InferOutput<typeof boardDefinitionSchema>;
export type BoardPlace = v.InferOutput<typeof boardPlaceSchema>;
export type BoardToHostMessage = v.InferOutput<typeof boardToHostSchema>;
