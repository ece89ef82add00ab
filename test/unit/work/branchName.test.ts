import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import {
  branchName,
  checkBranchTemplate,
  DEFAULT_BRANCH_TEMPLATE,
  MAX_BRANCH_LENGTH,
  MAX_SLUG_LENGTH,
  refSafe,
  slugOf,
} from '../../../src/work/branchName';

/** git's own judgement of a branch name. */
function gitTakes(name: string): boolean {
  return spawnSync('git', ['check-ref-format', '--branch', name], { encoding: 'utf8' }).status === 0;
}

describe('work: branch names for Start Work', () => {
  it('fills the default template with the id and a slug of the title', () => {
    assert.equal(branchName(DEFAULT_BRANCH_TEMPLATE, { recordId: '42', title: 'Fix the login page!' }), '42-fix-the-login-page');
    assert.equal(
      branchName('feature/{app}/{id}-{slug}', { recordId: '7', title: 'Äpfel & Birnen', appName: 'Tickets' }),
      'feature/tickets/7-apfel-birnen',
    );
  });

  it('drops accents and keeps the letters of other scripts', () => {
    assert.equal(slugOf('Café crème'), 'cafe-creme');
    assert.equal(slugOf('Ошибка входа'), 'ошибка-входа');
    assert.equal(slugOf('Мой ключ'), 'мой-ключ');
    assert.equal(slugOf('ログイン画面の修正'), 'ログイン画面の修正');
    assert.equal(slugOf('ﬁle №5'), 'file-no5');
  });

  it('cuts a long title at a word end, and a single long word at the limit', () => {
    const slug = slugOf('one two three four five six seven eight nine ten eleven twelve');
    assert.ok(slug.length <= MAX_SLUG_LENGTH);
    assert.equal(slug, 'one-two-three-four-five-six-seven-eight');
    assert.equal(slugOf('x'.repeat(90)).length, MAX_SLUG_LENGTH);
  });

  it('leaves no separator behind an empty title or placeholder', () => {
    assert.equal(branchName(DEFAULT_BRANCH_TEMPLATE, { recordId: '42', title: '' }), '42');
    assert.equal(branchName(DEFAULT_BRANCH_TEMPLATE, { recordId: '42', title: '!!! ???' }), '42');
    assert.equal(branchName('{app}/{id}', { recordId: '42', title: 'x' }), '42');
  });

  it('refuses a template without {id} or with an unknown placeholder, and then uses the default', () => {
    assert.match(checkBranchTemplate('{slug}') ?? '', /must hold \{id\}/);
    assert.match(checkBranchTemplate('{id}-{title}') ?? '', /\{title\}/);
    assert.equal(checkBranchTemplate('work/{id}-{slug}'), undefined);
    assert.equal(branchName('{slug}', { recordId: '9', title: 'A b' }), '9-a-b');
  });

  it("holds a template's own text to git's rules", () => {
    assert.equal(refSafe('.hidden/..x~y^z:w?*[a\\b@{c/end.lock/', '1'), 'hidden/x-y-z-w-a-b-c/end');
    assert.equal(refSafe('-lead//double', '1'), 'lead/double');
    assert.equal(refSafe('@', '5'), '5');
    assert.equal(refSafe('...', '...'), 'record');
  });

  it('gives a name git takes, within the length, for any title and id (git check-ref-format)', function () {
    this.timeout(60_000);
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), fc.stringMatching(/^[0-9]{1,12}$/), (title, recordId) => {
        const name = branchName(DEFAULT_BRANCH_TEMPLATE, { recordId, title });
        assert.ok([...name].length <= MAX_BRANCH_LENGTH, name);
        assert.ok(name.startsWith(recordId), name);
        assert.ok(gitTakes(name), `git refuses ${JSON.stringify(name)}`);
      }),
      { numRuns: 150 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii', maxLength: 60 }), fc.string({ maxLength: 60 }), (prefix, title) => {
        const name = branchName(`${prefix}{id}-{slug}`, { recordId: '12', title });
        assert.ok(gitTakes(name), `git refuses ${JSON.stringify(name)} (template ${JSON.stringify(prefix)}{id}-{slug})`);
      }),
      { numRuns: 150 },
    );
  });
});
