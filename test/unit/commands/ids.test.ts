import * as assert from 'node:assert/strict';
import { FEATURE_GROUP, PORTAL_GROUP } from '../../../src/ids';
import { manifest } from '../support/manifest';

// Activation registers every command from these two lists (the handlers load on first use); a command
// contributed in package.json but in neither list would be missing from VS Code, one in both registered twice.
describe('command ids', () => {
  it('name every contributed command once, in one group', () => {
    const contributed = manifest().contributes.commands.map((entry) => entry.command).sort();
    const grouped = [...PORTAL_GROUP, ...FEATURE_GROUP];
    assert.equal(new Set(grouped).size, grouped.length, 'no command is in two groups, or twice in one');
    assert.deepEqual([...grouped].sort(), contributed);
  });
});
