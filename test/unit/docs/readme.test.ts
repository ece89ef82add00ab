// The README is for users (issue 31): small enough to read, with the two commands a newcomer needs, and its
// tables of commands and settings say what package.json contributes, so they cannot drift: every command
// by its title (each title is unique), grouped by what it is for, and one row per setting (id, default), and nothing else.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../webview/support/repo';
import { manifest, readRepoFile, repoFileSize } from '../support/manifest';

/** The most the README may weigh: what a user reads on the Marketplace page, not a developer guide. */
const MAX_README_BYTES = 15 * 1024;

/** The text of the README's "## <title>" section. */
function section(readme: string, title: string): string {
  const start = readme.indexOf(`\n## ${title}\n`);
  assert.ok(start >= 0, `the README has a section "${title}"`);
  const end = readme.indexOf('\n#', start + title.length + 5);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** The table rows of a section, as arrays of cells (header and divider left out). */
function rows(text: string): string[][] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2)
    .map((line) =>
      line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim()),
    );
}

describe('the README', () => {
  const readme = readRepoFile('README.md');
  const contributes = manifest().contributes;

  it(`stays at ${MAX_README_BYTES / 1024} KB or less, the developer docs kept beside the code`, () => {
    assert.ok(repoFileSize('README.md') <= MAX_README_BYTES, `README.md is ${repoFileSize('README.md')} bytes`);
  });

  it('shows npm start and npm test, and what each does', () => {
    assert.match(readme, /^npm start +# .*emulator.*browser/m);
    assert.match(readme, /^npm test +# .*every suite.*total: N passed, N failed/m);
  });

  it('links only to files of the repository that exist', () => {
    const links = [...readme.matchAll(/\]\(((?!https?:|#)[^)]+)\)/g)].map((match) => match[1]);
    assert.ok(
      links.some((link) => link === 'src/README.md'),
      'the architecture doc is linked',
    );
    assert.deepEqual(
      links.filter((link) => !existsSync(join(repoRoot(), link))),
      [],
    );
  });

  it('lists every command by its title, each once, grouped by what it is for, and no other', () => {
    const groups = rows(section(readme, 'Commands'));
    assert.ok(groups.length >= 5, 'the commands are grouped by what they are for');
    for (const [group, commands] of groups) assert.ok(group.length > 3 && commands.length > 10, `${group} names its commands`);
    const listed = groups.flatMap(([, commands]) => commands.split(', '));
    const expected = contributes.commands.map((command) => command.title);
    assert.equal(new Set(expected).size, expected.length, 'each command has a title of its own, so that the title names it');
    assert.deepEqual([...listed].sort(), [...expected].sort());
    assert.equal(new Set(listed).size, listed.length, 'each command once');
    for (const command of contributes.commands)
      assert.equal(command.category, 'Portal', `${command.command} is in the Portal category the section names`);
  });

  it('lists every setting with its default, and no other', () => {
    const listed = rows(section(readme, 'Settings')).map(([id, value]) => [id, value]);
    const expected = Object.entries(contributes.configuration.properties).map(([id, property]) => [
      `\`${id}\``,
      `\`${typeof property.default === 'string' ? property.default : JSON.stringify(property.default)}\``,
    ]);
    assert.deepEqual(listed, expected);
  });

  it('describes each setting', () => {
    for (const [name, cells] of rows(section(readme, 'Settings')).map((row) => [row[0], row[row.length - 1]] as const)) {
      assert.ok(cells.length > 10, `${name} has a description`);
    }
  });

  it('shows only screenshots that exist, kept small', () => {
    const images = [...readme.matchAll(/\]\((media\/screenshots\/[^)]+\.png)\)/g)].map((match) => match[1]);
    assert.ok(images.length >= 6, 'the tree, a record with completion, the conflict, the walkthrough, the form, the query');
    for (const image of images) assert.ok(repoFileSize(image) < 400_000, `${image} exists and is under 400 KB`);
  });
});
