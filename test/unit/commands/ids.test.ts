import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { COMMANDS, FEATURE_GROUP, PORTAL_GROUP } from '../../../src/ids';
import { repoRoot } from '../../webview/support/repo';
import { manifest } from '../support/manifest';

const tableIds = (): string[] => Object.values(COMMANDS).flatMap((area) => Object.values(area) as string[]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : name.endsWith('.ts') ? [path] : [];
  });
}

// Activation registers every command from these two lists (the handlers load on first use); a command
// contributed in package.json but in neither list would be missing from VS Code, one in both registered twice.
describe('command ids', () => {
  it('name every contributed command once, in one group', () => {
    const contributed = manifest()
      .contributes.commands.map((entry) => entry.command)
      .sort();
    const grouped = [...PORTAL_GROUP, ...FEATURE_GROUP];
    assert.equal(new Set(grouped).size, grouped.length, 'no command is in two groups, or twice in one');
    assert.deepEqual([...grouped].sort(), contributed);
  });

  it('come from one table: the table is what package.json contributes', () => {
    assert.deepEqual(
      tableIds().sort(),
      manifest()
        .contributes.commands.map((entry) => entry.command)
        .sort(),
    );
  });

  it('are written nowhere in src/ but in the table (tree items, panels, banners use it)', () => {
    const ids = new Set(tableIds());
    const restated: string[] = [];
    for (const file of sourceFiles(join(repoRoot(), 'src'))) {
      if (relative(repoRoot(), file) === join('src', 'ids.ts')) continue;
      // A contextValue may share a command's name ("portal.loadMore"): it is no command id.
      const lines = readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => !line.includes('contextValue'));
      for (const match of lines.join('\n').matchAll(/['"`](portal\.[A-Za-z]+)['"`]/g))
        if (ids.has(match[1])) restated.push(`${relative(repoRoot(), file)}: ${match[1]}`);
    }
    assert.deepEqual(restated, []);
  });

  it('that package.json names anywhere (menus, keys, walkthrough, welcome links) are in the table', () => {
    const text = readFileSync(join(repoRoot(), 'package.json'), 'utf8');
    const ids = new Set(tableIds());
    const named = [...text.matchAll(/(?:"command":\s*"|command:|onCommand:)(portal\.[A-Za-z]+)/g)].map((match) => match[1]);
    assert.ok(named.length > 20, 'package.json names commands');
    assert.deepEqual(
      named.filter((id) => !ids.has(id)),
      [],
    );
  });
});
