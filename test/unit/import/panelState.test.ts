// What the mapping panel is shown, computed without VS Code: the dropdown entries (read-only columns with
// why), the first options (key, decimal separator, view), the preview as it will be sent, and what blocks
// a run. The columns are the emulator's Orders (102) and Customers (101), read over HTTP.
import * as assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dryRunImport } from '../../../src/import/importRun';
import { proposeMapping, setTarget } from '../../../src/import/mapping';
import { indexExisting } from '../../../src/import/plan';
import {
  defaultOptions,
  importSettings,
  keyOptions,
  mappingRows,
  optionProblems,
  optionWarnings,
  previewOf,
  sampleRows,
  targetOf,
  targetOptions,
  targetValue,
} from '../../../src/import/panelState';
import { openSource } from '../../../src/import/sourceFile';
import { useImportPortal } from './support';

describe('import: what the mapping panel shows', () => {
  const portal = useImportPortal({ reset: 'none' });

  async function sourceOf(name: string, text: string) {
    const path = join(portal.folder, name);
    await writeFile(path, text);
    const source = await openSource(path);
    return { source, sample: await sampleRows(source) };
  }

  it('offers every app column, the read-only ones with why, and round-trips each choice', () => {
    const options = targetOptions(portal.orders);
    assert.deepEqual(
      options.slice(0, 2).map((option) => option.value),
      ['ignore', 'recordId'],
    );
    const orderNo = options.find((option) => option.value === 'field:f10');
    assert.match(orderNo?.readOnly ?? '', /read-only \(Auto Number\)/);
    assert.equal(options.find((option) => option.value === 'field:f11')?.readOnly, undefined);
    for (const option of options) assert.equal(targetValue(targetOf(option.value)), option.value);
    assert.deepEqual(keyOptions(portal.customers), [{ value: 'f2', label: 'Name (f2)' }], 'Customer no. is unique but read-only: no key');
  });

  it('shows an ignored column with its reason, and one chosen as Ignore too', () => {
    const mapping = setTarget(
      proposeMapping(['Title', 'Colour', 'Order no.'], portal.orders),
      'Title',
      { kind: 'ignored', reason: 'set to "Ignore" in the mapping' },
      portal.orders,
    );
    assert.deepEqual(mappingRows(mapping), [
      { source: 'Title', target: 'ignore', ignoredWhy: 'set to "Ignore" in the mapping' },
      { source: 'Colour', target: 'ignore', ignoredWhy: 'no column of the app has this name or field_id_in_data' },
      { source: 'Order no.', target: 'ignore', ignoredWhy: 'Order no. (f10) is read-only (Auto Number): it cannot be set through the API' },
    ]);
  });

  it('proposes the key the file feeds, the decimal comma of its amounts, and the first view', async () => {
    const { source, sample } = await sourceOf(
      'orders.csv',
      'Title;Order date;Amount\nDesks;2026-11-21;"1.234,50"\nChairs;2026-11-22;"12,5"\n',
    );
    const mapping = proposeMapping(source.columns, portal.orders);
    const options = defaultOptions(sample, mapping, portal.orders, 'Europe/Paris', '3');
    assert.deepEqual(
      options,
      { mode: 'create', draft: 'published', decimalSeparator: ',', timeZone: 'Europe/Paris', viewId: '3' },
      'Orders has no unique column the API can set',
    );
    const customerSource = await sourceOf('customers.csv', 'Name,Email\nAcme,a@example.com\n');
    const customerOptions = defaultOptions(
      customerSource.sample,
      proposeMapping(customerSource.source.columns, portal.customers),
      portal.customers,
      'UTC',
    );
    assert.equal(customerOptions.matchField, 'f2');
    assert.equal(customerOptions.decimalSeparator, '.');
  });

  it('previews the first rows as they will be sent, a bad value kept with its problem', async () => {
    const { source, sample } = await sourceOf(
      'preview.csv',
      'Title,Order date,Amount,Colour\nDesks,2026-11-21,"1234,50",red\nChairs,31-02-2026,12,blue\n',
    );
    const mapping = proposeMapping(source.columns, portal.orders);
    const preview = previewOf(sample, mapping, portal.orders, {
      mode: 'create',
      draft: 'published',
      decimalSeparator: ',',
      timeZone: 'UTC',
    });
    assert.deepEqual(preview.columns, ['Title', 'Order date', 'Amount']);
    assert.deepEqual(preview.rows[0], { row: 2, cells: [{ value: 'Desks' }, { value: '21-11-2026' }, { value: '1234.50' }] });
    assert.equal(preview.rows[1].cells[1].value, '31-02-2026');
    assert.match(preview.rows[1].cells[1].problem ?? '', /not a real date/);
  });

  it('says what blocks a run before any row is read', () => {
    const mapping = proposeMapping(['Title', 'Amount'], portal.orders);
    const create = { mode: 'create', draft: 'published', decimalSeparator: '.', timeZone: 'UTC' } as const;
    assert.deepEqual(optionProblems(mapping, portal.orders, create), [
      'Order date (f15) is required and no source column feeds it: every new record would be refused.',
    ]);
    const full = proposeMapping(['Title', 'Amount', 'Order date'], portal.orders);
    assert.deepEqual(optionProblems(full, portal.orders, create), []);
    const upsert = optionProblems(full, portal.orders, { ...create, mode: 'upsert' });
    assert.equal(upsert.length, 2);
    assert.match(upsert.join(' '), /choose the view/);
    assert.match(upsert.join(' '), /needs a key/);
    assert.deepEqual(
      optionProblems(proposeMapping(['id', 'Title', 'Amount', 'Order date'], portal.orders), portal.orders, {
        ...create,
        mode: 'upsert',
        viewId: '3',
      }),
      [],
    );
    assert.deepEqual(importSettings('102', full, { ...create, decimalSeparator: ',', matchField: 'f11' }), {
      appId: '102',
      mode: 'create',
      mapping: full,
      matchField: 'f11',
      draft: 'published',
      conversion: { decimalSeparator: ',', timeZone: 'UTC' },
    });
  });

  it('lets an upsert by record id run without the required columns: only rows that would create need them', async () => {
    const mapping = proposeMapping(['id', 'Email'], portal.customers);
    const create = { mode: 'create', draft: 'published', decimalSeparator: '.', timeZone: 'UTC' } as const;
    assert.match(optionProblems(mapping, portal.customers, create).join(), /Name \(f2\) is required/);
    assert.deepEqual(optionProblems(mapping, portal.customers, { ...create, mode: 'upsert', viewId: '1' }), []);
    // A row of that file naming no record would create one: the dry run refuses it, naming the column.
    const { source } = await sourceOf('upsert.csv', 'id,Email\n,new@example.com\n');
    const existing = indexExisting([]);
    const result = await dryRunImport({
      source,
      columns: portal.customers,
      existing,
      settings: importSettings('101', mapping, { ...create, mode: 'upsert', viewId: '1' }),
    });
    assert.deepEqual([result.creates, result.failingRows], [0, 1]);
    assert.match(result.problems[0].message, /required: Name must have a value/);
  });

  it('previews a choice by the name the file wrote, with the id that will be sent', async () => {
    const { source, sample } = await sourceOf('tiers.csv', 'Name,Tier\nAcme,Gold\nGlobex,bronze\nInitech,Platinum\n');
    const preview = previewOf(sample, proposeMapping(source.columns, portal.customers), portal.customers, {
      mode: 'create',
      draft: 'published',
      decimalSeparator: '.',
      timeZone: 'UTC',
    });
    assert.deepEqual(preview.columns, ['Name', 'Tier']);
    assert.deepEqual(
      preview.rows.map((row) => row.cells[1].value),
      ['Gold (3)', 'Bronze (1)', 'Platinum'],
    );
    assert.match(preview.rows[2].cells[1].problem ?? '', /not one of the choices/);
  });

  it('an unknown time zone blocks the run and names itself; the preview still shows, read in UTC', async () => {
    const { source, sample } = await sourceOf('zone.csv', 'Title,Order date,Amount,Delivery\nDesks,2026-11-21,12,2026-11-21 14:05\n');
    const mapping = proposeMapping(source.columns, portal.orders);
    const options = { mode: 'create', draft: 'published', decimalSeparator: '.', timeZone: 'Europe/Berln' } as const;
    assert.deepEqual(optionProblems(mapping, portal.orders, options), [
      'Unknown time zone "Europe/Berln": use an IANA name such as UTC or Europe/Berlin.',
    ]);
    assert.deepEqual(previewOf(sample, mapping, portal.orders, options).rows[0].cells[3], { value: '21-11-2026 14:05' });
    assert.deepEqual(optionProblems(mapping, portal.orders, { ...options, timeZone: 'Europe/Berlin' }), []);
    assert.deepEqual(previewOf(sample, mapping, portal.orders, { ...options, timeZone: 'Europe/Berlin' }).rows[0].cells[3], {
      value: '21-11-2026 13:05',
    });
  });

  it('warns when a lost create could not be looked for: no key, or no view', () => {
    const create = { mode: 'create', draft: 'published', decimalSeparator: '.', timeZone: 'UTC' } as const;
    assert.deepEqual(optionWarnings({ ...create, matchField: 'f2', viewId: '1' }, 'c.uncertain.csv'), []);
    assert.match(
      optionWarnings({ ...create, viewId: '1' }, 'c.uncertain.csv').join(),
      /^Without a key \(a unique column the file feeds\), .*not sent again.*uncertain and written to c\.uncertain\.csv/,
    );
    assert.match(optionWarnings({ ...create, matchField: 'f2' }, 'c.uncertain.csv').join(), /^Without a view of existing records, /);
    assert.match(optionWarnings(create, 'c.uncertain.csv').join(), /^Without a key .* and a view of existing records, /);
  });
});
