// The merge: folders' files into one list of portals, each matched to a connection by its address (a name
// at another address is a conflict, never followed), and an app's views and queries with the user's own.
import * as assert from 'node:assert/strict';
import { matchPortals, mergeFiles, mergeQueries, mergeViews } from '../../../src/workspaceFile/merge';
import type { SharedPortal } from '../../../src/workspaceFile/model';

const portal = (name: string, baseUrl: string, apps: SharedPortal['apps'] = []): SharedPortal => ({
  name,
  baseUrl,
  clientId: 'c',
  flow: 'clientCredentials',
  apps,
});
const app = (appId: string, views: string[], titleField?: string): SharedPortal['apps'][number] => ({
  appId,
  ...(titleField ? { titleField } : {}),
  views: views.map((viewId) => ({ viewId, name: `V${viewId}` })),
  queries: [],
  layouts: [],
});

describe('The workspace file: merging', () => {
  it('merges a multi-root workspace: one portal per address, the first folder winning a clash', () => {
    const merged = mergeFiles([
      { portals: [portal('Demo', 'http://127.0.0.1:4010', [app('1', ['a', 'b'], 'f1')])], problems: [] },
      {
        portals: [
          portal('Demo too', 'http://127.0.0.1:4010/', [app('1', ['b', 'c'], 'f2'), app('2', ['d'])]),
          portal('Other', 'https://o.example'),
        ],
        problems: [],
      },
    ]);
    assert.deepEqual(
      merged.map((entry) => [entry.name, entry.apps.map((one) => [one.appId, one.titleField, one.views.map((view) => view.viewId)])]),
      [
        [
          'Demo',
          [
            ['1', 'f1', ['a', 'b', 'c']],
            ['2', undefined, ['d']],
          ],
        ],
        ['Other', []],
      ],
    );
  });

  it('matches by address; a connection of the same name elsewhere is a conflict; else missing', () => {
    const connections = [
      { id: 'demo', label: 'My demo', baseUrl: 'HTTP://127.0.0.1:4010/' },
      { id: 'staging', label: 'Staging', baseUrl: 'https://mine.example' },
    ];
    const matches = matchPortals(
      [portal('Demo', 'http://127.0.0.1:4010'), portal('staging', 'https://team.example'), portal('Prod', 'https://prod.example')],
      connections,
    );
    assert.deepEqual(
      matches.map((match) => [match.kind, match.portal.name, 'connectionId' in match ? match.connectionId : undefined]),
      [
        ['connected', 'Demo', 'demo'],
        ['conflict', 'staging', 'staging'],
        ['missing', 'Prod', undefined],
      ],
    );
  });

  it("lists the team's views first, marked shared, then the user's own", () => {
    const merged = mergeViews(
      [
        { viewId: '9', name: 'Mine' },
        { viewId: '6', name: 'My name for six' },
      ],
      [
        { viewId: '6', name: 'Open tickets' },
        { viewId: '7', name: 'Closed' },
      ],
    );
    assert.deepEqual(merged, [
      { viewId: '6', name: 'Open tickets', shared: true, personal: true },
      { viewId: '7', name: 'Closed', shared: true, personal: false },
      { viewId: '9', name: 'Mine', shared: false, personal: true },
    ]);
  });

  it("merges a view's saved queries by name, the user's own winning, sorted", () => {
    const shared = [
      { name: 'Open', viewId: '6', filters: [] },
      { name: 'Mine', viewId: '6', filters: [{ column: '1', operator: 'equals' as const, value: 'team' }] },
      { name: 'Elsewhere', viewId: '7', filters: [] },
    ];
    const merged = mergeQueries([{ name: 'Mine', filters: [] }], shared, '6', (query) => ({
      name: query.name,
      filters: [...query.filters],
    }));
    assert.deepEqual(merged, [
      { query: { name: 'Mine', filters: [] }, shared: false },
      { query: { name: 'Open', filters: [] }, shared: true },
    ]);
  });
});
