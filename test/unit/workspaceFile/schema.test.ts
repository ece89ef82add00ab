// The JSON schema VS Code's JSON editor checks and completes the file with (contributed by jsonValidation)
// says what the reader reads: the same keys in each object, the same choices, and nothing that takes a
// secret.
import * as assert from 'node:assert/strict';
import { FILE_KEYS, FLOWS, REDIRECT_MODES, WORKSPACE_FILE_PATH } from '../../../src/workspaceFile/model';
import { FILTER_OPERATOR_NAMES } from '../../../src/api/filters';
import { checkTemplate } from '../../../src/references/patterns';
import { readRepoFile } from '../support/manifest';

interface SchemaNode {
  properties?: Record<string, SchemaNode>;
  additionalProperties?: boolean;
  definitions?: Record<string, SchemaNode>;
  enum?: string[];
  items?: SchemaNode;
  pattern?: string;
}

interface JsonValidation {
  fileMatch: string;
  url: string;
}

describe('The workspace file: its JSON schema', () => {
  const manifest = JSON.parse(readRepoFile('package.json')) as { contributes: { jsonValidation?: JsonValidation[] } };
  const contribution = manifest.contributes.jsonValidation?.find((entry) => entry.fileMatch === WORKSPACE_FILE_PATH);

  it('is contributed for the file by jsonValidation, and ships', () => {
    assert.ok(contribution, 'package.json contributes.jsonValidation names .vscode/portal.json');
    assert.match(contribution.url, /^\.\/media\/schemas\//);
    assert.ok(readRepoFile('.vscodeignore').split('\n').includes('!media/schemas/*.json'), 'the schema is in the .vsix');
  });

  it("has the reader's keys in every object, and refuses any other (a secret among them)", () => {
    const schema = JSON.parse(readRepoFile(contribution?.url ?? '')) as SchemaNode;
    const objects: Record<keyof typeof FILE_KEYS, SchemaNode | undefined> = {
      root: schema,
      portal: schema.definitions?.portal,
      app: schema.definitions?.app,
      view: schema.definitions?.view,
      query: schema.definitions?.query,
      filter: schema.definitions?.filter,
      sort: schema.definitions?.sort,
      layout: schema.definitions?.layout,
      board: schema.definitions?.board,
      startWork: schema.definitions?.startWork,
    };
    for (const [name, node] of Object.entries(objects)) {
      assert.ok(node, `the schema describes ${name}`);
      assert.deepEqual(Object.keys(node.properties ?? {}).sort(), [...FILE_KEYS[name as keyof typeof FILE_KEYS]].sort(), `${name}'s keys`);
      assert.equal(node.additionalProperties, false, `${name} takes no other key`);
      assert.ok(!Object.keys(node.properties ?? {}).some((key) => /secret|token|password/i.test(key)), `${name} has no key for a secret`);
    }
    const portal = schema.definitions?.portal.properties;
    assert.deepEqual(portal?.flow.enum, [...FLOWS]);
    assert.deepEqual(portal?.redirectMode.enum, [...REDIRECT_MODES]);
    assert.deepEqual(schema.definitions?.filter.properties?.operator.enum, [...FILTER_OPERATOR_NAMES]);
  });

  it('takes the reference templates the reader takes, and refuses those it refuses', () => {
    const schema = JSON.parse(readRepoFile(contribution?.url ?? '')) as SchemaNode;
    const pattern = new RegExp(schema.definitions?.app.properties?.reference.pattern ?? '$^');
    for (const template of [
      'TCK-{id}',
      '#{id}',
      '[{id}]',
      'TCK{id}',
      'a.b{id}x',
      '{id}',
      'T1{id}',
      'T{id}2',
      'T {id}',
      'T{id}{id}',
      'T{x}{id}',
      'TCK-',
    ])
      assert.equal(pattern.test(template), checkTemplate(template) === undefined, template);
  });
});
