// The links of a text: references, portal:// addresses and the extension's links, in order, none inside another.
import * as assert from 'node:assert/strict';
import { addressOfLink, findLinks } from '../../../src/references/linksInText';

const EXTENSION = 'portal-labs.portal-explorer';
const patterns = [
  { portalId: 'prod', appId: '201', template: 'TCK-{id}' },
  { portalId: 'prod', appId: '102', template: '#{id}' },
];

function found(text: string): string[] {
  return [...findLinks(text, patterns, EXTENSION)]
    .sort((a, b) => a.start - b.start)
    .map((link) => `${link.kind ?? 'reference'}:${text.slice(link.start, link.end)}`);
}

describe('references: the links of a text', () => {
  it('finds references, record and view addresses and extension links, without their sentence', () => {
    const text =
      'TCK-1, portal://prod/201/7.json. (portal://prod/201/views/Open%20tickets%20%C2%B7%206) ' +
      'code-oss://portal-labs.portal-explorer/open?portal=https%3A%2F%2Fp.example&app=201&record=9; #2';
    assert.deepEqual(found(text), [
      'reference:TCK-1',
      'address:portal://prod/201/7.json',
      'address:portal://prod/201/views/Open%20tickets%20%C2%B7%206',
      'extension:code-oss://portal-labs.portal-explorer/open?portal=https%3A%2F%2Fp.example&app=201&record=9',
      'reference:#2',
    ]);
    const [, , extension, address, view] = findLinks(text, patterns, EXTENSION);
    assert.ok(address.kind === 'address' && view.kind === 'address');
    const record = addressOfLink(address);
    assert.ok(record?.address.kind === 'record' && record.address.recordId === '7');
    assert.equal(addressOfLink(view)?.path, '/201/views/Open tickets · 6');
    assert.ok(extension.kind === 'extension' && extension.query === 'portal=https%3A%2F%2Fp.example&app=201&record=9');
  });

  it('leaves out addresses of nothing, other extensions, and references inside a link', () => {
    assert.deepEqual(found('portal://prod/ portal://bad id/1.json vscode://other.ext/open?app=1 portal://prod/201/5.json#3'), [
      'address:portal://prod/201/5.json#3',
    ]);
    assert.equal(addressOfLink({ text: 'portal://prod/201/a/b/c' }), undefined, 'an address of nothing is no target');
  });
});
