// Links to records, views and saved queries: what is built is read back the same; a link cut short, or
// naming what is not a portal, is refused with a message saying so.
import * as assert from 'node:assert/strict';
import { linkQuery, parseLinkQuery, type LinkTarget } from '../../../src/workspaceFile/links';

describe('Portal Explorer links', () => {
  for (const target of [
    { portal: 'https://portal.example.com', name: 'Production', appId: '201', viewId: '7', recordId: '42' },
    { portal: 'http://127.0.0.1:4010', name: 'Demo & test', appId: '201', viewId: '7' },
    { portal: 'https://portal.example.com/sub', name: 'P', appId: '201', viewId: '7', queryName: 'Mine = "open" & late' },
  ] satisfies LinkTarget[]) {
    it(`reads back what it built: ${JSON.stringify(target)}`, () => {
      assert.deepEqual(parseLinkQuery(linkQuery(target)), target);
    });
  }

  for (const [query, message] of [
    ['app=1&view=2', /no portal address/],
    ['portal=javascript:alert(1)&app=1&view=2', /not a portal address/],
    ['portal=https://u:p@portal.example.com&app=1&view=2', /not a portal address/],
    ['portal=https://portal.example.com&view=2', /no app/],
    ['portal=https://portal.example.com&app=1', /neither a view nor a record/],
    ['portal=https://portal.example.com&app=1&view=../x', /view id/],
    ['portal=https://portal.example.com&app=1&record=2&query=q', /saved query without its view/],
  ] as const) {
    it(`refuses ${query}`, () => {
      assert.throws(() => parseLinkQuery(query), message);
    });
  }
});
