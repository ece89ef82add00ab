import * as assert from 'node:assert/strict';
import {
  parseAddress,
  parseDocumentPath,
  recordNamesOf,
  recordPath,
  uriOfText,
  viewGridPath,
  viewNameOfPath,
  viewOfUri,
} from '../../../src/model/recordAddress';

describe('the record address', () => {
  const record = { appId: '102', recordId: '7' };

  it('names a record for its tab, and reads it back by ids', () => {
    const path = recordPath(record, { title: 'Printer broken', appName: 'Orders' });
    assert.equal(path, '/102 Orders/Printer broken · 7.json');
    assert.deepEqual(parseDocumentPath(path), { kind: 'record', appId: '102', recordId: '7' });
  });

  it('keeps the address by ids when no title is known, and reads older addresses', () => {
    assert.equal(recordPath(record), '/102/7.json');
    assert.equal(recordPath(record, { appName: 'Orders' }), '/102/7.json');
    assert.deepEqual(parseDocumentPath('/102/7.json'), { kind: 'record', appId: '102', recordId: '7' });
    // A title changed since, or another app name: still the same record.
    assert.deepEqual(parseDocumentPath('/102 Old name/Old title · 7.json'), { kind: 'record', appId: '102', recordId: '7' });
  });

  it('makes any title one safe segment: no slash, no line break, not too long', () => {
    const path = recordPath(record, { title: 'a/b\\c\nd · e', appName: 'x/y' });
    assert.equal(path.split('/').length, 3, path);
    assert.deepEqual(parseDocumentPath(path), { kind: 'record', appId: '102', recordId: '7' });
    const long = recordPath(record, { title: 'x'.repeat(500) });
    assert.ok(long.length < 80, long);
    assert.deepEqual(parseDocumentPath(long), { kind: 'record', appId: '102', recordId: '7' });
    assert.equal(recordPath(record, { title: '  \n ' }), '/102/7.json');
  });

  it('parses a URI, or its text, with the portal', () => {
    assert.deepEqual(parseAddress({ scheme: 'portal', authority: 'prod', path: '/102 Orders/Late · 7.json' }), {
      kind: 'record',
      portalId: 'prod',
      appId: '102',
      recordId: '7',
    });
    assert.equal(parseAddress({ scheme: 'file', authority: '', path: '/102/7.json' }), undefined);
    const text = uriOfText('portal://prod/102%20Orders/Late%20%C2%B7%207.json');
    assert.ok(text);
    assert.deepEqual(parseAddress(text), { kind: 'record', portalId: 'prod', appId: '102', recordId: '7' });
  });

  it('reads the names an argument carries, and only strings', () => {
    assert.deepEqual(recordNamesOf({ title: 'T', appName: 'A', recordId: '1' }), { title: 'T', appName: 'A' });
    assert.deepEqual(recordNamesOf({ title: 3 }), { title: undefined, appName: undefined });
    assert.deepEqual(recordNamesOf('portal://x/1/2.json'), {});
  });
});

describe('the address of a view as a grid', () => {
  it('is named for its tab by the view and app, and parsed by ids only', () => {
    const path = viewGridPath({ appId: '102', viewId: '3' }, { viewName: 'All orders', appName: 'Orders' });
    assert.equal(path, '/102 Orders/views/All orders — Orders · 3', 'no file extension in the tab title');
    assert.deepEqual(parseAddress({ scheme: 'portal', authority: 'prod', path }), {
      kind: 'view',
      appId: '102',
      viewId: '3',
      portalId: 'prod',
    });
    assert.deepEqual(viewOfUri({ scheme: 'portal', authority: 'prod', path: '/102/views/3.grid' }), {
      portalId: 'prod',
      appId: '102',
      viewId: '3',
    });
    assert.equal(viewNameOfPath(path), 'All orders');
    assert.equal(viewGridPath({ appId: '102', viewId: '3' }), '/102/views/View 3 · 3');
    // An address of an older version (a tab VS Code restores) still opens its view.
    const older = '/102 Orders/views/All orders — Orders · 3.grid';
    assert.deepEqual(parseAddress({ scheme: 'portal', authority: 'prod', path: older }), {
      kind: 'view',
      appId: '102',
      viewId: '3',
      portalId: 'prod',
    });
    assert.equal(viewNameOfPath(older), 'All orders');
    assert.equal(parseAddress({ scheme: 'portal', authority: 'prod', path: '/102/views/3.json' }), undefined, 'a record id is not a view');
  });
});
