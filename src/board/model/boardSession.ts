// One board over one grid model, without VS Code: the cards' places kept in step with the model (rows
// arriving, edits, undo, saves, webhooks), the messages that draw them (the counts at once, the cards in
// sight cell by cell) and a move as one labelled edit. The custom editor's page (host/boardPage.ts) and the
// webview suite's host stand-in drive the same code.
import type { GridModel } from '../../grid/model/gridModel';
import type { BoardCard, BoardDefinition, BoardInitMessage, BoardLayoutMessage, BoardPlace } from '../protocol';
import type { CellEdit } from '../../grid/model/changeSet';
import { displayValue } from '../../grid/values';
import {
  BoardGrouping,
  NONE,
  cellOf,
  defaultDefinition,
  definitionProblem,
  groupableColumns,
  laneColumns,
  moveEdits,
  moveLabel,
} from './boardModel';

/** Most cards one board/window answers (a page asks for the cards in sight, a few dozen). */
const WINDOW_LIMIT = 500;
/** The cards a layout gives a cell the page has not asked of yet: more than a tall cell shows of cards
 *  without fields (the page asks for the rest when it shows more). */
export const FIRST_CARDS = 30;
/** Most cards one layout carries: a board of many lanes has cells beyond these ask for theirs. */
export const LAYOUT_CARDS_LIMIT = 600;

/** Rows to place again: changed (edits, undo, saves, webhooks), gone, and new rows created at save (renamed). */
export interface BoardRowsChange {
  readonly changed: readonly string[];
  readonly removed: readonly string[];
  readonly renamed: ReadonlyArray<readonly [string, string]>;
}

/** The init message of a board over `columns`: the kept definition when it still fits, else the first Choice column. */
export function boardStart(
  columns: GridModel['columns'],
  kept: BoardDefinition | undefined,
  viewName: string,
): Pick<BoardInitMessage, 'definition' | 'problem' | 'options'> {
  const keptProblem = kept && definitionProblem(kept, columns);
  const definition = kept && !keptProblem ? kept : defaultDefinition(columns);
  const problem = definition
    ? keptProblem
    : `${viewName} has no Choice column with a single choice that the board could make its columns of.`;
  const option = (column: { key: string; name: string }): { key: string; name: string } => ({ key: column.key, name: column.name });
  return {
    ...(definition ? { definition } : {}),
    ...(problem ? { problem } : {}),
    options: { columns: groupableColumns(columns).map(option), lanes: laneColumns(columns).map(option), fields: columns.map(option) },
  };
}

export class BoardSession {
  private readonly grouping: BoardGrouping | undefined;
  /** The card the last move was of: the layout after it says where it went, for the page to keep its focus. */
  private lastMoved: string | undefined;
  /** The window the page last asked of each cell (by keyOf): each layout carries those cards again. */
  private readonly windows = new Map<string, [number, number]>();

  /** Groups every row the model holds now (a definition the columns cannot draw gives an empty board). */
  constructor(
    private readonly model: GridModel,
    readonly definition: BoardDefinition | undefined,
    private readonly titleField: string | undefined,
  ) {
    const byKey = new Map(model.columns.map((column) => [column.key, column]));
    const column = definition && byKey.get(definition.column);
    if (!definition || !column) return;
    const lanes = definition.lanes === undefined ? undefined : byKey.get(definition.lanes);
    this.grouping = new BoardGrouping(column, lanes);
    this.arrived(model.layout([]).rowIds);
  }

  get hasColumns(): boolean {
    return this.grouping !== undefined;
  }

  /** Rows appended to the model. */
  arrived(recordIds: readonly string[]): void {
    const grouping = this.grouping;
    if (!grouping) return;
    for (const recordId of recordIds) grouping.place(recordId, this.model.fieldValues(recordId, grouping.fields));
  }

  /** Rows the model redrew; returns the layout to send (with the moved card's new place). */
  rowsChanged(change: BoardRowsChange): BoardLayoutMessage | undefined {
    const grouping = this.grouping;
    if (!grouping) return undefined;
    for (const [from] of change.renamed) grouping.remove(from);
    for (const recordId of change.removed) grouping.remove(recordId);
    for (const recordId of change.changed)
      if (this.model.hasRow(recordId)) grouping.place(recordId, this.model.fieldValues(recordId, grouping.fields));
    const moved = this.lastMoved;
    this.lastMoved = undefined;
    const place = moved === undefined ? undefined : grouping.where(moved);
    return this.layout(moved !== undefined && place ? { recordId: moved, place, index: grouping.indexOf(moved) } : undefined);
  }

  /** The columns and lanes with their counts. */
  layout(moved?: BoardLayoutMessage['moved']): BoardLayoutMessage | undefined {
    const grouping = this.grouping;
    if (!grouping) return undefined;
    const columns = grouping.columns.entries().map((entry) => ({ ...entry, count: grouping.countOf(entry.key) }));
    const lanes = grouping.lanes?.entries().map((entry) => ({ ...entry, count: grouping.laneCount(entry.key) }));
    const cells: Array<[string, string, number]> = [];
    for (const column of columns) {
      for (const lane of lanes ?? [{ key: NONE }]) {
        const count = lanes ? grouping.countOf(column.key, lane.key) : column.count;
        if (count > 0) cells.push([column.key, lane.key, count]);
      }
    }
    return {
      type: 'board/layout',
      columns,
      ...(lanes ? { lanes } : {}),
      cells,
      total: grouping.size,
      pending: this.model.pendingRows().length,
      ...(moved ? { moved } : {}),
      cards: this.cardsInSight(cells),
    };
  }

  /** The cards in sight of each cell, as the page last asked for them (its first cards before it asked). */
  private cardsInSight(cells: ReadonlyArray<[string, string, number]>): NonNullable<BoardLayoutMessage['cards']> {
    const given: NonNullable<BoardLayoutMessage['cards']> = [];
    let room = LAYOUT_CARDS_LIMIT;
    for (const [column, lane, count] of cells) {
      const place = this.normal({ column, lane });
      const [start, end] = this.windows.get(cellOf(place)) ?? [0, FIRST_CARDS];
      const upTo = Math.min(end, count, start + room);
      if (upTo <= start) continue;
      const cards = this.cards(place, start, upTo);
      room -= cards.length;
      given.push({ place, start, cards });
      if (room <= 0) break;
    }
    return given;
  }

  /** The place a page named, with the lane a board without lanes leaves out. */
  normal(place: BoardPlace): BoardPlace {
    return this.grouping?.normal(place) ?? place;
  }

  /** The cards a page asked for (board/window): remembered, so that each layout carries them again. */
  window(place: BoardPlace, start: number, end: number): BoardCard[] {
    const normal = this.normal(place);
    this.windows.set(cellOf(normal), [start, Math.min(end, start + WINDOW_LIMIT)]);
    return this.cards(normal, start, end);
  }

  /** The cards [start, end) of one cell, as the page draws them. */
  cards(place: BoardPlace, start: number, end: number): BoardCard[] {
    const grouping = this.grouping;
    if (!grouping) return [];
    const columns = this.model.columns;
    const index = new Map(columns.map((column, at) => [column.key, at]));
    const titleAt = index.get(this.titleField ?? '') ?? 0;
    const placeFields = new Set(grouping.fields.map((key) => index.get(key)));
    const shown = (this.definition?.fields ?? []).flatMap((key) => {
      const at = index.get(key);
      return at === undefined || at === titleAt ? [] : [at];
    });
    return grouping.cards(place, start, Math.min(end, start + WINDOW_LIMIT)).map((recordId) => {
      const state = this.model.rowState(recordId);
      const text = (at: number): string => {
        const column = columns[at];
        return column ? displayValue(column, state.values[at] ?? '') : '';
      };
      const problem = state.saveFailure ?? state.problems[0]?.[1];
      return {
        recordId,
        title: text(titleAt) || `Record ${recordId}`,
        fields: shown.map((at): [string, string] => [columns[at].name, text(at)]),
        ...(state.pending.some((at) => placeFields.has(at)) ? { pending: true } : {}),
        ...(state.conflict ? { conflict: state.conflict } : {}),
        ...(problem ? { problem } : {}),
      };
    });
  }

  /** A card's move as one edit of the grid's model: its label for the undo stack, and the cells. */
  move(recordId: string, to: BoardPlace): { label: string; edits: CellEdit[] } {
    const grouping = this.grouping;
    if (!grouping) throw new Error('This board has no columns to move a card to.');
    const edits = moveEdits(grouping, recordId, to);
    const at = grouping.indexOf(recordId);
    const from = grouping.where(recordId);
    const [card] = from && at >= 0 ? this.cards(from, at, at + 1) : [];
    if (edits.length > 0) this.lastMoved = recordId;
    return { label: moveLabel(grouping, card?.title ?? `record ${recordId}`, grouping.normal(to)), edits };
  }

  /** The move was refused (an invalid cell): no card moved. */
  moveRefused(): void {
    this.lastMoved = undefined;
  }
}
