import * as assert from 'node:assert/strict';
import { recordPath } from '../../../src/model/recordAddress';
import { appTargetOf, portalTargetOf, recordTargetOf, viewTargetOf } from '../../../src/model/targets';

/** The fields of a vscode.Uri that the parsing reads (its path is decoded, as vscode.Uri keeps it). */
const uri = (authority: string, path: string, scheme = 'portal') => ({ scheme, authority, path, fsPath: path, query: '', fragment: '' });

describe('command targets', () => {
  it('reads tree elements and plain objects, keeping only the target fields', () => {
    const element = { kind: 'record', id: 'x', portalId: 'prod', appId: '201', viewId: '6', recordId: '42', draft: true };
    assert.deepEqual(recordTargetOf(element), { portalId: 'prod', appId: '201', recordId: '42' });
    assert.deepEqual(appTargetOf(element), { portalId: 'prod', appId: '201' });
    assert.deepEqual(viewTargetOf({ portalId: 'prod', appId: '201', viewId: '6', viewName: 'All tickets' }), {
      portalId: 'prod',
      appId: '201',
      viewId: '6',
      viewName: 'All tickets',
    });
    assert.deepEqual(viewTargetOf({ portalId: 'prod', appId: '201', viewId: '6', viewName: '' }), {
      portalId: 'prod',
      appId: '201',
      viewId: '6',
    });
    assert.deepEqual(portalTargetOf({ portalId: 'prod' }), { portalId: 'prod' });
  });

  it('refuses what lacks a field or carries a non-id', () => {
    assert.equal(recordTargetOf({ portalId: 'prod', appId: '201' }), undefined);
    assert.equal(viewTargetOf({ portalId: 'prod', appId: '201', recordId: '4' }), undefined);
    assert.equal(appTargetOf({ portalId: 'prod', appId: 201 }), undefined);
    assert.equal(appTargetOf({ portalId: '', appId: '201' }), undefined);
    assert.equal(recordTargetOf({ portalId: 'prod', appId: '201', recordId: '4/5' }), undefined);
    assert.equal(recordTargetOf({ portalId: 'prod', appId: '201', recordId: ' 4' }), undefined);
    for (const nothing of [undefined, null, 'prod', 42, [], {}]) assert.equal(appTargetOf(nothing), undefined);
  });

  it('reads record document URIs, as vscode.Uri and as text', () => {
    assert.deepEqual(recordTargetOf(uri('prod', '/201/42.json')), { portalId: 'prod', appId: '201', recordId: '42' });
    assert.deepEqual(recordTargetOf('portal://prod/201/42.json'), { portalId: 'prod', appId: '201', recordId: '42' });
    assert.deepEqual(appTargetOf(uri('prod', '/201/42.json')), { portalId: 'prod', appId: '201' });
    // Another document of the app (say its schema) names the app but no record.
    assert.deepEqual(appTargetOf(uri('prod', '/201/schema.schema.json')), { portalId: 'prod', appId: '201' });
    assert.equal(recordTargetOf(uri('prod', '/201/42.txt')), undefined);
    assert.equal(recordTargetOf(uri('prod', '/201/x/42.json')), undefined);
    assert.equal(recordTargetOf(uri('prod', '/201/42.json', 'file')), undefined);
    assert.equal(recordTargetOf('file:///201/42.json'), undefined);
    assert.equal(recordTargetOf('portal://prod/201/%E0%A4%A.json'), undefined);
  });

  it('writes the path that it reads back', () => {
    const target = { portalId: 'staging-2', appId: '102', recordId: '7' };
    assert.equal(recordPath(target), '/102/7.json');
    assert.deepEqual(recordTargetOf(uri(target.portalId, recordPath(target))), target);
  });
});
