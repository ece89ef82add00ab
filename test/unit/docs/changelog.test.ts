// The CHANGELOG is per release, in Keep a Changelog's shape (issue 31): [Unreleased] on top for what is
// not released yet, then one dated section per version, the version package.json ships among them.
import * as assert from 'node:assert/strict';
import { manifest, readRepoFile } from '../support/manifest';

const SECTIONS = new Set(['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security']);

describe('the CHANGELOG', () => {
  const changelog = (): string => readRepoFile('CHANGELOG.md');
  const releases = (): string[] => [...changelog().matchAll(/^## \[([^\]]+)\]/gm)].map((match) => match[1]);

  it('starts with [Unreleased], then dated releases, the newest first', () => {
    const [first, ...versions] = releases();
    assert.equal(first, 'Unreleased');
    for (const version of versions)
      assert.match(changelog(), new RegExp(`^## \\[${version.replace(/\./g, '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`, 'm'));
    const sorted = [...versions].sort((a, b) => b.localeCompare(a, 'en', { numeric: true }));
    assert.deepEqual(versions, sorted);
  });

  it("has a section for package.json's version", () => {
    assert.ok(releases().includes(manifest().version), `a "## [${manifest().version}] - <date>" section`);
  });

  it("sorts each release's entries under Keep a Changelog's headings only", () => {
    const headings = [...changelog().matchAll(/^### (.+)$/gm)].map((match) => match[1]);
    assert.deepEqual(
      headings.filter((heading) => !SECTIONS.has(heading)),
      [],
    );
  });

  it('links every release it names', () => {
    for (const version of releases()) assert.match(changelog(), new RegExp(`^\\[${version.replace(/\./g, '\\.')}\\]: https://`, 'm'));
  });
});
