import * as assert from 'node:assert/strict';
import type { ViewResponse } from '../../../src/api/types';
import { call, form, nestedError, useSeededEmulator } from './helpers';

interface Filter {
  column: string;
  operator: string;
  value?: string;
  app?: string;
}

describe('emulator: read records by view', () => {
  const running = useSeededEmulator();

  const query = (filters: Filter[]): string => {
    if (filters.length === 0) return '';
    const params = new URLSearchParams({
      filter_columns: filters.map((f) => f.column).join('|'),
      filter_operators: filters.map((f) => f.operator).join('|'),
      filter_values: filters.map((f) => f.value ?? '').join('|'),
      filter_apps: filters.map((f) => f.app ?? '').join('|'),
    });
    return `?${params}`;
  };

  const view = async (app: string, viewId: string, filters: Filter[] = []) => {
    const result = await call(running.emulator, 'GET', `/api/v1/app/${app}/view/${viewId}${query(filters)}`, { token: running.token });
    assert.equal(result.status, 200, result.text);
    return result.json as ViewResponse;
  };
  const ids = async (app: string, viewId: string, filters: Filter[] = []) => (await view(app, viewId, filters)).data.map((row) => row.id);
  const orders = (filters: Filter[]) => ids('102', '3', filters);

  it('answers rows keyed by field_id_in_data with id and draft, in ascending id, drafts included', async () => {
    const body = await view('102', '3');
    assert.deepEqual(
      body.data.map((row) => row.id),
      ['1', '2', '3', '4', '5', '6', '7', '8'],
    );
    assert.deepEqual(Object.keys(body.data[0]), [
      'id',
      'f10',
      'f11',
      'f12',
      'f13',
      'f14',
      'f15',
      'f16',
      'f17',
      'f18',
      'f19',
      'f20',
      'f21',
      'f22',
      'draft',
    ]);
    assert.equal(body.data[6].draft, '1');
    assert.equal(body.data[0].draft, '0');
    assert.ok(body.data.every((row) => Object.values(row).every((value) => typeof value === 'string')));
    assert.deepEqual(body.metadata[1], {
      view_id: '3',
      field_id_in_data: 'f11',
      field_name: 'Title',
      field_description: '',
      app_id: '102',
      id: '11',
      type_name: 'Text Field',
    });
  });

  it("keys a Lookup app's columns l<N>, with that app's id in the metadata", async () => {
    const body = await view('102', '5');
    const tier = body.metadata.find((entry) => entry.field_id_in_data === 'l6');
    assert.deepEqual(tier, {
      view_id: '5',
      field_id_in_data: 'l6',
      field_name: 'Tier',
      field_description: '',
      app_id: '101',
      id: '6',
      type_name: 'Choice',
    });
    assert.equal(body.data[0].l3, 'orders@acme.example.com');
    assert.equal(body.data[0].f13, 'Acme Corporation');
  });

  it("applies the view's own conditions", async () => {
    assert.deepEqual(await ids('102', '4'), ['2', '3', '4', '6', '7', '8'], 'Open orders: not Delivered, not Cancelled');
    assert.deepEqual(await ids('101', '2'), ['1', '4', '7', '10'], 'Gold customers');
  });

  describe('operators', () => {
    it('0 contains (case-insensitive substring)', async () =>
      assert.deepEqual(await orders([{ column: '11', operator: '0', value: 'DESK' }]), ['2', '7']));
    it('1 does not contain', async () =>
      assert.deepEqual(await orders([{ column: '11', operator: '1', value: 'desk' }]), ['1', '3', '4', '5', '6', '8']));
    it('2 equals, numerically for Currency', async () =>
      assert.deepEqual(await orders([{ column: '17', operator: '2', value: '4800.00' }]), ['2']));
    it('2 equals, as text for Choice ids', async () =>
      assert.deepEqual(await orders([{ column: '19', operator: '2', value: '1' }]), ['4', '7', '8']));
    it('3 does not equal', async () =>
      assert.deepEqual(await orders([{ column: '19', operator: '3', value: '1' }]), ['1', '2', '3', '5', '6']));
    it('4 empty', async () => assert.deepEqual(await orders([{ column: '16', operator: '4' }]), ['3', '5', '7', '8']));
    it('5 not empty', async () => assert.deepEqual(await orders([{ column: '21', operator: '5' }]), ['1', '2', '3', '4', '6', '8']));
    it('6 less than, as dates for Date', async () =>
      assert.deepEqual(await orders([{ column: '15', operator: '6', value: '12-01-2026' }]), ['1', '2']));
    it('7 less than or equal to', async () =>
      assert.deepEqual(await orders([{ column: '15', operator: '7', value: '12-01-2026' }]), ['1', '2', '3']));
    it('8 greater than, numerically for Currency (not as text)', async () =>
      assert.deepEqual(await orders([{ column: '17', operator: '8', value: '1000' }]), ['1', '2', '5', '8']));
    it('9 greater than or equal to, as minutes for Duration', async () =>
      assert.deepEqual(await orders([{ column: '21', operator: '9', value: '02:00' }]), ['2', '4', '8']));
    it('8 greater than, as date-times for Date & Time; empty values never match', async () =>
      assert.deepEqual(await orders([{ column: '16', operator: '8', value: '20-01-2026 14:00' }]), ['4', '6']));
    it('6 less than, as case-insensitive text for Text', async () =>
      assert.deepEqual(await orders([{ column: '11', operator: '6', value: 'D' }]), ['6']));
  });

  it('filters on a LookUp column of the app by the value it shows', async () => {
    assert.deepEqual(await orders([{ column: '13', operator: '0', value: 'acme' }]), ['1', '2']);
  });

  it('filters on a Lookup app column named through filter_apps', async () => {
    assert.deepEqual(await orders([{ column: '6', operator: '2', value: '3', app: '101' }]), ['1', '2', '5', '7']);
    assert.deepEqual(await orders([{ column: 'l6', operator: '2', value: '3', app: '101' }]), ['1', '2', '5', '7'], 'l<N> names it too');
  });

  it('combines filters with AND, and takes field_id_in_data as a column id', async () => {
    assert.deepEqual(
      await orders([
        { column: 'f19', operator: '2', value: '1' },
        { column: '11', operator: '0', value: 'lamp' },
      ]),
      ['7'],
    );
  });

  it('accepts omitted filter_values and filter_apps when every item is empty', async () => {
    const result = await call(running.emulator, 'GET', '/api/v1/app/102/view/3?filter_columns=16&filter_operators=4', {
      token: running.token,
    });
    assert.deepEqual(
      (result.json as ViewResponse).data.map((row) => row.id),
      ['3', '5', '7', '8'],
    );
  });

  for (const [what, search] of [
    ['lists of different lengths', 'filter_columns=11|17&filter_operators=0&filter_values=a|1'],
    ['an operator outside 0-9', 'filter_columns=11&filter_operators=12&filter_values=a'],
    ['an unknown column', 'filter_columns=999&filter_operators=2&filter_values=a'],
    ["another app's column without filter_apps", 'filter_columns=6&filter_operators=2&filter_values=3'],
    ['filter_apps naming an app that is not a Lookup app', 'filter_columns=51&filter_operators=2&filter_values=3&filter_apps=202'],
    ['a value that is not a number for a Currency comparison', 'filter_columns=17&filter_operators=8&filter_values=lots'],
    ['a value that is not a date for a Date comparison', 'filter_columns=15&filter_operators=6&filter_values=2026-01-12'],
    ['filter_operators without filter_columns', 'filter_operators=2&filter_values=3'],
    ['filter_columns without filter_operators', 'filter_columns=11&filter_values=3'],
    ['a filter parameter given twice', 'filter_columns=11&filter_columns=12&filter_operators=4'],
  ] as const) {
    it(`answers 400 invalid_filter for ${what}`, async () => {
      const result = await call(running.emulator, 'GET', `/api/v1/app/102/view/3?${search}`, { token: running.token });
      assert.equal(result.status, 400, result.text);
      assert.equal(nestedError(result).code, 'invalid_filter');
    });
  }

  it('leaves records in trash out', async () => {
    await call(running.emulator, 'DELETE', '/api/v1/app/102/record/3', { token: running.token });
    assert.deepEqual(await orders([]), ['1', '2', '4', '5', '6', '7', '8']);
  });

  it('answers 404 for an unknown view and for a view of another app', async () => {
    assert.equal(nestedError(await call(running.emulator, 'GET', '/api/v1/app/102/view/99', { token: running.token })).code, 'not_found');
    assert.equal((await call(running.emulator, 'GET', '/api/v1/app/102/view/1', { token: running.token })).status, 404);
  });

  it('serves the big view from cache until a record changes', async () => {
    const first = await view('201', '6');
    assert.equal(first.data.length, 500);
    const created = await call(running.emulator, 'POST', '/api/v1/app/201/record/', {
      token: running.token,
      body: form({ f31: 'New ticket', f36: '01-03-2026 10:00', f32: '1' }),
    });
    assert.equal(created.status, 200, created.text);
    const second = await view('201', '6');
    assert.equal(second.data.length, 501);
    assert.equal(second.data[500].f31, 'New ticket');
    assert.equal(second.data[500].f33, 'Acme Corporation');
    await call(running.emulator, 'PUT', '/api/v1/app/101/record/1', { token: running.token, body: form({ f2: 'Acme Renamed' }) });
    const third = await view('201', '6');
    assert.equal(third.data[500].f33, 'Acme Renamed', 'a change in the Lookup app shows too');
  });
});
