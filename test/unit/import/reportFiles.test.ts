// What the import writes for a person to open (the dry run's problems, the failures file) guards cells a
// spreadsheet would run as formulas, as the exports do; JSON records that are odd objects (a key named
// constructor or __proto__, deep nesting) become rows or row problems, never a run that ends in a
// TypeError. Against the emulator over HTTP.
import * as assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { dryRunImport } from '../../../src/import/importRun';
import { proposeMapping } from '../../../src/import/mapping';
import { problemsCsv } from '../../../src/import/report';
import { openSource, type SourceRow } from '../../../src/import/sourceFile';
import { importFile } from './portalImport';
import { CUSTOMER_HEADER, useImportPortal } from './support';

describe('import: the files it writes, and odd JSON records', function () {
  this.timeout(60_000);
  const portal = useImportPortal({ reset: 'records' });

  it("the dry run's problems CSV guards formula-looking cells as the exports do", async () => {
    const csv = await problemsCsv([
      { row: 3, column: '=Name', value: '=HYPERLINK("http://x","y")', expected: '+DD-MM-YYYY', message: '@not a real date' },
      { row: 4, column: 'Amount', value: '-12.5', expected: '-1', message: 'plain' },
    ]);
    const lines = csv
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    assert.equal(lines[1], `3,'=Name,"'=HYPERLINK(""http://x"",""y"")",'+DD-MM-YYYY,'@not a real date`);
    assert.equal(lines[2], '4,Amount,-12.5,-1,plain', 'plain numbers are left as they are');
  });

  it('the failures file guards formula-looking cells and header names', async () => {
    const path = await portal.file(`${CUSTOMER_HEADER},=Note\n=cmd|' /C calc'!A0,bad@example.com,Gold,31-02-2026,+x\n`);
    const result = await importFile(path, portal.client, portal.customers, { matchField: 'f2' });
    assert.equal(result.counts.failed, 1);
    const lines = (await readFile(result.failuresPath ?? '', 'utf8'))
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    assert.equal(lines[0], `${CUSTOMER_HEADER},'=Note,Import problem`);
    assert.match(lines[1], /^'=cmd\|' \/C calc'!A0,bad@example\.com,Gold,31-02-2026,'\+x,"?row 2: /);
  });

  it('reads JSON records with keys named constructor and __proto__, and refuses none for it', async () => {
    const path = await portal.file(
      JSON.stringify([
        { Name: 'Proto Ltd', constructor: 'c1' },
        JSON.parse('{"Name":"Other Ltd","__proto__":"p2"}'),
        { Name: 'Third Ltd' },
      ]),
      'json',
    );
    const source = await openSource(path);
    assert.deepEqual(source.columns, ['Name', 'constructor', '__proto__']);
    const rows: SourceRow[] = [];
    for await (const row of source.rows()) rows.push(row);
    assert.deepEqual(
      rows.map((row) => [row.values.Name, row.values.constructor, row.values.__proto__]),
      [
        ['Proto Ltd', 'c1', ''],
        ['Other Ltd', '', 'p2'],
        ['Third Ltd', '', ''],
      ],
    );
    const result = await dryRunImport({
      source,
      columns: portal.customers,
      settings: { appId: '101', mode: 'create', mapping: proposeMapping(source.columns, portal.customers) },
    });
    assert.deepEqual([result.rows, result.creates, result.failingRows], [3, 3, 0]);
  });

  it('a deeply nested JSON value becomes a row problem, and the run goes on to the next rows', async () => {
    const deep = `${'['.repeat(20_000)}1${']'.repeat(20_000)}`;
    const path = await portal.file(`[{"Name":"Deep Ltd","Email":${deep}},{"Name":"Flat Ltd"}]`, 'json');
    const result = await importFile(path, portal.client, portal.customers);
    assert.deepEqual([result.counts.created, result.counts.failed], [1, 1]);
    const failures = JSON.parse(await readFile(result.failuresPath ?? '', 'utf8')) as Array<Record<string, string>>;
    assert.equal(failures.length, 1);
    assert.match(failures[0]['Import problem'], /row 1: .*nested/);
  });
});
