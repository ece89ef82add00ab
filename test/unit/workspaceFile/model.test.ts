// The workspace file's reading: every invalid entry a Problem at its position, every valid one kept; a
// secret or token refused where it was typed, with where secrets go; risky settings never read.
import * as assert from 'node:assert/strict';
import { parseWorkspaceFile, SECRET_MESSAGE, type FileProblem } from '../../../src/workspaceFile/model';

/** The text a Problem points at. */
function at(text: string, problem: FileProblem): string {
  return text.slice(problem.offset, problem.offset + problem.length);
}

const GOOD = `{
  // The team's portal: comments are allowed, as in VS Code's other settings files.
  "portals": [
    {
      "name": "Demo",
      "baseUrl": "http://127.0.0.1:4010/",
      "clientId": "demo-client",
      "flow": "clientCredentials",
      "redirectMode": "loopback",
      "webUrlTemplate": "{baseUrl}/app/{appId}/record/{recordId}",
      "apps": [
        {
          "id": "201",
          "titleField": "f31",
          "startWork": { "statusField": "Status", "startStatus": "In progress", "doneStatus": "Done", "userField": "f35" },
          "views": [{ "id": "6", "name": "Open tickets", "columns": ["f31", "f33"] }, { "id": "7" }],
          "queries": [{ "name": "Mine", "view": "6", "filters": [{ "column": "33", "operator": "equals", "value": "me" }], "sort": [{ "column": "31", "direction": "desc" }] }],
          "layouts": [{ "view": "6", "order": ["f33", "f31"], "hidden": ["f40"], "frozen": 1 }]
        }
      ]
    }
  ],
}`;

describe('The workspace file (.vscode/portal.json): reading', () => {
  it('reads every part of a valid file, without a Problem', () => {
    const file = parseWorkspaceFile(GOOD);
    assert.deepEqual(file.problems, []);
    assert.deepEqual(file.portals, [
      {
        name: 'Demo',
        baseUrl: 'http://127.0.0.1:4010',
        clientId: 'demo-client',
        flow: 'clientCredentials',
        redirectMode: 'loopback',
        webUrlTemplate: '{baseUrl}/app/{appId}/record/{recordId}',
        apps: [
          {
            appId: '201',
            titleField: 'f31',
            startWork: { statusField: 'Status', startStatus: 'In progress', doneStatus: 'Done', userField: 'f35' },
            views: [
              { viewId: '6', name: 'Open tickets', columns: ['f31', 'f33'] },
              { viewId: '7', name: 'View 7' },
            ],
            queries: [
              {
                name: 'Mine',
                viewId: '6',
                filters: [{ column: '33', operator: 'equals', value: 'me' }],
                sort: [{ column: '31', direction: 'desc' }],
              },
            ],
            layouts: [{ viewId: '6', order: ['f33', 'f31'], hidden: ['f40'], frozen: 1 }],
          },
        ],
      },
    ]);
  });

  it("reads Start Work's convention, and says when its values have no column", () => {
    const text = GOOD.replace('"statusField": "Status", ', '').replace('"userField": "f35"', '"userField": "f35", "owner": "x"');
    const file = parseWorkspaceFile(text);
    assert.deepEqual(file.portals[0].apps[0].startWork, { startStatus: 'In progress', doneStatus: 'Done', userField: 'f35' });
    assert.deepEqual(
      file.problems.map((problem) => [problem.severity, problem.message]),
      [
        ['warning', 'Unknown property "owner" of "startWork"; expected one of: statusField, startStatus, doneStatus, userField.'],
        ['warning', '"startStatus" and "doneStatus" are values of "statusField": name the column too.'],
      ],
    );
  });

  it('refuses a Secret Key typed into the file, where it stands, and keeps the rest of the portal', () => {
    const text = GOOD.replace('"clientId": "demo-client",', '"clientId": "demo-client",\n      "clientSecret": "s3cr3t",');
    const file = parseWorkspaceFile(text);
    assert.equal(file.problems.length, 1);
    assert.equal(file.problems[0].message, SECRET_MESSAGE);
    assert.equal(file.problems[0].severity, 'error');
    assert.equal(at(text, file.problems[0]), '"clientSecret": "s3cr3t"');
    assert.match(SECRET_MESSAGE, /secret storage/);
    assert.equal(file.portals.length, 1, 'the portal still works');
    assert.ok(!JSON.stringify(file.portals).includes('s3cr3t'), 'the secret is never read');
  });

  for (const [what, replace] of [
    ['a token under any spelling', ['"flow"', '"access_token": "abc", "flow"']],
    ['a password in the address', ['http://127.0.0.1:4010/', 'http://me:pw@127.0.0.1:4010/']],
    ['a bearer header as a value', ['"value": "me"', '"value": "Bearer abc.def"']],
    ['a JWT as a value', ['"name": "Open tickets"', '"name": "eyJhbGciOi.eyJzdWIiOi.c2ln"']],
  ] as const) {
    it(`refuses ${what}`, () => {
      const text = GOOD.replace(replace[0], replace[1]);
      assert.notEqual(text, GOOD);
      const file = parseWorkspaceFile(text);
      assert.deepEqual(
        file.problems.map((problem) => problem.message),
        [SECRET_MESSAGE],
      );
      assert.ok(!JSON.stringify(file.portals).match(/abc|pw@|eyJ/), 'nothing of it is read');
    });
  }

  it('never reads the settings that turn on something risky, and says so', () => {
    const text = GOOD.replace('"portals": [', '"agent.allowChanges": true, "webhooks.bindAddress": "0.0.0.0", "portals": [');
    const file = parseWorkspaceFile(text);
    assert.deepEqual(
      file.problems.map((problem) => [at(text, problem), problem.severity]),
      [
        ['"agent.allowChanges"', 'warning'],
        ['"webhooks.bindAddress"', 'warning'],
      ],
    );
    assert.match(file.problems[0].message, /own settings/);
    assert.equal(file.portals.length, 1);
  });

  it('shows an invalid entry at its position and keeps every valid one', () => {
    const text = `{ "portals": [
      { "name": "No address", "clientId": "x" },
      { "name": "Bad", "baseUrl": "ftp://example.com", "clientId": "x" },
      { "name": "Ok", "baseUrl": "https://portal.example.com", "clientId": "x", "flow": "magic",
        "apps": [ { "id": "1", "views": [ { "name": "no id" }, { "id": "2", "name": "Two" }, { "id": "2" } ],
                    "queries": [ { "name": "q", "view": "2", "filters": [ { "column": "3", "operator": "near" } ] }, { "name": "r", "view": "2" } ],
                    "layouts": [ { "view": "2", "frozen": -1 } ] },
                  "not an app" ] }
    ] }`;
    const file = parseWorkspaceFile(text);
    const problems = file.problems.map((problem) => [problem.severity, at(text, problem).replace(/\s+/g, ' ')]);
    assert.deepEqual(problems, [
      ['error', '{ "name": "No address", "clientId": "x" }'],
      ['error', '"ftp://example.com"'],
      ['error', '"magic"'],
      ['error', '{ "name": "no id" }'],
      ['warning', '{ "id": "2" }'],
      ['error', '"near"'],
      ['error', '-1'],
      ['error', '"not an app"'],
    ]);
    assert.deepEqual(
      file.portals.map((portal) => portal.name),
      ['Ok'],
    );
    const [app] = file.portals[0].apps;
    assert.equal(file.portals[0].flow, 'authorizationCode', 'an unknown flow falls back to the browser sign-in');
    assert.deepEqual(app.views, [{ viewId: '2', name: 'Two' }]);
    assert.deepEqual(app.queries, [{ name: 'r', viewId: '2', filters: [] }]);
    assert.deepEqual(app.layouts, [{ viewId: '2', order: [], hidden: [], frozen: 0 }]);
  });

  it("reads a view's shared board, and shows a board without its column where it stands", () => {
    const text = `{ "portals": [ { "name": "Ok", "baseUrl": "https://portal.example.com", "clientId": "x",
        "apps": [ { "id": "1", "boards": [ { "view": "2", "column": "f3", "lanes": "f5", "fields": ["f1"] }, { "view": "3" } ] } ] } ] }`;
    const file = parseWorkspaceFile(text);
    assert.deepEqual(
      file.problems.map((problem) => [problem.severity, at(text, problem)]),
      [['error', '{ "view": "3" }']],
    );
    assert.match(file.problems[0].message, /"column"/);
    assert.deepEqual(file.portals[0].apps[0].boards, [{ viewId: '2', column: 'f3', lanes: 'f5', fields: ['f1'] }]);
  });

  it("reads an app's reference pattern, and shows a template that cannot be one where it stands", () => {
    const text = `{ "portals": [ { "name": "Ok", "baseUrl": "https://portal.example.com", "clientId": "x",
      "apps": [ { "id": "1", "reference": "TCK-{id}" }, { "id": "2", "reference": "{id}" }, { "id": "3", "reference": 7 } ] } ] }`;
    const file = parseWorkspaceFile(text);
    assert.deepEqual(
      file.problems.map((problem) => [at(text, problem), problem.severity]),
      [
        ['"{id}"', 'error'],
        ['7', 'error'],
      ],
    );
    assert.match(file.problems[0].message, /before \{id\}/);
    assert.deepEqual(
      file.portals[0].apps.map((app) => [app.appId, app.reference]),
      [
        ['1', 'TCK-{id}'],
        ['2', undefined],
        ['3', undefined],
      ],
    );
  });

  it('reads the views My Records reads for an app, and says where one is not an id', () => {
    const text = `{ "portals": [ { "name": "Ok", "baseUrl": "https://portal.example.com", "clientId": "x",
        "apps": [ { "id": "1", "myRecords": ["6", 7] }, { "id": "2" } ] } ] }`;
    const file = parseWorkspaceFile(text);
    assert.deepEqual(
      file.problems.map((problem) => [problem.severity, at(text, problem)]),
      [['error', '7']],
    );
    assert.deepEqual(file.portals[0].apps[0].myRecords, ['6']);
    assert.equal(file.portals[0].apps[1].myRecords, undefined, 'none named: every added view of the app');
  });

  it('says where text that is not JSON breaks, and reads nothing from nothing', () => {
    const broken = parseWorkspaceFile('{ "portals": [ { "name": } ] }');
    assert.ok(broken.problems.some((problem) => problem.message.startsWith('Not valid JSON')));
    assert.deepEqual(parseWorkspaceFile('').portals, []);
    assert.deepEqual(
      parseWorkspaceFile('[]').problems.map((problem) => problem.message),
      ['The file must be an object.'],
    );
  });
});
