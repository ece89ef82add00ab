// Reading import files: CSV and TSV through papaparse with the delimiter detected, the encodings a
// byte-order mark names, JSON arrays and {data: [...]}, and row numbers a person can find. (Memory is
// the benchmark's: test/bench/import.bench.ts.)
import * as assert from 'node:assert/strict';
import { readdir, readlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadPapa, openSource, unreadableRows, type SourceRow } from '../../../src/import/sourceFile';
import { decodeText } from '../../../src/import/sourceText';
import * as fc from 'fast-check';
import { tempFolder } from './support';

async function rowsOf(path: string, options = {}): Promise<{ columns: readonly string[]; delimiter?: string; rows: SourceRow[] }> {
  const source = await openSource(path, options);
  const rows: SourceRow[] = [];
  for await (const row of source.rows()) rows.push(row);
  return { columns: source.columns, delimiter: source.delimiter, rows };
}

describe('import: reading the source file', () => {
  const folder = tempFolder();

  async function file(name: string, content: string | Buffer): Promise<string> {
    const path = join(folder.path, name);
    await writeFile(path, content);
    return path;
  }

  it('reads RFC 4180 CSV: quoted delimiters, doubled quotes, line breaks in cells, CRLF', async () => {
    const path = await file('orders.csv', 'Title,Amount\r\n"Desk, oak","1200.50"\r\n"The ""big"" one","3"\r\n"Two\nlines",4\r\n');
    const { columns, delimiter, rows } = await rowsOf(path);
    assert.deepEqual(columns, ['Title', 'Amount']);
    assert.equal(delimiter, ',');
    assert.deepEqual(
      rows.map((row) => row.values.Title),
      ['Desk, oak', 'The "big" one', 'Two\nlines'],
    );
    assert.deepEqual(
      rows.map((row) => row.row),
      [2, 3, 4],
      'spreadsheet rows: the header is row 1',
    );
  });

  it('detects a semicolon or tab delimiter, and reads .tsv as tab-separated', async () => {
    assert.equal((await rowsOf(await file('semi.csv', 'Title;Amount\nA;1,5\nB;2\n'))).delimiter, ';');
    const tsv = await rowsOf(await file('orders.tsv', 'Title\tAmount\nA, with comma\t1\n'));
    assert.deepEqual(tsv.rows[0].values, { Title: 'A, with comma', Amount: '1' });
  });

  it('keeps row numbers across blank lines, fills short rows and flags rows with extra cells', async () => {
    const { rows } = await rowsOf(await file('gaps.csv', 'A,B\n1,2\n\n3\n4,5,6\n'));
    assert.deepEqual(
      rows.map((row) => [row.row, row.values.A, row.values.B, row.problem !== undefined]),
      [
        [2, '1', '2', false],
        [4, '3', '', false],
        [5, '4', '5', true],
      ],
    );
    assert.deepEqual(rows[2].extra, ['6'], 'the extra cells are kept, for the failures file');
    assert.equal(rows[0].extra, undefined);
  });

  it('skips rows whose cells are all blank (a spreadsheet\'s ",,,"), keeping the row numbers', async () => {
    const { rows } = await rowsOf(await file('blank-rows.csv', 'A,B,C\n1,2,3\n,,\n , ,\t\n,,,,\n4,,\n'));
    assert.deepEqual(
      rows.map((row) => [row.row, row.values.A]),
      [
        [2, '1'],
        [6, '4'],
      ],
    );
  });

  it('names blank and repeated header cells so that every column can be mapped', async () => {
    const { columns } = await rowsOf(await file('header.csv', 'Name,,name,Name\n1,2,3,4\n'));
    assert.deepEqual(columns, ['Name', 'Column 2', 'name (2)', 'Name (3)']);
  });

  for (const [encoding, bom] of [
    ['utf-8', Buffer.from([0xef, 0xbb, 0xbf])],
    ['utf-16le', Buffer.from([0xff, 0xfe])],
    ['utf-16be', Buffer.from([0xfe, 0xff])],
  ] as const) {
    it(`reads ${encoding} with its byte-order mark`, async () => {
      const content = 'Name,City\nZoë,Kraków\n';
      let body = Buffer.from(content, encoding === 'utf-8' ? 'utf8' : 'utf16le');
      if (encoding === 'utf-16be') body = Buffer.from(body).swap16();
      const { columns, rows } = await rowsOf(await file(`${encoding}.csv`, Buffer.concat([bom, body])));
      assert.deepEqual(columns, ['Name', 'City'], 'no BOM left in the first column name');
      assert.deepEqual(rows[0].values, { Name: 'Zoë', City: 'Kraków' });
    });
  }

  it('decodes a character split across chunks, and refuses bytes that are not UTF-8 with the way out', async () => {
    const bytes = Buffer.from('aé€', 'utf8');
    async function* split(): AsyncGenerator<Uint8Array> {
      for (const byte of bytes) yield Uint8Array.of(byte);
    }
    let text = '';
    for await (const chunk of decodeText(split())) text += chunk;
    assert.equal(text, 'aé€');
    const latin1 = await file('latin1.csv', Buffer.from('Name\nZo\xeb\n', 'latin1'));
    await assert.rejects(rowsOf(latin1), /not valid UTF-8.*save it as UTF-8/);
  });

  // The header is read from the first 64 KiB (65,536 bytes): a character that crosses that byte is whole
  // in the file and must not make it look invalid.
  it('reads a UTF-8 file over 64 KiB whose multi-byte character crosses byte 65,536', async () => {
    const header = 'Name,City\n';
    // "€" is three bytes: 65,535 to 65,537 (counted from 1), across the sample's end.
    const filler = 'x'.repeat(65_534 - header.length - Buffer.byteLength(',Zürich\n'));
    const first = `${filler},Zürich\n`;
    const body = `${header}${first}€uro,Kraków\n`;
    const bytes = Buffer.from(body, 'utf8');
    assert.equal(bytes.indexOf(Buffer.from('€', 'utf8')), 65_535 - 1, 'the euro sign starts at byte 65,535');
    const { columns, rows } = await rowsOf(await file('boundary-utf8.csv', bytes));
    assert.deepEqual(columns, ['Name', 'City']);
    assert.deepEqual(
      rows.map((row) => row.values.Name.slice(0, 4)),
      ['xxxx', '€uro'],
    );
    assert.equal(rows[1].values.City, 'Kraków');
  });

  it('reads a UTF-16 file over 64 KiB whose surrogate pair crosses byte 65,536', async () => {
    const header = 'Name,City\n';
    // Two bytes a character after the 2-byte mark: the pair "😀" takes bytes 65,535 to 65,538 (from 1).
    const filler = 'x'.repeat((65_534 - 2) / 2 - header.length - 1);
    const body = `${header}${filler}\n😀 smile,Kraków\n`;
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(body, 'utf16le')]);
    assert.equal(bytes.indexOf(Buffer.from('😀', 'utf16le')), 65_534, 'the pair starts at byte 65,535');
    const { columns, rows } = await rowsOf(await file('boundary-utf16.csv', bytes));
    assert.deepEqual(columns, ['Name', 'City']);
    assert.equal(rows[1].values.Name, '😀 smile');
  });

  // Read in chunks of 64 KiB: a record, a quoted cell with line breaks and a CRLF cut by a chunk's end
  // must come out as papaparse reads the whole text at once.
  it('reads records whose quoted cells and line ends cross the chunks the file is read in, as the whole text parses', async () => {
    const lines = ['Title,Notes,Amount'];
    for (let index = 0; index < 12000; index += 1) {
      lines.push(
        index % 7 === 0
          ? `"Desk ${index}, oak","first line\r\nsecond ""quoted"" line\nthird",${index}`
          : `Chair ${index},${'n'.repeat(index % 40)},${index}.5`,
      );
    }
    const content = `${lines.join('\r\n')}\r\n`;
    assert.ok(Buffer.byteLength(content) > 4 * 65_536, 'the file spans several chunks');
    const { rows } = await rowsOf(await file('chunks.csv', content));
    const Papa = await loadPapa();
    const whole = Papa.parse<string[]>(content, { delimiter: ',', skipEmptyLines: 'greedy' }).data.slice(1);
    assert.equal(rows.length, whole.length);
    rows.forEach((row, index) =>
      assert.deepEqual([row.values.Title, row.values.Notes, row.values.Amount], whole[index], `record ${index + 1}`),
    );
    assert.equal(rows.at(-1)?.values.Title, 'Chair 11999');
  });

  // The chunks are parsed up to their last LF: lines ending in CR alone (no LF at all), a last line
  // without a line break, and cells holding the other line ends must still come out as the whole text parses.
  for (const [name, lineEnd, last] of [
    ['CR', '\r', '\r'],
    ['LF', '\n', ''],
    ['CRLF', '\r\n', ''],
  ] as const) {
    it(`reads a file over 64 KiB with ${name} line ends${last === '' ? ' and none after its last line' : ''}, as the whole text parses`, async () => {
      const lines = ['Title,Notes,Amount'];
      for (let index = 0; index < 9000; index += 1) {
        lines.push(
          index % 5 === 0
            ? `"Desk ${index}, oak","one\ntwo\rthree\r\nfour ""q""",${index}`
            : `Chair ${index},${'n'.repeat(index % 50)},"${index}.5"`,
        );
      }
      const content = `${lines.join(lineEnd)}${last}`;
      assert.ok(content.length > 4 * 65_536, 'the file spans several chunks');
      const { rows } = await rowsOf(await file(`ends-${name}.csv`, content));
      const Papa = await loadPapa();
      const whole = Papa.parse<string[]>(content, { delimiter: ',', skipEmptyLines: 'greedy' }).data.slice(1);
      assert.equal(rows.length, 9000);
      assert.equal(whole.length, 9000);
      rows.forEach((row, index) => {
        assert.deepEqual(
          [row.row, row.values.Title, row.values.Notes, row.values.Amount],
          [index + 2, ...whole[index]],
          `record ${index + 1}`,
        );
      });
    });
  }

  it('closes the file when a loop over the rows stops early', async function () {
    if (process.platform !== 'linux') this.skip(); // open files are read from /proc/self/fd
    const lines = ['Title,Amount', ...Array.from({ length: 20_000 }, (_, index) => `Chair ${index},${index}.5`)];
    const path = await file('early.csv', `${lines.join('\n')}\n`);
    const openOnIt = async (): Promise<number> => {
      let count = 0;
      for (const fd of await readdir('/proc/self/fd')) if ((await readlink(`/proc/self/fd/${fd}`).catch(() => '')) === path) count += 1;
      return count;
    };
    const source = await openSource(path);
    let seen = 0;
    for await (const row of source.rows()) {
      assert.equal(row.row, 2);
      assert.equal(await openOnIt(), 1, 'the file is open while its rows are read');
      seen += 1;
      break;
    }
    assert.equal(seen, 1);
    for (let tries = 0; tries < 50 && (await openOnIt()) > 0; tries += 1) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(await openOnIt(), 0, 'closed after the loop stopped');
  });

  it('hands out every row once, in order, to calls of next() that overlap', async () => {
    const lines = ['Title,Amount', ...Array.from({ length: 20_000 }, (_, index) => `"Chair ${index}, oak",${index}.5`)];
    const path = await file('overlap.csv', `${lines.join('\n')}\n`);
    const { rows: expected } = await rowsOf(path);
    const iterator = (await openSource(path)).rows();
    const got: SourceRow[] = [];
    for (;;) {
      const batch = await Promise.all(Array.from({ length: 7 }, () => iterator.next()));
      for (const next of batch) if (!next.done) got.push(next.value);
      if (batch.some((next) => next.done)) break;
    }
    assert.equal(got.length, 20_000);
    assert.deepEqual(got, expected);
  });

  it('refuses UTF-32 (either byte order) with the way out, rather than reading it as UTF-16 or UTF-8', async () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe, 0x00, 0x00]), Buffer.from('N\0\0\0\n\0\0\0', 'latin1')]);
    const be = Buffer.concat([Buffer.from([0x00, 0x00, 0xfe, 0xff]), Buffer.from('\0\0\0N\0\0\0\n', 'latin1')]);
    await assert.rejects(openSource(await file('utf32le.csv', le)), /UTF-32.*save it as UTF-8/);
    await assert.rejects(openSource(await file('utf32be.csv', be)), /UTF-32.*save it as UTF-8/);
  });

  it('reads JSON as an array of records or as {data: [...]}, values as text', async () => {
    const array = await rowsOf(
      await file('a.json', '[{"Title": "A", "Amount": 12.5, "Tags": ["1", "3"]}, {"Title": "B", "Draft": true, "Note": null}]'),
    );
    assert.deepEqual(array.columns, ['Title', 'Amount', 'Tags', 'Draft', 'Note']);
    assert.deepEqual(
      array.rows[0],
      { row: 1, values: { Title: 'A', Amount: '12.5', Tags: '1,3', Draft: '', Note: '' } },
      'every column, "" where the record lacks it',
    );
    assert.deepEqual(array.rows[1].values, { Title: 'B', Amount: '', Tags: '', Draft: 'true', Note: '' });
    const wrapped = await rowsOf(await file('b.json', '{"metadata": [], "data": [{"f11": "x"}, 7]}'));
    assert.deepEqual(
      wrapped.rows.map((row) => [row.row, row.problem !== undefined]),
      [
        [1, false],
        [2, true],
      ],
    );
    await assert.rejects(rowsOf(await file('c.json', '"just text"')), /array of records/);
    await assert.rejects(rowsOf(await file('d.json', '[{"a": 1}, {"a": ')), /not valid JSON/);
  });
});

describe('import: a CSV file whose quotes are broken', () => {
  const folder = tempFolder();
  let files = 0;

  async function file(content: string): Promise<string> {
    files += 1;
    const path = join(folder.path, `quotes-${files}.csv`);
    await writeFile(path, content);
    return path;
  }

  it('reports a quote never closed on its row, with how much of the file it swallowed', async () => {
    const content = `Name,Note\na,"open\n${'b,c\n'.repeat(400_000)}`;
    const { rows } = await rowsOf(await file(content));
    assert.equal(rows.length, 1, 'papaparse reads the rest of the file into the open cell: one row');
    assert.equal(rows[0].row, 2);
    assert.equal(rows[0].values.Name, 'a');
    assert.equal(rows[0].values.Note.length, 'open\n'.length + 4 * 400_000);
    assert.match(rows[0].problem ?? '', /quote in "Note" that is never closed/);
    assert.match(rows[0].problem ?? '', /400,000 more lines/);
    assert.equal(rows[0].unreadable, true, 'a row the run must not send unless told to skip it');
  });

  it('finds the rows that stop a run (unreadableRows), none in a file whose quotes are fine', async () => {
    const broken = await openSource(await file('Name,Note\na,b\nc,"open\nd,e\n'));
    assert.deepEqual(
      (await unreadableRows(broken)).map((row) => row.row),
      [3],
    );
    assert.deepEqual(await unreadableRows(await openSource(await file('Name,Note\na,"b ""quoted"""\nc,"two\nlines"\n'))), []);
  });

  it('reports a quoted cell with text after its closing quote on its row, and reads the rows after it', async () => {
    const { rows } = await rowsOf(await file('Name,Note\na,"quoted" text",x\nb,c\n'));
    assert.deepEqual(
      rows.map((row) => [row.row, row.problem !== undefined, row.unreadable === true]),
      [
        [2, true, true],
        [3, false, false],
      ],
    );
    assert.match(rows[0].problem ?? '', /text after its closing quote/);
  });

  it('refuses a header row whose quote is never closed, rather than taking the file for one column', async () => {
    await assert.rejects(openSource(await file('Name,"Note\na,b\n')), /header row.*quote/);
  });

  // papaparse's own parse of the whole text is the reference: the same records, and a problem on each
  // record it reports an error for (the reader reads the file in 64 KiB chunks, which the filler moves).
  const cellText = fc.string({ unit: fc.constantFrom('a', ' ', ',', '"', '""', '\n', '\r', '\r\n', 'é', '😀', 'x"y'), maxLength: 6 });
  const cell = fc.oneof(
    cellText,
    cellText.map((text) => `"${text.replace(/"/g, '""')}"`),
    cellText.map((text) => `"${text}`),
    cellText.map((text) => `"${text}" ${text}`),
  );
  const csv = fc.record({
    lineEnd: fc.constantFrom('\n', '\r\n'),
    filler: fc.oneof(fc.constant(0), fc.integer({ min: 65_400, max: 65_560 })),
    records: fc.array(fc.array(cell, { minLength: 1, maxLength: 4 }), { maxLength: 8 }),
    endsWithLineEnd: fc.boolean(),
    /** Many rows after the generated ones: a quote left open swallows them, across several chunks. */
    tail: fc.constantFrom('', '', '', '', '', 'b,c', 'b,"c"', '"b",c'),
  });

  it('reads the records and reports the errors that papaparse reads from the whole text (fast-check)', async function () {
    this.timeout(Number(process.env.FC_RUNS ?? 100) * 1_000);
    const Papa = await loadPapa();
    await fc.assert(
      fc.asyncProperty(csv, async ({ lineEnd, filler, records, endsWithLineEnd, tail }) => {
        const lines = [
          'Name,Note,Count',
          ...(filler > 0 ? [`filler,${'f'.repeat(filler)},1`] : []),
          ...records.map((cells) => cells.join(',')),
          ...(tail ? Array<string>(20_000).fill(tail) : []),
        ];
        const content = lines.join(lineEnd) + (endsWithLineEnd ? lineEnd : '');
        const whole = Papa.parse<string[]>(content, { delimiter: ',' });
        const erring = new Set(whole.errors.map((error) => error.row));
        const expected = whole.data.flatMap((cells, index) => {
          if (index === 0 || (!erring.has(index) && cells.every((text) => text.trim() === ''))) return [];
          const extra = cells.slice(3).some((text) => text !== '');
          return [[index + 1, cells[0] ?? '', cells[1] ?? '', cells[2] ?? '', erring.has(index) || extra, erring.has(index)]];
        });
        const { rows } = await rowsOf(await file(content));
        const actual = rows.map((row) => [
          row.row,
          row.values.Name,
          row.values.Note,
          row.values.Count,
          row.problem !== undefined,
          row.unreadable === true,
        ]);
        assert.deepEqual(
          actual,
          expected,
          JSON.stringify(content.length > 600 ? `${content.slice(0, 300)}…${content.slice(-300)}` : content),
        );
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 100) },
    );
  });
});
