// Open in Portal's template: ids in their places, encoded; what the template needs and the target lacks,
// or a page outside http(s), refused with how to set the template.
import * as assert from 'node:assert/strict';
import { expandWebUrl } from '../../../src/workspaceFile/webUrl';

describe('Open in Portal: the web page template', () => {
  it('puts the base URL and the ids in their places', () => {
    assert.equal(
      expandWebUrl('{baseUrl}/app/{appId}/view/{viewId}/record/{recordId}', {
        baseUrl: 'https://portal.example.com/',
        appId: '201',
        viewId: '7',
        recordId: '4 2',
      }),
      'https://portal.example.com/app/201/view/7/record/4%202',
    );
    assert.equal(
      expandWebUrl('{baseUrl}/app/{appId}/view/{viewId}', { baseUrl: 'http://127.0.0.1:4010', appId: '201', viewId: '7' }),
      'http://127.0.0.1:4010/app/201/view/7',
    );
  });

  it('says what the template needs that a view lacks, and how to set it', () => {
    assert.throws(
      () => expandWebUrl('{baseUrl}/r/{recordId}', { baseUrl: 'https://p.example', appId: '1', viewId: '2' }),
      /needs \{recordId\}, which a view does not have: Add "webUrlTemplate"/,
    );
  });

  it('opens no page outside http(s)', () => {
    assert.throws(
      () => expandWebUrl('javascript:alert({appId})', { baseUrl: 'https://p.example', appId: '1', viewId: '2' }),
      /only http\(s\) pages open/,
    );
    assert.throws(() => expandWebUrl('{appId}', { baseUrl: 'https://p.example', appId: '1', viewId: '2' }), /not an address/);
  });
});
