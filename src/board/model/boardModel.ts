// A view as a board, without VS Code: which columns can group it, the cards' places (a column per choice of
// a Choice column, lanes by a USER or another Choice column), and a card's move as the field edits it means.
// The host keeps one grouping per open board and hands the moves' edits to the grid's document model, so
// the board has no change set of its own. Unit-tested in plain node.
import type { ColumnKind } from '../../api/columnKinds';
import type { CellEdit } from '../../grid/model/changeSet';
import type { BoardDefinition, BoardPlace } from '../protocol';

/** The key of the "none" column or lane: the field is empty. */
export const NONE = '';

/** What the board needs of a view's column (the grid's GridEditColumn has it). */
export interface BoardFieldColumn {
  readonly key: string;
  readonly name: string;
  readonly kind: ColumnKind;
  readonly choices?: ReadonlyArray<{ readonly id: string; readonly name: string; readonly color?: string }>;
  /** Why the grid keeps the column read-only, if it does. */
  readonly locked?: string;
  /** The app's column: a multi-select Choice says so in its choice_type. */
  readonly column?: { readonly choice_type?: string };
}

export interface AxisEntry {
  readonly key: string;
  readonly name: string;
  readonly color?: string;
}

function isMulti(column: BoardFieldColumn): boolean {
  return column.column?.choice_type === '2';
}

/** The columns a board can take its columns from: single-select Choice columns the grid can edit. */
export function groupableColumns(columns: readonly BoardFieldColumn[]): BoardFieldColumn[] {
  return columns.filter((column) => column.kind === 'choice' && !isMulti(column) && !column.locked);
}

/** The columns a board can take its lanes from: USER columns and single-select Choice columns the grid can edit. */
export function laneColumns(columns: readonly BoardFieldColumn[]): BoardFieldColumn[] {
  return columns.filter((column) => (column.kind === 'user' || (column.kind === 'choice' && !isMulti(column))) && !column.locked);
}

/**
 * Why a definition cannot be drawn over these columns (the view changed, the file was edited by hand), in
 * words for the user; undefined when it can.
 */
export function definitionProblem(definition: BoardDefinition, columns: readonly BoardFieldColumn[]): string | undefined {
  const byKey = new Map(columns.map((column) => [column.key, column]));
  const column = byKey.get(definition.column);
  if (!column) return `The board's column field ${definition.column} is not among the view's columns.`;
  if (!groupableColumns(columns).includes(column))
    return `${column.name} cannot make the board's columns: they need a single-choice Choice column that can be edited.`;
  if (definition.lanes !== undefined) {
    if (definition.lanes === definition.column) return `${column.name} cannot make both the columns and the lanes of the board.`;
    const lanes = byKey.get(definition.lanes);
    if (!lanes) return `The board's lane field ${definition.lanes} is not among the view's columns.`;
    if (!laneColumns(columns).includes(lanes))
      return `${lanes.name} cannot make the board's lanes: they need a USER or a single-choice Choice column that can be edited.`;
  }
  return undefined;
}

/** The board a view opens with when none is kept: its first Choice column, no lanes, no fields beyond the title. */
export function defaultDefinition(columns: readonly BoardFieldColumn[]): BoardDefinition | undefined {
  const first = groupableColumns(columns)[0];
  return first ? { column: first.key, fields: [] } : undefined;
}

/**
 * One side of the board: the choices in their order (and colours), then values met that are not among them
 * (a choice removed since, a USER column's e-mails, in order of their text), then "none".
 */
export class BoardAxis {
  private readonly fixed: AxisEntry[];
  private readonly met = new Set<string>();
  private sortedMet: string[] | undefined = [];

  constructor(
    private readonly column: BoardFieldColumn,
    private readonly noneName = 'none',
  ) {
    this.fixed =
      column.kind === 'choice'
        ? (column.choices ?? []).map((choice) => ({ key: choice.id, name: choice.name, ...(choice.color ? { color: choice.color } : {}) }))
        : [];
  }

  get key(): string {
    return this.column.key;
  }

  /** The place a value goes: its choice, the trimmed value itself, or NONE. */
  placeOf(value: string): string {
    const key = value.trim();
    if (key !== NONE && !this.fixed.some((entry) => entry.key === key) && !this.met.has(key)) {
      this.met.add(key);
      this.sortedMet = undefined;
    }
    return key;
  }

  entries(): AxisEntry[] {
    this.sortedMet ??= [...this.met].sort((a, b) => a.localeCompare(b));
    return [
      ...this.fixed.map((entry) => ({ key: entry.key, name: entry.name, ...(entry.color ? { color: entry.color } : {}) })),
      ...this.sortedMet.map((key) => ({ key, name: this.column.kind === 'choice' ? `${key} (not a choice)` : key })),
      { key: NONE, name: this.noneName },
    ];
  }

  has(key: string): boolean {
    return key === NONE || this.fixed.some((entry) => entry.key === key) || this.met.has(key);
  }

  /** The entry `delta` steps from `key` (keyboard moves), or undefined past either end. */
  step(key: string, delta: number): string | undefined {
    const entries = this.entries();
    const index = entries.findIndex((entry) => entry.key === key);
    return index < 0 ? undefined : entries[index + delta]?.key;
  }
}

interface Placed {
  place: BoardPlace;
  /** The row's position in the view's order: cards keep it inside their column. */
  order: number;
}

/** A cell's key: its column and lane. */
export function cellOf(place: BoardPlace): string {
  return `${place.column}\u0000${place.lane ?? ''}`;
}

/**
 * The cards' places: each record in one column (and lane), in the view's order inside it. Placing a row
 * that is placed already moves it; counts are kept as rows come, so that they show at once.
 */
export class BoardGrouping {
  readonly columns: BoardAxis;
  readonly lanes: BoardAxis | undefined;
  private readonly placed = new Map<string, Placed>();
  private readonly cells = new Map<string, string[]>();
  private readonly columnCounts = new Map<string, number>();
  private readonly laneCounts = new Map<string, number>();
  private nextOrder = 0;

  constructor(column: BoardFieldColumn, lanes?: BoardFieldColumn) {
    this.columns = new BoardAxis(column);
    this.lanes = lanes ? new BoardAxis(lanes) : undefined;
  }

  get size(): number {
    return this.placed.size;
  }

  /** The fields whose values place a card: the column's, then the lanes'. */
  get fields(): string[] {
    return this.lanes ? [this.columns.key, this.lanes.key] : [this.columns.key];
  }

  /**
   * Puts the row where its values say (values in the order of `fields`). A row seen before keeps its
   * position in the view; a new one goes after every row placed so far.
   */
  place(recordId: string, values: readonly string[]): BoardPlace {
    const place: BoardPlace = {
      column: this.columns.placeOf(values[0] ?? ''),
      ...(this.lanes ? { lane: this.lanes.placeOf(values[1] ?? '') } : {}),
    };
    const known = this.placed.get(recordId);
    if (known && cellOf(known.place) === cellOf(place)) return place;
    const order = known?.order ?? this.nextOrder++;
    if (known) this.unlist(recordId, known);
    const entry = { place, order };
    this.placed.set(recordId, entry);
    const cell = this.cells.get(cellOf(place)) ?? [];
    if (cell.length === 0) this.cells.set(cellOf(place), cell);
    cell.splice(this.insertionIndex(cell, order), 0, recordId);
    this.count(place, 1);
    return place;
  }

  remove(recordId: string): void {
    const known = this.placed.get(recordId);
    if (!known) return;
    this.unlist(recordId, known);
    this.placed.delete(recordId);
  }

  where(recordId: string): BoardPlace | undefined {
    return this.placed.get(recordId)?.place;
  }

  /** How many cards a column holds (in one lane, or in all). */
  countOf(column: string, lane?: string): number {
    if (lane === undefined) return this.columnCounts.get(column) ?? 0;
    return this.cells.get(cellOf({ column, lane }))?.length ?? 0;
  }

  laneCount(lane: string): number {
    return this.laneCounts.get(lane) ?? 0;
  }

  /** The cards [start, end) of one cell, in the view's order. */
  cards(place: BoardPlace, start: number, end: number): string[] {
    return (this.cells.get(cellOf(this.normal(place))) ?? []).slice(Math.max(0, start), Math.max(0, end));
  }

  /** A card's position inside its cell (after a move, the page scrolls it into sight). */
  indexOf(recordId: string): number {
    const known = this.placed.get(recordId);
    if (!known) return -1;
    const cell = this.cells.get(cellOf(known.place)) ?? [];
    const index = this.insertionIndex(cell, known.order);
    return cell[index] === recordId ? index : cell.indexOf(recordId);
  }

  /** A place with lanes when the board has them (a page may leave `lane` out on a board without). */
  normal(place: BoardPlace): BoardPlace {
    return this.lanes ? { column: place.column, lane: place.lane ?? NONE } : { column: place.column };
  }

  private unlist(recordId: string, known: Placed): void {
    const cell = this.cells.get(cellOf(known.place));
    if (!cell) return;
    const index = this.insertionIndex(cell, known.order);
    const at = cell[index] === recordId ? index : cell.indexOf(recordId);
    if (at >= 0) cell.splice(at, 1);
    this.count(known.place, -1);
  }

  private count(place: BoardPlace, delta: number): void {
    this.columnCounts.set(place.column, (this.columnCounts.get(place.column) ?? 0) + delta);
    if (place.lane !== undefined) this.laneCounts.set(place.lane, (this.laneCounts.get(place.lane) ?? 0) + delta);
  }

  /** Where `order` goes in a cell sorted by order (binary search: a column may hold 100,000 cards). */
  private insertionIndex(cell: readonly string[], order: number): number {
    let low = 0;
    let high = cell.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.placed.get(cell[middle])?.order ?? -1) < order) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/**
 * The edits a card's move means: the column's field set to the target column's choice (empty for "none"),
 * and the lane's field when the card changes lanes. Nothing when the card stays where it is or `to` names a
 * place the board does not have.
 */
export function moveEdits(grouping: BoardGrouping, recordId: string, to: BoardPlace): CellEdit[] {
  const from = grouping.where(recordId);
  if (!from) return [];
  const target = grouping.normal(to);
  if (!grouping.columns.has(target.column) || (grouping.lanes && !grouping.lanes.has(target.lane ?? NONE))) return [];
  const edits: CellEdit[] = [];
  if (target.column !== from.column) edits.push({ recordId, field: grouping.columns.key, value: target.column });
  if (grouping.lanes && target.lane !== from.lane) edits.push({ recordId, field: grouping.lanes.key, value: target.lane ?? NONE });
  return edits;
}

/** "Move TCK-1042 to Done" for the undo stack (VS Code shows it in Undo's label). */
export function moveLabel(grouping: BoardGrouping, title: string, to: BoardPlace): string {
  const column = grouping.columns.entries().find((entry) => entry.key === to.column)?.name ?? to.column;
  const lane = grouping.lanes && to.lane !== undefined ? grouping.lanes.entries().find((entry) => entry.key === to.lane)?.name : undefined;
  return `Move ${title} to ${column}${lane === undefined ? '' : ` · ${lane}`}`;
}
