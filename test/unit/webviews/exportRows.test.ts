// The export's files: CSV by RFC 4180 with the formula guard, JSON of the portal's values, in the grid's order.
import * as assert from 'node:assert/strict';
import {
  csvField,
  csvLines as csvOf,
  exportOrder as orderOf,
  guardFormula,
  jsonLines as jsonOf,
  listSource,
  type RowSource,
} from '../../../src/webviews/viewQuery/exportRows';
import type { ViewRow } from '../../../src/api/answers';
import { RECORD_ID_KEY, type GridColumn, type SortSpec } from '../../../src/shared/protocol';

// The tests hold rows as lists; the module reads them through a RowSource.
const source = (rows: readonly ViewRow[]): RowSource => listSource(rows);
const csvLines = (columns: readonly GridColumn[], rows: readonly ViewRow[], order?: Uint32Array) => csvOf(columns, source(rows), order);
const jsonLines = (columns: readonly GridColumn[], rows: readonly ViewRow[], order?: Uint32Array) => jsonOf(columns, source(rows), order);
const exportOrder = (columns: readonly GridColumn[], rows: readonly ViewRow[], sort: SortSpec | undefined) =>
  orderOf(columns, source(rows), sort);

const columns: GridColumn[] = [
  { key: 'f1', name: 'Name, full', kind: 'text' },
  { key: 'f2', name: 'Amount', kind: 'currency' },
  {
    key: 'f3',
    name: 'Tier',
    kind: 'choice',
    choices: [
      { id: '1', name: 'Bronze' },
      { id: '3', name: 'Gold' },
    ],
  },
];
const rows: ViewRow[] = [
  { id: '1', draft: false, values: { f1: 'Ada "the first"', f2: '12.5', f3: '3' } },
  { id: '2', draft: true, values: { f1: '=HYPERLINK("http://x")', f2: '-3', f3: '1' } },
  { id: '3', draft: false, values: { f1: 'two\nlines', f2: '', f3: '' } },
];

describe('exporting rows', () => {
  it('quotes CSV fields as RFC 4180 says', () => {
    assert.equal(csvField('plain'), 'plain');
    assert.equal(csvField('a,b'), '"a,b"');
    assert.equal(csvField('say "hi"'), '"say ""hi"""');
    assert.equal(csvField('line\r\nbreak'), '"line\r\nbreak"');
  });

  it('guards cells a spreadsheet would run, but not plain numbers', () => {
    for (const value of ['=1+1', '+cmd', '-2+3', '@SUM(A1)', '\tx', '\rx']) assert.equal(guardFormula(value), `'${value}`);
    for (const value of ['-12.5', '-3', 'a=b', '']) assert.equal(guardFormula(value), value);
  });

  it('writes a header of field names and every row, choices as names', () => {
    const text = [...csvLines(columns, rows)].join('');
    assert.equal(
      text,
      [
        'Record id,"Name, full",Amount,Tier',
        '1,"Ada ""the first""",12.5,Gold',
        `2,"'=HYPERLINK(""http://x"")",-3,Bronze`,
        '3,"two\nlines",,',
      ].join('\r\n') + '\r\n',
    );
  });

  it('says in the CSV header that a date & time column is in UTC', () => {
    const dated: GridColumn[] = [
      { key: 'f5', name: 'Opened', kind: 'datetime' },
      { key: 'f6', name: 'Due', kind: 'date' },
    ];
    assert.equal([...csvLines(dated, [])].join(''), 'Record id,Opened (UTC),Due\r\n');
  });

  it("writes JSON with the portal's values, parseable", () => {
    const parsed = JSON.parse([...jsonLines(columns, rows)].join('')) as unknown;
    assert.deepEqual(parsed, [
      { id: '1', draft: '0', f1: 'Ada "the first"', f2: '12.5', f3: '3' },
      { id: '2', draft: '1', f1: '=HYPERLINK("http://x")', f2: '-3', f3: '1' },
      { id: '3', draft: '0', f1: 'two\nlines', f2: '', f3: '' },
    ]);
    assert.deepEqual(JSON.parse([...jsonLines(columns, [])].join('')), []);
  });

  it("follows the grid's sort: numbers as numbers, empty last, choices by name", () => {
    const byAmount = exportOrder(columns, rows, { key: 'f2', direction: 'ascending' });
    assert.deepEqual([...(byAmount ?? [])], [1, 0, 2]);
    const byTier = exportOrder(columns, rows, { key: 'f3', direction: 'descending' });
    assert.deepEqual([...(byTier ?? [])], [0, 1, 2], 'Gold before Bronze, empty last');
    const byId = exportOrder(columns, rows, { key: RECORD_ID_KEY, direction: 'descending' });
    assert.deepEqual([...(byId ?? [])], [2, 1, 0]);
    assert.equal([...csvLines(columns, rows, byAmount)][1].startsWith('2,'), true);
  });
});
