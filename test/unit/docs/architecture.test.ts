// The architecture doc (src/README.md) is where a newcomer learns the source tree, so its table of folders
// must be the tree as it is (issue 31): every entry of `ls src` has a row, and no row names what is gone.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { repoRoot } from '../../webview/support/repo';
import { readRepoFile } from '../support/manifest';

/** The text of a "## <title>" section of a Markdown file, up to the next heading of any level. */
function section(text: string, title: string): string {
  const start = text.indexOf(`\n## ${title}\n`);
  assert.ok(start >= 0, `src/README.md has a section "${title}"`);
  const end = text.indexOf('\n#', start + title.length + 5);
  return text.slice(start, end < 0 ? undefined : end);
}

/** The names in backticks of the first cell of each table row (header and divider left out). */
function namesInFirstColumn(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2)
    .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`([^`]+)`/g)].map((match) => match[1]));
}

describe('the architecture doc, src/README.md', () => {
  // Read in each test, so that a missing doc fails its tests rather than the whole run.
  const doc = (): string => readRepoFile('src/README.md');

  it('has one row for every folder and file of src/ and names nothing that is not there', () => {
    const entries = readdirSync(join(repoRoot(), 'src'), { withFileTypes: true })
      .filter((entry) => entry.name !== 'README.md')
      .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name))
      .sort();
    const listed = namesInFirstColumn(section(doc(), 'Folders'));
    assert.deepEqual([...listed].sort(), entries);
    assert.equal(new Set(listed).size, listed.length, 'each entry is listed once');
  });

  it('has the floors, a glossary, how a request flows and the size of a file as guidance', () => {
    for (const title of ['Floors', 'Glossary', 'How a request flows', 'Small files']) section(doc(), title);
  });
});

describe('the developer docs', () => {
  it('link only to files of the repository that exist', () => {
    const broken = ['src/README.md', 'test/README.md', 'test/bench/README.md'].flatMap((doc) =>
      [...readRepoFile(doc).matchAll(/\]\(((?!https?:|#)[^)#]+)(#[^)]*)?\)/g)]
        .map((match) => join(dirname(doc), match[1]))
        .filter((target) => !existsSync(join(repoRoot(), target)))
        .map((target) => `${doc}: ${target}`),
    );
    assert.deepEqual(broken, []);
  });
});
