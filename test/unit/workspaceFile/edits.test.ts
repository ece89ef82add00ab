// Share with Workspace and Keep Personal as edits of the file's text: the entry lands in its portal's app (both
// created when missing, never with a secret), replaces the one of the same key, and goes again; comments,
// order and indentation stay; a file that is not valid JSON is refused, never rewritten.
import * as assert from 'node:assert/strict';
import { applyEdits } from 'jsonc-parser';
import { shareEdits, unshareEdits, type PortalHeader, type SharedEntry } from '../../../src/workspaceFile/edits';
import { parseWorkspaceFile } from '../../../src/workspaceFile/model';

const PORTAL: PortalHeader = { name: 'Demo', baseUrl: 'http://127.0.0.1:4010', clientId: 'client-1', flow: 'clientCredentials' };
const VIEW: SharedEntry = { kind: 'view', view: { viewId: '7', name: 'Open tickets' } };
const QUERY: SharedEntry = {
  kind: 'query',
  query: {
    name: 'Urgent',
    viewId: '6',
    filters: [{ column: '33', operator: 'equals', value: 'High' }],
    sort: [{ column: '31', direction: 'desc' }],
    columns: ['31', '33'],
  },
};
const LAYOUT: SharedEntry = { kind: 'layout', layout: { viewId: '6', order: ['33', '31'], hidden: ['32'], frozen: 1 } };

const share = (text: string, entry: SharedEntry, appId = '201', portal = PORTAL): string =>
  applyEdits(text, shareEdits(text, portal, appId, entry));

const TEAM_FILE = `// The team's portals: reviewed like code.
{
    "portals": [
        {
            "name": "Demo",
            "baseUrl": "http://127.0.0.1:4010/",
            "clientId": "client-1",
            "flow": "clientCredentials",
            "apps": [
                {
                    "id": "201",
                    // Ask Kim before renaming these.
                    "views": [{ "id": "6", "name": "All tickets" }]
                }
            ]
        }
    ]
}
`;

describe('The workspace file: Share with Workspace and Keep Personal as edits', () => {
  it('writes a whole file when there is none: the portal without any secret, its app and the entry', () => {
    const text = share('', VIEW);
    const file = parseWorkspaceFile(text);
    assert.deepEqual(file.problems, []);
    assert.deepEqual(file.portals, [
      { ...PORTAL, apps: [{ appId: '201', views: [{ viewId: '7', name: 'Open tickets' }], queries: [], layouts: [] }] },
    ]);
    assert.doesNotMatch(text, /secret|token/i);
  });

  it('adds a view to the app the file names, keeping its comments, order and four-space indentation', () => {
    const text = share(TEAM_FILE, VIEW);
    assert.match(text, /^\/\/ The team's portals: reviewed like code\./);
    assert.match(text, /\/\/ Ask Kim before renaming these\./);
    assert.match(text, /\n {28}"name": "Open tickets"/, text);
    assert.deepEqual(
      parseWorkspaceFile(text).portals[0].apps[0].views.map((view) => view.viewId),
      ['6', '7'],
    );
    assert.equal(
      text.slice(0, TEAM_FILE.indexOf('"views"')),
      TEAM_FILE.slice(0, TEAM_FILE.indexOf('"views"')),
      'what is before stays as it was',
    );
  });

  it('adds the app, or the portal, when the file lacks it, beside what it holds', () => {
    const withApp = parseWorkspaceFile(share(TEAM_FILE, QUERY, '202'));
    assert.deepEqual(
      withApp.portals[0].apps.map((app) => [app.appId, app.queries.map((query) => query.name)]),
      [
        ['201', []],
        ['202', ['Urgent']],
      ],
    );
    const other: PortalHeader = {
      name: 'Other',
      baseUrl: 'https://other.example',
      clientId: 'c2',
      flow: 'authorizationCode',
      redirectMode: 'loopback',
    };
    const withPortal = parseWorkspaceFile(share(TEAM_FILE, LAYOUT, '5', other));
    assert.deepEqual(withPortal.problems, []);
    assert.deepEqual(
      withPortal.portals.map((portal) => [portal.name, portal.redirectMode, portal.apps.map((app) => app.layouts.length)]),
      [
        ['Demo', undefined, [0]],
        ['Other', 'loopback', [1]],
      ],
    );
  });

  it("keeps a query's sort and columns, and replaces the entry of the same key rather than adding a second", () => {
    const once = share(TEAM_FILE, QUERY);
    const twice = share(once, { kind: 'query', query: { ...(QUERY.kind === 'query' ? QUERY.query : ({} as never)), filters: [] } });
    const queries = parseWorkspaceFile(twice).portals[0].apps[0].queries;
    assert.deepEqual(queries, [
      { name: 'Urgent', viewId: '6', filters: [], sort: [{ column: '31', direction: 'desc' }], columns: ['31', '33'] },
    ]);
    const renamed = share(TEAM_FILE, { kind: 'view', view: { viewId: '6', name: 'Every ticket' } });
    assert.deepEqual(parseWorkspaceFile(renamed).portals[0].apps[0].views, [{ viewId: '6', name: 'Every ticket' }]);
  });

  it('finds the portal by its address, not its name, and the entry beside invalid ones', () => {
    const text = TEAM_FILE.replace('"name": "Demo"', '"name": "Renamed"').replace('[{ "id": "6"', '[{ "nope": 1 }, { "id": "6"');
    const removed = applyEdits(text, unshareEdits(text, 'http://127.0.0.1:4010', '201', { kind: 'view', viewId: '6' }));
    assert.match(removed, /"views": \[\{ "nope": 1 \}\]/);
    assert.match(removed, /\/\/ Ask Kim/);
  });

  it('takes a shared entry out again, and nothing when the file does not hold it', () => {
    const text = share(share(TEAM_FILE, QUERY), LAYOUT);
    const withoutQuery = applyEdits(text, unshareEdits(text, PORTAL.baseUrl, '201', { kind: 'query', viewId: '6', name: 'Urgent' }));
    const app = parseWorkspaceFile(withoutQuery).portals[0].apps[0];
    assert.deepEqual([app.queries.length, app.layouts.length, app.views.length], [0, 1, 1]);
    assert.deepEqual(unshareEdits(TEAM_FILE, PORTAL.baseUrl, '201', { kind: 'query', viewId: '6', name: 'Urgent' }), []);
    assert.deepEqual(unshareEdits(TEAM_FILE, 'https://elsewhere.example', '201', { kind: 'view', viewId: '6' }), []);
    assert.deepEqual(unshareEdits('', PORTAL.baseUrl, '201', { kind: 'view', viewId: '6' }), []);
  });

  it('refuses a file that is not valid JSON or not an object, saying so, rather than rewrite it', () => {
    assert.throws(() => shareEdits('{ "portals": [ ', PORTAL, '201', VIEW), /not valid JSON at the moment/);
    assert.throws(() => shareEdits('[]', PORTAL, '201', VIEW), /must hold one JSON object/);
    assert.throws(() => shareEdits('{ "portals": {} }', PORTAL, '201', VIEW), /"portals" in \.vscode\/portal\.json is not a list/);
  });
});
