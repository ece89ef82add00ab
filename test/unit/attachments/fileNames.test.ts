import * as assert from 'node:assert/strict';
import { formatBytes, safeFileName } from '../../../src/attachments/fileNames';

describe('attachment file names and sizes', () => {
  it('keeps only the last segment of a name with folders, whatever the separator', () => {
    assert.equal(safeFileName('../../etc/passwd', 'x'), 'passwd');
    assert.equal(safeFileName('C:\\Users\\ada\\report.pdf', 'x'), 'report.pdf');
    assert.equal(safeFileName('Übersicht 2026.pdf', 'x'), 'Übersicht 2026.pdf');
  });

  it('replaces characters a file system refuses and falls back when nothing is left', () => {
    assert.equal(safeFileName('a:b*c?.txt', 'x'), 'a_b_c_.txt');
    assert.equal(safeFileName('line\nbreak.txt', 'x'), 'line_break.txt');
    assert.equal(safeFileName('..', 'attachment'), 'attachment');
    assert.equal(safeFileName('dir/', 'attachment'), 'attachment');
    assert.equal(safeFileName(undefined, 'attachment'), 'attachment');
    assert.equal(safeFileName('name. ', 'x'), 'name');
  });

  it('replaces controls that reorder or hide characters, so a name reads as what it is', () => {
    assert.equal(safeFileName('invoice\u202Efdp.exe', 'x'), 'invoice_fdp.exe');
    for (const control of [
      '\u202A',
      '\u202B',
      '\u202C',
      '\u202D',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
      '\u200E',
      '\u200F',
      '\u061C',
      '\u200B',
      '\uFEFF',
    ]) {
      assert.equal(safeFileName(`a${control}b.txt`, 'x'), 'a_b.txt', `U+${control.codePointAt(0)?.toString(16)}`);
    }
  });

  it('never proposes a name Windows reserves for a device, with or without an extension', () => {
    for (const name of ['CON', 'con.txt', 'NUL', 'nul.tar.gz', 'PRN.pdf', 'AUX', 'COM1', 'com9.log', 'LPT1.txt', 'lpt9', 'COM\u00B9']) {
      const safe = safeFileName(name, 'x');
      assert.equal(safe, `_${name}`, name);
    }
    assert.equal(safeFileName('CONTRACT.pdf', 'x'), 'CONTRACT.pdf');
    assert.equal(safeFileName('null.txt', 'x'), 'null.txt');
    assert.equal(safeFileName('COM10.txt', 'x'), 'COM10.txt');
  });

  it('shortens a very long name and keeps its extension', () => {
    const long = `${'a'.repeat(300)}.pdf`;
    const safe = safeFileName(long, 'x');
    assert.equal(safe.length, 200);
    assert.ok(safe.endsWith('.pdf'));
  });

  it('says sizes the way file managers do', () => {
    assert.equal(formatBytes(1), '1 byte');
    assert.equal(formatBytes(512), '512 bytes');
    assert.equal(formatBytes(300 * 1024), '300 KB');
    assert.equal(formatBytes(1536), '1.5 KB');
    assert.equal(formatBytes(25 * 1024 * 1024), '25 MB');
    assert.equal(formatBytes(1.5 * 1024 ** 3), '1.5 GB');
  });
});
