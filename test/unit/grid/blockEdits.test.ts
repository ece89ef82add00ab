// Paste, fill down, clear and copy over the rows and columns of the emulator's Orders view "All orders":
// TSV as spreadsheets write it, conversion by column kind, the report of cells that failed.
import * as assert from 'node:assert/strict';
import type { ChangeSet } from '../../../src/grid/model/changeSet';
import { copyText, planClear, planFillDown, planPaste, type GridLayout } from '../../../src/grid/model/blockEdits';
import type { TextOptions } from '../../../src/grid/model/cellText';
import { EditHistory } from '../../../src/grid/model/editHistory';
import { freshGrid, startGridPortal, type GridPortal } from './gridPortal';

const EUROPE: TextOptions = { dateOrder: 'DMY', utcOffset: 60, decimalSeparator: '.' };
// View 3 shows f10 f11 f12 f13 f14 f15 f16 f17 f18 f19 f20 f21 f22, in this order.
const col = (field: string): number =>
  ['f10', 'f11', 'f12', 'f13', 'f14', 'f15', 'f16', 'f17', 'f18', 'f19', 'f20', 'f21', 'f22'].indexOf(field);

describe('grid: paste, fill down, clear and copy', function () {
  let portal: GridPortal;
  let changeSet: ChangeSet;
  let layout: GridLayout;
  let history: EditHistory;

  before(async () => {
    portal = await startGridPortal();
  });
  after(() => portal.emulator.close());
  beforeEach(async () => {
    ({ changeSet, layout } = await freshGrid(portal));
    history = new EditHistory(changeSet);
  });

  it('pastes a block from a spreadsheet converted per column kind, reporting the cells that failed', () => {
    const at = { top: 0, left: col('f17'), bottom: 0, right: col('f17') };
    const text = '€1,250.50\t10\tShipped\r\nabc\t1.5\t4\r\n';
    const plan = planPaste(changeSet, layout, at, text, EUROPE);
    assert.deepEqual(plan.range, { top: 0, left: col('f17'), bottom: 1, right: col('f19') });
    assert.deepEqual(
      plan.edits.map((edit) => [edit.recordId, edit.field, edit.value]),
      [
        ['1', 'f17', '1250.50'],
        ['1', 'f18', '10'],
        ['1', 'f19', '3'],
        ['2', 'f18', '1.5'],
        ['2', 'f19', '4'],
      ],
    );
    assert.deepEqual(
      plan.failed.map((cell) => [cell.recordId, cell.field, cell.text, cell.message]),
      [['2', 'f17', 'abc', 'expected an amount like 1200.50 (no currency symbol), got abc']],
    );
    const outcome = history.edit('paste', 'Paste', plan.edits);
    assert.equal(outcome.transaction?.changes.length, 4, 'row 1 already had 10 in f18');
    assert.equal(changeSet.value('2', 'f17'), '4800', 'a failed cell is left as it was');
  });

  it('reads quoted cells with tabs, line breaks and quotes as spreadsheets write them', () => {
    const text = '"Line one\nline two"\t"say ""hi"""\r\n5" screw\t"a\tb"\r\n';
    const plan = planPaste(changeSet, layout, { top: 0, left: col('f11'), bottom: 0, right: col('f11') }, text, EUROPE);
    assert.deepEqual(
      plan.failed.map((cell) => cell.field),
      ['f12', 'f12'],
      'text in a Number column fails',
    );
    assert.deepEqual(
      plan.edits.map((edit) => edit.value),
      ['Line one\nline two', '5" screw'],
    );
    const unclosed = planPaste(changeSet, layout, { top: 0, left: col('f11'), bottom: 0, right: col('f11') }, 'Say "hi\tno end', EUROPE);
    assert.deepEqual(
      unclosed.edits.map((edit) => edit.value),
      ['Say "hi'],
      'a quote never closed is text',
    );
    const opening = planPaste(changeSet, layout, { top: 0, left: col('f11'), bottom: 0, right: col('f11') }, '"quoted\n', EUROPE);
    assert.deepEqual(
      opening.edits.map((edit) => edit.value),
      ['"quoted'],
    );
  });

  it("converts dates in the locale's order or DD-MM-YYYY, and date & time from local to UTC", () => {
    const at = { top: 2, left: col('f15'), bottom: 2, right: col('f15') };
    const us: TextOptions = { dateOrder: 'MDY', utcOffset: -300 };
    const plan = planPaste(changeSet, layout, at, '3/14/2026\t3/14/2026 9:05 PM\n14-03-2026\t2026-03-14 23:30\n31/12/2026\t\n', us);
    assert.deepEqual(
      plan.edits.map((edit) => [edit.recordId, edit.field, edit.value]),
      [
        ['3', 'f15', '14-03-2026'],
        ['3', 'f16', '15-03-2026 02:05'],
        ['4', 'f15', '14-03-2026'],
        ['4', 'f16', '15-03-2026 04:30'],
        ['5', 'f16', ''],
      ],
    );
    assert.deepEqual(
      plan.failed.map((cell) => [cell.recordId, cell.message]),
      [['5', 'not a real date: "31/12/2026" (read as month/day/year)']],
    );
    const words = planPaste(changeSet, layout, at, 'next Friday', us);
    assert.deepEqual(
      words.failed.map((cell) => cell.message),
      ['expected a date as DD-MM-YYYY or 11/21/2026, got "next Friday"'],
    );
  });

  it('takes choices by name or id, several for a multi-select', () => {
    const at = { top: 0, left: col('f19'), bottom: 0, right: col('f19') };
    const plan = planPaste(changeSet, layout, at, 'confirmed\tGift, Fragile\n5\t3\nGold\t\n', EUROPE);
    assert.deepEqual(
      plan.edits.map((edit) => [edit.recordId, edit.field, edit.value]),
      [
        ['1', 'f19', '2'],
        ['1', 'f20', '2,4'],
        ['2', 'f19', '5'],
        ['2', 'f20', '3'],
        ['3', 'f20', ''],
      ],
    );
    assert.match(plan.failed[0].message, /^not one of the choices: "Gold" \(choices: New, Confirmed, Shipped, Delivered, Cancelled\)$/);
  });

  it('repeats a block over a selection that is a multiple of it, and counts what falls off the grid', () => {
    const tiled = planPaste(changeSet, layout, { top: 0, left: col('f18'), bottom: 3, right: col('f18') }, '7\n8', EUROPE);
    assert.deepEqual(
      tiled.edits.map((edit) => edit.value),
      ['7', '8', '7', '8'],
    );
    const last = layout.rowIds.length - 1;
    const cut = planPaste(
      changeSet,
      layout,
      { top: last, left: col('f22'), bottom: last, right: col('f22') },
      'ada@example.com\tx\nb\ty',
      EUROPE,
    );
    assert.deepEqual(cut.cutOff, { rows: 1, columns: 1 });
    assert.deepEqual(
      cut.edits.map((edit) => [edit.recordId, edit.value]),
      [['8', 'ada@example.com']],
    );
  });

  it('refuses read-only columns in a paste with the same message as a typed edit', () => {
    const plan = planPaste(changeSet, layout, { top: 0, left: col('f10'), bottom: 0, right: col('f10') }, '1\tTitle', EUROPE);
    assert.deepEqual(
      plan.failed.map((cell) => cell.message),
      ['read-only (Auto Number): it cannot be set through the API'],
    );
    assert.deepEqual(
      plan.edits.map((edit) => edit.value),
      ['Title'],
    );
  });

  it('fills down the top cell of each selected column as one undoable step', () => {
    const plan = planFillDown(changeSet, layout, { top: 0, left: col('f18'), bottom: 3, right: col('f19') });
    const outcome = history.edit('fill', 'Fill down', plan.edits);
    assert.deepEqual(
      [1, 2, 3].map((row) => changeSet.value(layout.rowIds[row], 'f18')),
      ['10', '10', '10'],
    );
    assert.deepEqual(
      [1, 2, 3].map((row) => changeSet.value(layout.rowIds[row], 'f19')),
      ['4', '4', '4'],
    );
    assert.equal(outcome.transaction?.changes.length, 6);
    history.undo();
    assert.equal(changeSet.isDirty, false);
  });

  it('clears cells, reporting the required and read-only ones', () => {
    const plan = planClear(changeSet, layout, { top: 0, left: col('f10'), bottom: 0, right: col('f12') });
    assert.deepEqual(
      plan.failed.map((cell) => [cell.field, cell.message]),
      [
        ['f10', 'read-only (Auto Number): it cannot be set through the API'],
        ['f11', 'required: Title must have a value'],
      ],
    );
    assert.deepEqual(plan.edits, [{ recordId: '1', field: 'f12', value: '' }]);
  });

  it('copies cells as TSV that pastes back to the same values, pending edits included', () => {
    history.edit('edit', 'Edit', [{ recordId: '1', field: 'f11', value: 'Chairs\t"ergonomic"\nx' }]);
    const range = { top: 0, left: col('f11'), bottom: 1, right: col('f20') };
    const tsv = copyText(changeSet, layout, range, 'tsv', EUROPE);
    assert.match(tsv, /^"Chairs\t""ergonomic""\nx"\t1\t/);
    assert.match(tsv, /\t05-01-2026 10:30\t/, 'date & time copied as local time');
    assert.match(tsv, /\tDelivered\tUrgent\r\n/, 'choices copied by name');
    const before = changeSet.rows().length;
    const plan = planPaste(changeSet, layout, { top: 2, left: col('f11'), bottom: 2, right: col('f11') }, tsv, EUROPE);
    const refused = new Set(['f13', 'f14']);
    assert.deepEqual(
      plan.failed.map((cell) => cell.field).filter((field) => !refused.has(field)),
      [],
    );
    history.edit('paste', 'Paste', plan.edits);
    for (const field of ['f11', 'f12', 'f15', 'f16', 'f17', 'f18', 'f19', 'f20']) {
      assert.equal(changeSet.value('3', field), changeSet.value('1', field), field);
      assert.equal(changeSet.value('4', field), changeSet.value('2', field), field);
    }
    assert.ok(changeSet.rows().length > before);
  });

  it('copies rows as CSV with the formula guard, as JSON of API values and as Markdown', () => {
    history.edit('edit', 'Edit', [{ recordId: '1', field: 'f11', value: '=HYPERLINK("x")' }]);
    const row = { top: 0, left: 0, bottom: 0, right: layout.columns.length - 1 };
    const csv = copyText(changeSet, layout, row, 'csv', EUROPE);
    assert.match(csv, /^Order no\.,Title,/);
    assert.match(csv, /\r\n5001,"'=HYPERLINK\(""x""\)",1,/);
    const json = JSON.parse(copyText(changeSet, layout, row, 'json', EUROPE)) as Array<Record<string, string>>;
    assert.equal(json[0].id, '1');
    assert.equal(json[0].f16, '05-01-2026 09:30', 'JSON keeps the API value (UTC)');
    assert.equal(json[0].f19, '4');
    history.edit('edit', 'Edit', [{ recordId: '1', field: 'f11', value: 'a|b\nc' }]);
    const markdown = copyText(changeSet, layout, { top: 0, left: col('f11'), bottom: 0, right: col('f12') }, 'markdown', EUROPE);
    assert.equal(markdown, '| Title | Customer id |\n| --- | --- |\n| a\\|b<br>c | 1 |\n');
  });
});
