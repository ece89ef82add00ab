// The save's check of many rows with one read of the grid's view: when it is chosen over a GET per row,
// and that a row compared with its copy in the view's answer comes out exactly as it does against a GET's
// copy, or is left to its GET when the answer cannot vouch for it. Pure.
import * as assert from 'node:assert/strict';
import type { Column, RecordData } from '../../../src/api/types';
import { checkRow, type RowToSave, type SaveCheck } from '../../../src/grid/model/conflicts';
import { checkAgainstView, DEFAULT_ROUND_TRIP_MS, shouldReadView, VIEW_ROW_MS } from '../../../src/grid/model/viewCheck';

function column(field: string, type: string, typeName: string): Column {
  return {
    app_id: '102',
    field_id: field.slice(1),
    field_id_in_data: field,
    field_name: field,
    field_description: '',
    type,
    type_name: typeName,
    position: field.slice(1),
    unique_value: '0',
  };
}

/** Orders' columns as the emulator has them: an Auto Number, text, a number, a LookUp, a choice. */
const COLUMNS = [
  column('f10', '15', 'Auto Number'),
  column('f11', '0', 'Text Field'),
  column('f18', '3', 'Number'),
  column('f13', '16', 'LookUp'),
  column('f19', '2', 'Choice'),
];
/** A row as the view shows it: the app's own columns, and a Lookup app's column under its other prefix. */
const VIEW_ROW: RecordData = { f10: '5001', f11: 'Chairs', f18: '10', f13: 'Ada', f19: '1', l3: 'ada@example.com' };
/** The same record as a GET reads it: every column of the app, no Lookup app's column. */
const GET_COPY: RecordData = { f10: '5001', f11: 'Chairs', f18: '10', f13: 'Ada', f19: '1', f12: '3', f22: '' };

function row(edits: Record<string, string>, asRead: RecordData = VIEW_ROW): RowToSave {
  return { recordId: '1', asRead, edits: new Map(Object.entries(edits)) };
}

describe('grid: the save checked with one read of the view', () => {
  describe('when the view is read', () => {
    it("reads the view when the rounds of GETs would take longer than one round trip and the view's rows", () => {
      // 5 rows, 4 at once: two rounds of GETs (2 × 10 ms) against 10 ms + 8 rows (0.16 ms).
      assert.equal(shouldReadView({ changedRows: 5, viewRows: 8, roundTripMs: 10, concurrency: 4 }), true);
      // 1,000 rows of 100,000 next door (1 ms): 250 ms of GETs against 1 ms + 100,000 rows.
      assert.equal(
        shouldReadView({ changedRows: 1000, viewRows: 100_000, roundTripMs: 1, concurrency: 4 }),
        250 > 1 + 100_000 * VIEW_ROW_MS,
      );
      // The same 200 ms away: 50 s of GETs.
      assert.equal(shouldReadView({ changedRows: 1000, viewRows: 100_000, roundTripMs: 200, concurrency: 4 }), true);
    });

    it('keeps a GET per row for as many rows as run at once (one round of GETs is one round trip too)', () => {
      for (const changedRows of [0, 1, 2, 3, 4])
        assert.equal(shouldReadView({ changedRows, viewRows: 8, roundTripMs: 200, concurrency: 4 }), false, `${changedRows} rows`);
      assert.equal(shouldReadView({ changedRows: 1, viewRows: 1, roundTripMs: 200, concurrency: 1 }), false);
      assert.equal(shouldReadView({ changedRows: 2, viewRows: 1, roundTripMs: 200, concurrency: 1 }), true);
    });

    it('keeps the GETs where the view is large for the rows changed', () => {
      // 20 rows of 100,000 next door: 5 ms of GETs against 2 s of view.
      assert.equal(shouldReadView({ changedRows: 20, viewRows: 100_000, roundTripMs: 1, concurrency: 4 }), false);
      // The tipping point moves with the distance: 200 ms away, 44 rows (11 rounds) against 200 ms + 2 s.
      assert.equal(shouldReadView({ changedRows: 44, viewRows: 100_000, roundTripMs: 200, concurrency: 4 }), false);
      assert.equal(shouldReadView({ changedRows: 48, viewRows: 100_000, roundTripMs: 200, concurrency: 4 }), true);
    });

    it('assumes a default round trip until the client has timed one', () => {
      const rows = { changedRows: 8, viewRows: 1000, concurrency: 4 };
      assert.equal(shouldReadView({ ...rows, roundTripMs: undefined }), shouldReadView({ ...rows, roundTripMs: DEFAULT_ROUND_TRIP_MS }));
    });
  });

  describe('a row against its copy in the view', () => {
    /** What a check decides, without the copy it carries (the view's and the GET's hold different keys). */
    const decision = (check: SaveCheck | undefined): unknown => {
      if (check?.kind === 'send') return { kind: check.kind, fields: check.fields };
      if (check?.kind === 'conflict') return { kind: check.kind, ...check.conflict, portalCopy: undefined };
      return check?.kind;
    };
    const same = (edits: Record<string, string>, viewCopy: RecordData, getCopy: RecordData): void => {
      assert.deepEqual(decision(checkAgainstView(COLUMNS, row(edits), viewCopy)), decision(checkRow(COLUMNS, row(edits), getCopy)));
    };

    it('unchanged on the portal: sends only my changed fields, as against a GET', () => {
      same({ f11: 'Desks' }, VIEW_ROW, GET_COPY);
      const check = checkAgainstView(COLUMNS, row({ f11: 'Desks', f18: '10' }), VIEW_ROW);
      assert.equal(check?.kind, 'send');
      assert.deepEqual(check?.kind === 'send' && check.fields, { f11: 'Desks' });
    });

    it('changed on the portal in my field, in another field, or to my value: the same conflicts as against a GET', () => {
      same({ f11: 'Desks' }, { ...VIEW_ROW, f11: 'Tables' }, { ...GET_COPY, f11: 'Tables' });
      same({ f11: 'Desks' }, { ...VIEW_ROW, f18: '99' }, { ...GET_COPY, f18: '99' });
      same({ f11: 'Desks' }, { ...VIEW_ROW, f11: 'Desks' }, { ...GET_COPY, f11: 'Desks' });
      const conflict = checkAgainstView(COLUMNS, row({ f11: 'Desks' }), { ...VIEW_ROW, f18: '99' });
      assert.equal(conflict?.kind, 'conflict');
      assert.deepEqual(conflict?.kind === 'conflict' && [conflict.conflict.overlap, conflict.conflict.theirFields], [
        'other-fields',
        ['f18'],
      ]);
    });

    it("invents no conflict from what no one edits: a LookUp, an Auto Number, a Lookup app's column under its prefix", () => {
      const check = checkAgainstView(COLUMNS, row({ f11: 'Desks' }), { ...VIEW_ROW, f13: 'Grace', f10: '9999', l3: 'grace@example.com' });
      assert.equal(check?.kind, 'send');
    });

    it('leaves to a GET a row the answer does not hold', () => {
      assert.equal(checkAgainstView(COLUMNS, row({ f11: 'Desks' }), undefined), undefined);
    });

    it('leaves to a GET a row whose copy lacks a field it changed or a writable field it was read with', () => {
      const { f18: _quantity, ...withoutQuantity } = VIEW_ROW;
      // The view does not show Quantity, but the row was read with it (a GET of an earlier save brought it in).
      assert.equal(checkAgainstView(COLUMNS, row({ f11: 'Desks' }), withoutQuantity), undefined);
      assert.equal(checkAgainstView(COLUMNS, row({ f18: '3' }, withoutQuantity), withoutQuantity), undefined);
      // A field missing that is neither writable nor edited (a LookUp) does not matter.
      const { f13: _customer, ...withoutLookUp } = VIEW_ROW;
      assert.equal(checkAgainstView(COLUMNS, row({ f11: 'Desks' }), withoutLookUp)?.kind, 'send');
    });
  });
});
