// The grid's block actions, worked out as plain cell edits before anything changes: paste a clipboard
// block at the selection, fill down, clear, and the block that copy puts on the clipboard. Each action
// becomes one transaction of EditHistory; every cell that cannot take its value is reported (read-only,
// unreadable text, a value the rules refuse) and left as it was, so a paste never half-writes a cell.
import type { CellEdit, CellRef, ChangeSet } from './changeSet';
import { textToValue, valueToText, type TextOptions } from './cellText';
import { readTsv, writeBlock, type CopyBlock, type CopyFormat } from './clipboardText';

/** What the grid shows, in display order (after sorting, hiding and reordering columns). */
export interface GridLayout {
  /** Record ids of the rows. */
  readonly rowIds: readonly string[];
  /** The columns: field_id_in_data (a view's l<N> keys included) and the name shown in the header. */
  readonly columns: ReadonlyArray<{ readonly key: string; readonly name: string }>;
}

/** Display indices, inclusive. */
export interface CellRange {
  readonly top: number;
  readonly left: number;
  readonly bottom: number;
  readonly right: number;
}

export interface FailedCell extends CellRef {
  readonly row: number;
  readonly column: number;
  /** The text that was to go in the cell. */
  readonly text: string;
  readonly message: string;
}

export interface BlockPlan {
  readonly edits: CellEdit[];
  readonly failed: FailedCell[];
  /** The cells the action covers (for the selection after a paste). */
  readonly range: CellRange;
}

export interface PastePlan extends BlockPlan {
  /** Rows and columns of the clipboard block that fell beyond the grid's last row or column. */
  readonly cutOff: { readonly rows: number; readonly columns: number };
}

function clampRange(layout: GridLayout, range: CellRange): CellRange {
  return {
    top: Math.max(0, range.top),
    left: Math.max(0, range.left),
    bottom: Math.min(layout.rowIds.length - 1, range.bottom),
    right: Math.min(layout.columns.length - 1, range.right),
  };
}

/** Plans putting `text` (already in the API's format, or entered text when `entered`) into one cell. */
function planCell(
  changeSet: ChangeSet,
  layout: GridLayout,
  row: number,
  column: number,
  text: string,
  options: TextOptions | undefined,
  plan: BlockPlan,
): void {
  const recordId = layout.rowIds[row];
  const field = layout.columns[column].key;
  const fail = (message: string): void => void plan.failed.push({ recordId, field, row, column, text, message });
  const refused = changeSet.refusal(field);
  if (refused) return fail(refused);
  const appColumn = changeSet.column(field);
  const converted = options && appColumn ? textToValue(appColumn, text, options) : { value: text };
  if (converted.problem !== undefined) return fail(converted.problem);
  const problem = changeSet.check(field, converted.value);
  if (problem) return fail(problem);
  plan.edits.push({ recordId, field, value: converted.value });
}

/**
 * Pastes a TSV block at the selection's top-left cell. A selection that is a whole multiple of the block
 * (a single value over a range, two rows over six) is filled by repeating the block, as spreadsheets do;
 * otherwise the block keeps its own size and what falls beyond the grid is cut off and counted.
 */
export function planPaste(changeSet: ChangeSet, layout: GridLayout, selection: CellRange, text: string, options: TextOptions): PastePlan {
  const block = readTsv(text);
  const height = block.length;
  const width = block.reduce((widest, row) => Math.max(widest, row.length), 1);
  const selectedRows = selection.bottom - selection.top + 1;
  const selectedColumns = selection.right - selection.left + 1;
  const tiles = selectedRows % height === 0 && selectedColumns % width === 0 && selectedRows * selectedColumns > height * width;
  const wanted = tiles ? selection : { ...selection, bottom: selection.top + height - 1, right: selection.left + width - 1 };
  const range = clampRange(layout, wanted);
  const plan: PastePlan = {
    edits: [],
    failed: [],
    range,
    cutOff: { rows: wanted.bottom - range.bottom, columns: wanted.right - range.right },
  };
  for (let row = range.top; row <= range.bottom; row += 1) {
    const source = block[(row - range.top) % height];
    for (let column = range.left; column <= range.right; column += 1) {
      planCell(changeSet, layout, row, column, source[(column - range.left) % width] ?? '', options, plan);
    }
  }
  return plan;
}

/** Each column's top cell of the selection copied into the cells below it. */
export function planFillDown(changeSet: ChangeSet, layout: GridLayout, selection: CellRange): BlockPlan {
  const range = clampRange(layout, selection);
  const plan: BlockPlan = { edits: [], failed: [], range };
  for (let column = range.left; column <= range.right; column += 1) {
    const field = layout.columns[column].key;
    const value = changeSet.value(layout.rowIds[range.top], field);
    for (let row = range.top + 1; row <= range.bottom; row += 1) {
      if (changeSet.value(layout.rowIds[row], field) !== value) planCell(changeSet, layout, row, column, value, undefined, plan);
    }
  }
  return plan;
}

/** Every selected cell emptied; read-only and required cells are reported. */
export function planClear(changeSet: ChangeSet, layout: GridLayout, selection: CellRange): BlockPlan {
  const range = clampRange(layout, selection);
  const plan: BlockPlan = { edits: [], failed: [], range };
  for (let row = range.top; row <= range.bottom; row += 1) {
    for (let column = range.left; column <= range.right; column += 1) {
      if (changeSet.value(layout.rowIds[row], layout.columns[column].key) !== '')
        planCell(changeSet, layout, row, column, '', undefined, plan);
    }
  }
  return plan;
}

/** The selected cells (pending edits included) as clipboard text; whole rows are a range over every column. */
export function copyText(
  changeSet: ChangeSet,
  layout: GridLayout,
  selection: CellRange,
  format: CopyFormat,
  options: Pick<TextOptions, 'utcOffset'>,
): string {
  const range = clampRange(layout, selection);
  const columns = layout.columns.slice(range.left, range.right + 1);
  const appColumns = columns.map((column) => changeSet.column(column.key));
  const recordIds = layout.rowIds.slice(range.top, range.bottom + 1);
  const values = recordIds.map((recordId) => columns.map((column) => changeSet.value(recordId, column.key)));
  const block: CopyBlock = {
    header: columns.map((column) => column.name),
    keys: columns.map((column) => column.key),
    recordIds,
    values,
    text: values.map((row) => row.map((value, index) => valueToText(appColumns[index], value, options))),
  };
  return writeBlock(block, format);
}
