// What the board (custom editor portal.board) sends the host, declared once as valibot schemas; the types
// are inferred from them (protocol.ts re-exports them to both sides). The host checks every message
// against boardToHostSchema where it enters, as it does the grid's: a page is a browser sandbox.
import * as v from 'valibot';
import { documentEditorSchemas } from '../grid/messages';
import { count, id, openRecordSchema, readySchema } from '../shared/panelMessages';

/** A column's or lane's key: a choice id, a USER column's value, or '' for "none". */
const placeKey = v.pipe(v.string(), v.maxLength(2000));

/** Which column makes the board's columns, which its lanes (none: no lanes), and the fields a card shows. */
export const boardDefinitionSchema = v.object({
  column: id,
  lanes: v.optional(id),
  fields: v.pipe(v.array(id), v.maxLength(50)),
});

export const boardPlaceSchema = v.object({ column: placeKey, lane: v.optional(placeKey) });

/** The cards [start, end) of one column (and lane) that are in sight. */
const boardWindowSchema = v.object({ type: v.literal('board/window'), place: boardPlaceSchema, start: count, end: count });
/** A card dropped on (or moved with the keyboard to) another column or lane: a pending edit of its field. */
const boardMoveSchema = v.object({ type: v.literal('board/move'), recordId: id, to: boardPlaceSchema });
/** The board's column, lanes and fields chosen in the page: kept per view. */
const boardDefineSchema = v.object({ type: v.literal('board/define'), definition: boardDefinitionSchema });

export const boardToHostSchema = v.variant('type', [
  readySchema,
  openRecordSchema,
  boardWindowSchema,
  boardMoveSchema,
  boardDefineSchema,
  ...documentEditorSchemas('board'),
]);

export type BoardDefinition = v.InferOutput<typeof boardDefinitionSchema>;
export type BoardPlace = v.InferOutput<typeof boardPlaceSchema>;
export type BoardToHostMessage = v.InferOutput<typeof boardToHostSchema>;
