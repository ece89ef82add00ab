import * as assert from 'node:assert/strict';
import type { Column } from '../../../src/api/types';
import { newRecordText, parseDocument, recordText } from '../../../src/fs/recordText';
import { newRecordPath, parseDocumentPath, recordPath, schemaPath, schemaReference } from '../../../src/model/recordAddress';
import { column } from '../api/valueCases';

const columns: Column[] = [
  { ...column('Auto Number', '15'), field_id_in_data: 'f1' },
  { ...column('Text Field', '0'), field_id_in_data: 'f2', required: '1' },
  { ...column('Date', '4'), field_id_in_data: 'f9' },
];

describe('a record as the text of its document', () => {
  it('is pretty JSON: $schema first, then every column in the order given, values as strings', () => {
    const text = recordText({ f9: '01-02-2026', f2: 'Acme "Ltd"', f1: '1001', extra: 'x' }, columns, 'portal://p/101/schema/record.json');
    assert.equal(
      text,
      '{\n  "$schema": "portal://p/101/schema/record.json",\n  "f1": "1001",\n  "f2": "Acme \\"Ltd\\"",\n  "f9": "01-02-2026"\n}\n',
    );
    assert.match(recordText({}, columns, 's'), /"f9": ""/, 'a field the portal did not send shows empty');
  });

  it('starts a new record with the required writable fields, empty', () => {
    const text = newRecordText(columns, 's', (candidate) => candidate.required === '1' && candidate.type !== '15');
    assert.equal(text, '{\n  "$schema": "s",\n  "f2": ""\n}\n');
  });

  it('reads a document back strictly, saying where it is not JSON', () => {
    assert.deepEqual(parseDocument('{"f2": "a", "f9": 3}'), { ok: true, values: { f2: 'a', f9: 3 } });
    const broken = parseDocument('{\n  "f2": "a"\n  "f9": "b"\n}');
    assert.equal(broken.ok, false);
    assert.match(!broken.ok ? broken.message : '', /^The document is not valid JSON: Comma expected at line 3, column 3\.$/);
    assert.match((parseDocument('{"f2": "a",}') as { message: string }).message, /not valid JSON/);
    assert.match((parseDocument('// note\n{}') as { message: string }).message, /not valid JSON/);
    assert.match((parseDocument('["f2"]') as { message: string }).message, /one JSON object of fields/);
    assert.match((parseDocument('{"f2": "a", "f2": "b"}') as { message: string }).message, /f2 appears twice/);
  });
});

describe('the paths of the portal: documents', () => {
  it('tells records, new records, schemas and folders apart', () => {
    assert.deepEqual(parseDocumentPath(recordPath({ appId: '102', recordId: '7' })), { kind: 'record', appId: '102', recordId: '7' });
    assert.deepEqual(parseDocumentPath(newRecordPath('102', 3)), {
      kind: 'new',
      appId: '102',
      name: 'new-record-3.json',
      n: 3,
      draft: false,
    });
    assert.deepEqual(
      parseDocumentPath(newRecordPath('102', 4, true)),
      { kind: 'new', appId: '102', name: 'new-draft-4.json', n: 4, draft: true },
      'a draft says so in its name',
    );
    assert.deepEqual(parseDocumentPath(schemaPath('102')), { kind: 'schema', appId: '102' });
    assert.deepEqual(parseDocumentPath('/'), { kind: 'directory' });
    for (const folder of ['/102', '/102/new', '/102/schema'])
      assert.deepEqual(parseDocumentPath(folder), { kind: 'directory', appId: '102' }, folder);
    for (const other of ['/102/7.txt', '/102/new/7.json', '/102/new/new-other-1.json', '/102/schema/other.json', '/a/b/c/d.json'])
      assert.equal(parseDocumentPath(other), undefined, other);
    assert.equal(schemaReference('prod', '102'), 'portal://prod/102/schema/record.json');
  });
});
