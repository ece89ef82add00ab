// The tools as package.json contributes them: the names the extension registers, a description for the
// user and one for the model, an input schema whose required properties exist, and when clauses that hide
// every tool once the extension knows no portal is connected (before it started in a window, a call
// starts it) and the changing ones until the user allowed changes.
// (VS Code 1.139's lm.tools lists tools whatever their when clause, so the integration suite cannot see
// the clauses at work; the chat's tool picker applies them.)
import * as assert from 'node:assert/strict';
import { FILTER_OPERATOR_NAMES } from '../../../src/api/filters';
import { SETTINGS } from '../../../src/settings/definitions';
import { PORTALS_READ_CONTEXT, TOOLS_CONNECTED_CONTEXT } from '../../../src/tools/context';
import { ALLOW_CHANGES_SETTING } from '../../../src/tools/host';
import { TOOL_NAMES } from '../../../src/tools/names';
import { manifest } from '../support/manifest';

const CHANGING: readonly string[] = [TOOL_NAMES.createRecord, TOOL_NAMES.updateRecord, TOOL_NAMES.addComment];

describe('language model tools: the contribution', () => {
  const tools = manifest().contributes.languageModelTools ?? [];

  it('contributes exactly the tools the extension registers, each described for the user and the model', () => {
    assert.deepEqual(tools.map((tool) => tool.name).sort(), Object.values(TOOL_NAMES).sort());
    for (const tool of tools) {
      assert.match(tool.displayName, /^Portal: /, tool.name);
      assert.ok((tool.userDescription ?? '').length > 20 && tool.modelDescription.length > 60, tool.name);
      assert.equal(tool.canBeReferencedInPrompt, true, tool.name);
      assert.equal(tool.inputSchema.type, 'object', tool.name);
      for (const required of tool.inputSchema.required ?? []) assert.ok(tool.inputSchema.properties[required], `${tool.name}: ${required}`);
      assert.equal(tool.inputSchema.properties.portal?.type, 'string', `${tool.name} takes the portal's name or id`);
    }
    assert.equal(new Set(tools.map((tool) => tool.toolReferenceName)).size, tools.length, 'reference names are unique');
    const query = tools.find((tool) => tool.name === TOOL_NAMES.queryView);
    const filter = (query?.inputSchema.properties.filters as unknown as { items: { properties: { operator: { enum: string[] } } } }).items;
    assert.deepEqual([...filter.properties.operator.enum].sort(), [...FILTER_OPERATOR_NAMES].sort());
  });

  it('hides every tool until a portal is connected, and the changing ones until the setting allows them', () => {
    for (const tool of tools) {
      const changing = CHANGING.includes(tool.name);
      const connected = [TOOLS_CONNECTED_CONTEXT, `!${PORTALS_READ_CONTEXT}`];
      const expected = changing ? connected.map((key) => `${key} && config.${ALLOW_CHANGES_SETTING}`) : connected;
      assert.equal(tool.when, expected.join(' || '), tool.name);
      if (changing) {
        assert.ok(tool.userDescription?.includes(ALLOW_CHANGES_SETTING), `${tool.name}: the user's description names the setting`);
        assert.ok(tool.modelDescription.includes(ALLOW_CHANGES_SETTING), `${tool.name}: the model's description names the setting`);
      }
    }
    assert.equal(SETTINGS['agent.allowChanges'].default, false);
    assert.ok(!manifest().activationEvents.includes('onStartupFinished'), 'activation stays on first use (issue 10)');
  });
});
