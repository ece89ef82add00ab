// What the host sends the board (custom editor portal.board); what the board sends is declared by its
// schemas in messages.ts. The host owns the grouping and every change: the page draws the columns'
// counts at once and asks for the cards in sight, column by column.
import type { ViewFilter } from '../api/filters';
import type { FilterColumn } from '../shared/protocol';
import type { EditorLoadFailedMessage, EditorLoadMessage, EditorNoticeMessage, GridLoadState } from '../grid/protocol';
import type { BoardDefinition, BoardPlace } from './messages';

export type { BoardDefinition, BoardPlace, BoardToHostMessage } from './messages';

/** A column the page offers for the board's column, lanes or card fields. */
export interface BoardFieldOption {
  key: string;
  name: string;
}

/** One column or lane of the board, with its count. */
export interface BoardAxisState {
  key: string;
  name: string;
  /** #RRGGBB, as the host checked it. */
  color?: string;
  count: number;
}

export interface BoardInitMessage {
  type: 'board/init';
  viewName: string;
  appName: string;
  portalLabel: string;
  /** The board drawn; none when the view has no Choice column to group by (`problem` says so). */
  definition?: BoardDefinition;
  problem?: string;
  options: { columns: BoardFieldOption[]; lanes: BoardFieldOption[]; fields: BoardFieldOption[] };
  filterColumns: FilterColumn[];
  filters: ViewFilter[];
  load?: GridLoadState;
}

/** The columns and lanes with their counts, and each cell's count: sent at once, and after every change. */
export interface BoardLayoutMessage {
  type: 'board/layout';
  columns: BoardAxisState[];
  lanes?: BoardAxisState[];
  /** [column key, lane key ('' without lanes), count] for each cell holding cards. */
  cells: Array<[string, string, number]>;
  total: number;
  /** Pending moves in all (the board's dirty count). */
  pending: number;
  /** A card just moved: the page keeps the focus on it (keyboard moves). */
  moved?: { recordId: string; place: BoardPlace; index: number };
  /** The cards in sight of each cell (the window the page last asked for, else the first ones), drawn
   *  without asking: a board/window round trip waits behind a host still reading the view. */
  cards?: Array<{ place: BoardPlace; start: number; cards: BoardCard[] }>;
}

export interface BoardCard {
  recordId: string;
  title: string;
  /** The chosen fields: name and value as shown. */
  fields: Array<[string, string]>;
  /** The card's place has a pending edit. */
  pending?: boolean;
  /** Held back at the last save (Compare / Keep mine / Take theirs), or why its save failed. */
  conflict?: string;
  problem?: string;
}

/** The cards [start, start + cards.length) of one cell, answering board/window (or redrawn after a change). */
export interface BoardCardsMessage {
  type: 'board/cards';
  place: BoardPlace;
  start: number;
  cards: BoardCard[];
}

export type BoardNoticeMessage = EditorNoticeMessage<'board'>;
export type BoardLoadMessage = EditorLoadMessage<'board'>;
export type BoardLoadFailedMessage = EditorLoadFailedMessage<'board'>;

export type HostToBoardMessage =
  BoardInitMessage | BoardLayoutMessage | BoardCardsMessage | BoardNoticeMessage | BoardLoadMessage | BoardLoadFailedMessage;
