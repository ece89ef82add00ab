// The settings module and package.json say the same: every `portal.*` setting contributed is defined in
// src/settings/definitions.ts with the same type, default and bounds, and the other way round; each has a
// description and the validation that fits its type; and a value that fails validation reads as the default.
import * as assert from 'node:assert/strict';
import { SETTINGS, type SettingDefinition, type SettingKey } from '../../../src/settings/definitions';
import { manifest, type ConfigurationProperty } from '../support/manifest';

const contributed = manifest().contributes.configuration.properties;
const defined = SETTINGS as Record<SettingKey, SettingDefinition>;

describe('settings', () => {
  it('are the same in package.json and the settings module', () => {
    assert.deepEqual(
      Object.keys(contributed).sort(),
      Object.keys(defined)
        .map((key) => `portal.${key}`)
        .sort(),
    );
  });

  for (const [key, definition] of Object.entries(defined)) {
    const id = `portal.${key}`;
    it(`${id}: type, default and validation as package.json contributes them`, () => {
      const property: ConfigurationProperty = contributed[id] ?? {};
      assert.equal(property.type, definition.type);
      assert.deepEqual(property.default, definition.default);
      assert.equal(property.scope, definition.scope, `${id}: the scope package.json gives it`);
      const description = property.markdownDescription ?? property.description ?? '';
      assert.ok(description.length >= 30, `${id} has a description of a sentence or more`);
      switch (definition.type) {
        case 'integer':
          assert.equal(property.minimum, definition.minimum);
          assert.equal(property.maximum, definition.maximum);
          break;
        case 'string':
          if ('enum' in definition) {
            assert.deepEqual(property.enum, [...definition.enum]);
            assert.equal(property.enumDescriptions?.length, definition.enum.length, `${id} describes each choice`);
          } else {
            assert.equal(property.pattern, definition.pattern, `${id} declares the pattern the module checks`);
            assert.ok(property.pattern !== undefined, `${id} is validated by a pattern`);
            assert.equal(property.maxLength, definition.maxLength);
          }
          break;
        case 'boolean':
          break;
        case 'object':
          if ('valuePattern' in definition) {
            assert.equal(property.additionalProperties?.type, 'string', `${id}: each value is a string`);
            assert.equal(property.additionalProperties?.pattern, definition.valuePattern, `${id} declares the pattern the module checks`);
          } else {
            const nested = property.additionalProperties?.additionalProperties;
            assert.equal(property.additionalProperties?.type, 'object', `${id}: each value is an object`);
            assert.equal(nested?.type, 'string', `${id}: each of its values is a string`);
            assert.equal(nested?.pattern, definition.templatePattern, `${id} declares the pattern the module checks`);
          }
          break;
      }
    });
  }

  it("that a cloned repository could use to write, listen or lift a bound are the user's alone, never a workspace's", () => {
    const userOnly = Object.entries(defined)
      .filter(([, definition]) => definition.scope === 'application' || definition.scope === 'machine')
      .map(([key]) => key)
      .sort();
    assert.deepEqual(userOnly, ['agent.allowChanges', 'http.maxAnswerBytes', 'me.email', 'webhooks.autoStart', 'webhooks.bindAddress']);
  });

  it('portal.references keeps each template with {id}, dropping what was typed wrong', () => {
    const references = SETTINGS.references;
    assert.deepEqual(
      references.normalize({
        'https://a.example': { '201': 'TCK-{id}', '202': 7, '203': 'no id' },
        'https://b.example': 'TCK-{id}',
        'https://c.example': { '1': '#{id}' },
        'https://d.example': { '1': 3 },
      }),
      { 'https://a.example': { '201': 'TCK-{id}' }, 'https://c.example': { '1': '#{id}' } },
    );
    assert.deepEqual(references.normalize(['TCK-{id}']), {});
  });

  it('read as their default when unset or when the value fails validation', () => {
    for (const [key, definition] of Object.entries(defined)) {
      assert.deepEqual(definition.normalize(undefined), definition.default, key);
      assert.deepEqual(definition.normalize({}), definition.default, key);
    }
    const pageSize = SETTINGS['tree.pageSize'];
    assert.equal(pageSize.normalize(9), 100);
    assert.equal(pageSize.normalize(1001), 100);
    assert.equal(pageSize.normalize(10.5), 100);
    assert.equal(pageSize.normalize('50'), 100);
    assert.equal(pageSize.normalize(10), 10);
    assert.equal(pageSize.normalize(1000), 1000);
    assert.equal(SETTINGS['auth.redirectMode'].normalize('loopback'), 'loopback');
    assert.equal(SETTINGS['auth.redirectMode'].normalize('Loopback'), 'uriHandler');
    assert.equal(SETTINGS['attachments.maxUploadBytes'].normalize(1023), 25 * 1024 * 1024);
    assert.equal(SETTINGS['webhooks.bindAddress'].normalize(' 0.0.0.0 '), '0.0.0.0');
    assert.equal(SETTINGS['webhooks.bindAddress'].normalize('999.1.1.1'), '127.0.0.1');
    assert.equal(SETTINGS['webhooks.autoStart'].normalize('true'), false);
    const me = SETTINGS['me.email'];
    assert.deepEqual(me.normalize({ 'https://a.example': ' ana@example.com ', 'https://b.example': 'not an address', c: 3 }), {
      'https://a.example': 'ana@example.com',
    });
    assert.deepEqual(me.normalize(['ana@example.com']), {});
  });
});
