// Where the reference patterns come from: the workspace file first, then the setting, by address.
import * as assert from 'node:assert/strict';
import { readPatterns } from '../../../src/references/sources';

const connections = [
  { id: 'prod', baseUrl: 'https://portal.example.com/' },
  { id: 'staging', baseUrl: 'https://staging.example.com' },
];

describe('references: where the patterns come from', () => {
  it("takes the workspace file's apps first, then the setting's for the apps it leaves, per connection", () => {
    const read = readPatterns(
      [
        { portalId: 'prod', app: { appId: '201', reference: 'TCK-{id}' } },
        { portalId: 'prod', app: { appId: '101' } },
      ],
      {
        'https://portal.example.com': { '201': 'T-{id}', '102': '#{id}' },
        'https://STAGING.example.com/': { '7': 'ORD-{id}' },
        'https://elsewhere.example.com': { '1': 'X-{id}' },
      },
      connections,
    );
    assert.deepEqual(read.patterns, [
      { portalId: 'prod', appId: '201', template: 'TCK-{id}' },
      { portalId: 'prod', appId: '102', template: '#{id}' },
      { portalId: 'staging', appId: '7', template: 'ORD-{id}' },
    ]);
    assert.deepEqual(read.problems, []);
  });

  it('leaves out a template with a problem, and one that another app has, saying why', () => {
    const read = readPatterns(
      [{ portalId: 'prod', app: { appId: '201', reference: 'TCK-{id}' } }],
      {
        'https://staging.example.com': { '7': 'TCK-{id}', '8': '{id}' },
      },
      connections,
    );
    assert.deepEqual(read.patterns, [{ portalId: 'prod', appId: '201', template: 'TCK-{id}' }]);
    assert.equal(read.problems.length, 2);
    assert.match(read.problems[0], /app 201's already/);
    assert.match(read.problems[1], /before \{id\}/);
  });
});
