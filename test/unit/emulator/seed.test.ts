import * as assert from 'node:assert/strict';
import type { Column, ReadRecordResponse, Site, ViewResponse } from '../../../src/api/types';
import { call, clientToken, form, useEmulator } from './helpers';

const TYPE_NAMES = [
  'Text Field',
  'Multiline',
  'Choice',
  'Number',
  'Date',
  'Date & Time',
  'Email',
  'Phone/Fax No.',
  'URL',
  'Currency',
  'Duration',
  'User',
  'Auto Number',
  'LookUp',
];

interface AppSettings {
  app_id: string;
  draft_mode: boolean;
  comments_plugin: boolean;
}

describe('emulator: the seed', () => {
  const running = useEmulator({ bigViewRecords: undefined });
  let token: string;
  let sites: Site[];
  let columns: Map<string, Column[]>;

  before(async () => {
    token = await clientToken(running.emulator);
    sites = (await call(running.emulator, 'GET', '/api/v1/site', { token })).json as Site[];
    columns = new Map();
    for (const app of sites.flatMap((site) => site.apps)) {
      columns.set(app.app_id, (await call(running.emulator, 'GET', `/api/v1/app/${app.app_id}/columns`, { token })).json as Column[]);
    }
  });

  it('has at least 2 sites and 4 apps', () => {
    assert.ok(sites.length >= 2);
    assert.ok(sites.flatMap((site) => site.apps).length >= 4);
    assert.ok(sites.every((site) => site.manager && site.name && site.id));
  });

  it('uses every column kind, and every choice_type', () => {
    const all = [...columns.values()].flat();
    assert.deepEqual([...new Set(all.map((column) => column.type_name))].sort(), [...TYPE_NAMES].sort());
    const choiceColumns = all.filter((column) => column.type_name === 'Choice');
    assert.deepEqual([...new Set(choiceColumns.map((column) => column.choice_type))].sort(), ['0', '1', '2']);
    for (const column of choiceColumns) {
      assert.ok(column.choices && column.choices.length > 0);
      for (const choice of column.choices) assert.match(choice.color, /^#[0-9A-F]{6}$/i);
      assert.deepEqual(column.choice_types, {
        '0': 'single_select_dropdown',
        '1': 'single_select_radio_button',
        '2': 'multi_select_checkbox',
      });
      assert.equal(Object.keys(column.display_formats ?? {}).length, 5);
    }
    for (const column of all.filter((c) => c.type_name === 'LookUp')) {
      assert.ok(columns.has(String(column.lookup_app_id)));
      assert.ok(columns.get(String(column.lookup_app_id))?.some((target) => target.field_id === column.lookup_field_id));
    }
    assert.ok(
      all.filter((c) => c.type_name === 'Currency').every((c) => typeof c.currency_symbol === 'string' && c.currency_symbol !== ''),
    );
    assert.ok(
      all.every((c) => Object.values(c).every((v) => typeof v !== 'number')),
      'no numbers: all values are strings',
    );
  });

  it('has an app with Draft mode and one with the comments plugin off', async () => {
    const apps = (await call(running.emulator, 'GET', '/_emulator/apps')).json as AppSettings[];
    assert.ok(apps.some((app) => app.draft_mode));
    assert.ok(apps.some((app) => !app.comments_plugin));
  });

  it('has several views per app', () => {
    for (const app of sites.flatMap((site) => site.apps)) {
      assert.ok(running.emulator.views.filter((view) => view.app_id === app.app_id).length >= 2, app.name);
    }
  });

  it('holds seeded values that its own validation accepts', async () => {
    for (const [appId, appColumns] of columns) {
      const writable = appColumns.filter((column) => column.type_name !== 'Auto Number' && column.type_name !== 'LookUp');
      const view = running.emulator.views.find((candidate) => candidate.app_id === appId);
      const rows = ((await call(running.emulator, 'GET', `/api/v1/app/${appId}/view/${view?.view_id}`, { token })).json as ViewResponse)
        .data;
      for (const row of rows.slice(0, 50)) {
        const record = (await call(running.emulator, 'GET', `/api/v1/app/${appId}/record/${row.id}`, { token })).json as ReadRecordResponse;
        const values = Object.fromEntries(writable.map((column) => [column.field_id_in_data, record.data[column.field_id_in_data]]));
        const written = await call(running.emulator, 'PUT', `/api/v1/app/${appId}/record/${row.id}`, { token, body: form(values) });
        assert.equal(written.status, 200, `${appId}/${row.id}: ${written.text}`);
      }
    }
  });

  it('has one view over 100,000 generated records', async () => {
    const big = running.emulator.views.find((view) => view.name === 'All tickets');
    assert.ok(big);
    const body = (await call(running.emulator, 'GET', `/api/v1/app/${big.app_id}/view/${big.view_id}`, { token })).json as ViewResponse;
    assert.equal(body.data.length, 100_000);
    assert.equal(body.data[99_999].id, '100000');
  });
});

describe('emulator: generated records', () => {
  const first = useEmulator({ bigViewRecords: 300, seed: 7 });
  const second = useEmulator({ bigViewRecords: 300, seed: 7 });
  const other = useEmulator({ bigViewRecords: 300, seed: 8 });

  const bigView = async (emulator: typeof first.emulator) => {
    const token = await clientToken(emulator);
    return (await call(emulator, 'GET', '/api/v1/app/201/view/6', { token })).text;
  };

  it('are the same for the same seed and differ for another', async () => {
    const [a, b, c] = await Promise.all([bigView(first.emulator), bigView(second.emulator), bigView(other.emulator)]);
    assert.equal(a, b);
    assert.notEqual(a, c);
  });
});
