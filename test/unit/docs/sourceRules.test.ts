// A rule of the source tree that no compiler checks: every promise left to run on its own (`void promise`)
// says why in a comment on the line above (or on its own line); lint (type-checked no-floating-promises)
// makes sure no other promise is left unhandled. A file's size is guidance, not a test (issue 31): see
// src/README.md, "Small files".
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { repoRoot } from '../../webview/support/repo';

function sourceFiles(dir: string, extensions: readonly string[] = ['.ts']): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path, extensions);
    return extensions.some((extension) => name.endsWith(extension)) ? [path] : [];
  });
}

const allCode = (): string[] => ['src', 'webview-ui', 'test'].flatMap((dir) => sourceFiles(join(repoRoot(), dir), ['.ts', '.mjs']));

/** `void x` as a statement or an expression (not the `void` type, not `void 0`). */
const VOID_OPERATOR = /(^|[^\w.:<>=|&])void (?!0\b)[\w(]/;
/** The line's code without the text of its string literals ("void and self-closed elements"). */
const codeOf = (line: string): string =>
  line.replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''").replace(/\): void|=> void|<void>|: void\b/g, '');
const isVoid = (line: string): boolean => VOID_OPERATOR.test(codeOf(line));

describe('source rules', () => {
  it('says why each promise left to run on its own may do so, in the tests too', () => {
    const unexplained: string[] = [];
    for (const file of allCode()) {
      const lines = readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, index) => {
        const code = line.trim();
        if (code.startsWith('*') || code.startsWith('/*') || code.startsWith('//') || line.includes('//')) return;
        if (!isVoid(line)) return;
        let above = index - 1;
        while (above >= 0 && isVoid(lines[above])) above -= 1; // a group of them, under one comment
        const comment = lines[above]?.trim() ?? '';
        if (!(comment.startsWith('//') || comment.endsWith('*/')))
          unexplained.push(`${relative(repoRoot(), file)}:${index + 1}: ${line.trim()}`);
      });
    }
    assert.deepEqual(unexplained, []);
  });
});
