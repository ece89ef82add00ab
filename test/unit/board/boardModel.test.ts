// The board's model: columns in the choices' order with "none" last, lanes by a USER or Choice column,
// counts kept as rows come, cards in the view's order, and a card's move as the edits of its fields.
import * as assert from 'node:assert/strict';
import {
  BoardGrouping,
  NONE,
  defaultDefinition,
  definitionProblem,
  groupableColumns,
  laneColumns,
  moveEdits,
  moveLabel,
  type BoardFieldColumn,
} from '../../../src/board/model/boardModel';

const status: BoardFieldColumn = {
  key: 'f3',
  name: 'Status',
  kind: 'choice',
  choices: [
    { id: '1', name: 'Open', color: '#ff0000' },
    { id: '2', name: 'Doing' },
    { id: '3', name: 'Done', color: '#00ff00' },
  ],
};
const priority: BoardFieldColumn = { key: 'f4', name: 'Priority', kind: 'choice', choices: [{ id: 'h', name: 'High' }] };
const owner: BoardFieldColumn = { key: 'f5', name: 'Owner', kind: 'user' };
const title: BoardFieldColumn = { key: 'f1', name: 'Title', kind: 'text' };
const tags: BoardFieldColumn = { key: 'f6', name: 'Tags', kind: 'choice', choices: [], column: { choice_type: '2' } };
const locked: BoardFieldColumn = { key: 'l7', name: 'Linked state', kind: 'choice', choices: [], locked: 'a Lookup app' };

describe('board: the model', () => {
  it('groups by single-choice Choice columns only, and lanes by USER or Choice columns', () => {
    const columns = [title, status, priority, owner, tags, locked];
    assert.deepEqual(
      groupableColumns(columns).map((column) => column.key),
      ['f3', 'f4'],
    );
    assert.deepEqual(
      laneColumns(columns).map((column) => column.key),
      ['f3', 'f4', 'f5'],
    );
    assert.deepEqual(defaultDefinition(columns), { column: 'f3', fields: [] });
    assert.equal(defaultDefinition([title, owner]), undefined);
  });

  it('says why a definition cannot be drawn', () => {
    const columns = [title, status, owner, tags];
    assert.equal(definitionProblem({ column: 'f3', lanes: 'f5', fields: [] }, columns), undefined);
    assert.match(definitionProblem({ column: 'f9', fields: [] }, columns) ?? '', /f9 is not among the view's columns/);
    assert.match(definitionProblem({ column: 'f6', fields: [] }, columns) ?? '', /Tags cannot make the board's columns/);
    assert.match(definitionProblem({ column: 'f3', lanes: 'f3', fields: [] }, columns) ?? '', /both the columns and the lanes/);
    assert.match(definitionProblem({ column: 'f3', lanes: 'f1', fields: [] }, columns) ?? '', /Title cannot make the board's lanes/);
  });

  it('has a column per choice in their order and colours, values not among them next, and "none" last', () => {
    const board = new BoardGrouping(status);
    board.place('a', ['2']);
    board.place('b', ['']);
    board.place('c', ['9']);
    board.place('d', ['2']);
    assert.deepEqual(board.columns.entries(), [
      { key: '1', name: 'Open', color: '#ff0000' },
      { key: '2', name: 'Doing' },
      { key: '3', name: 'Done', color: '#00ff00' },
      { key: '9', name: '9 (not a choice)' },
      { key: NONE, name: 'none' },
    ]);
    assert.deepEqual(
      ['1', '2', '3', '9', NONE].map((key) => board.countOf(key)),
      [0, 2, 0, 1, 1],
    );
    assert.deepEqual(board.cards({ column: '2' }, 0, 10), ['a', 'd']);
  });

  it('keeps cards in the view order when they move back and forth', () => {
    const board = new BoardGrouping(status);
    for (const [id, value] of [
      ['a', '1'],
      ['b', '1'],
      ['c', '1'],
    ] as const)
      board.place(id, [value]);
    board.place('b', ['3']);
    assert.deepEqual(board.cards({ column: '1' }, 0, 10), ['a', 'c']);
    board.place('b', ['1']);
    assert.deepEqual(board.cards({ column: '1' }, 0, 10), ['a', 'b', 'c']);
    assert.equal(board.indexOf('b'), 1);
    assert.equal(board.countOf('3'), 0);
    board.remove('a');
    assert.deepEqual(board.cards({ column: '1' }, 0, 1), ['b']);
    assert.equal(board.size, 2);
  });

  it('puts cards in lanes by a USER column, e-mails in order and "none" last', () => {
    const board = new BoardGrouping(status, owner);
    board.place('a', ['1', 'zoe@example.com']);
    board.place('b', ['1', ' amy@example.com ']);
    board.place('c', ['3', '']);
    assert.deepEqual(
      board.lanes?.entries().map((entry) => entry.key),
      ['amy@example.com', 'zoe@example.com', NONE],
    );
    assert.deepEqual(board.where('b'), { column: '1', lane: 'amy@example.com' });
    assert.equal(board.countOf('1', 'zoe@example.com'), 1);
    assert.equal(board.countOf('1'), 2);
    assert.equal(board.laneCount(NONE), 1);
    assert.deepEqual(board.cards({ column: '3' }, 0, 5), ['c'], 'a page may leave the lane out: "none"');
  });

  it('turns a move into the edit of the column field, and of the lane field when the lane changes', () => {
    const board = new BoardGrouping(status, priority);
    board.place('a', ['1', 'h']);
    assert.deepEqual(moveEdits(board, 'a', { column: '3', lane: 'h' }), [{ recordId: 'a', field: 'f3', value: '3' }]);
    assert.deepEqual(moveEdits(board, 'a', { column: NONE, lane: NONE }), [
      { recordId: 'a', field: 'f3', value: '' },
      { recordId: 'a', field: 'f4', value: '' },
    ]);
    assert.deepEqual(moveEdits(board, 'a', { column: '1', lane: 'h' }), [], 'staying put is no edit');
    assert.deepEqual(moveEdits(board, 'a', { column: 'nope', lane: 'h' }), [], 'a place the board lacks is no edit');
    assert.deepEqual(moveEdits(board, 'zz', { column: '3' }), [], 'a card the board lacks is no edit');
    assert.equal(moveLabel(board, 'TCK-1', { column: '3', lane: 'h' }), 'Move TCK-1 to Done · High');
  });

  it('steps through columns for keyboard moves, stopping at either end', () => {
    const board = new BoardGrouping(status);
    assert.equal(board.columns.step('1', 1), '2');
    assert.equal(board.columns.step('3', 1), NONE);
    assert.equal(board.columns.step(NONE, 1), undefined);
    assert.equal(board.columns.step('1', -1), undefined);
  });

  it('groups 100,000 rows and moves one card without walking the others', () => {
    const board = new BoardGrouping(status);
    for (let index = 0; index < 100_000; index += 1) board.place(`r${index}`, [String((index % 3) + 1)]);
    assert.equal(board.countOf('1'), 33_334);
    board.place('r50002', ['1']);
    assert.equal(board.countOf('1'), 33_335);
    assert.equal(board.cards({ column: '1' }, 0, 100_000).indexOf('r50002'), board.indexOf('r50002'));
  });
});
