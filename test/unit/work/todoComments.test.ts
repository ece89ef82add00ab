import * as assert from 'node:assert/strict';
import { codeContext, findTodo, titleFromSelection, triggerWords } from '../../../src/work/todoComments';

const TRIGGERS = triggerWords('TODO, FIXME');

describe('work: TODO comments', () => {
  it('reads the trigger words of the setting', () => {
    assert.deepEqual(TRIGGERS, ['TODO', 'FIXME']);
    assert.deepEqual(triggerWords(' HACK,,XXX  NOTE '), ['HACK', 'XXX', 'NOTE']);
    assert.deepEqual(triggerWords('a.b, (x)'), []);
  });

  it('finds a TODO in the comments of many languages, with its title and place', () => {
    const cases: Array<[string, string]> = [
      ['// TODO: fix the login', 'fix the login'],
      ['    # FIXME handle empty rows', 'handle empty rows'],
      ['-- TODO(ana): index this column', 'index this column'],
      ['/* TODO: one block */', 'one block'],
      [' * TODO - inside a block', 'inside a block'],
      ['<!-- TODO translate this -->', 'translate this'],
      ['const x = 1; // @TODO tidy', 'tidy'],
      ['; TODO', ''],
    ];
    for (const [line, title] of cases) {
      const found = findTodo(line, TRIGGERS);
      assert.ok(found, line);
      assert.equal(found.title, title, line);
      assert.equal(line.slice(found.start, found.end), found.trigger, line);
    }
  });

  it('takes no trigger outside a comment, in another case, or inside a word', () => {
    assert.equal(findTodo('const TODO = 1;', TRIGGERS), undefined);
    assert.equal(findTodo('// todo: lower case', TRIGGERS), undefined);
    assert.equal(findTodo('// TODOS are many', TRIGGERS), undefined);
    assert.equal(findTodo('print("a//TODO")', TRIGGERS), undefined);
    assert.equal(findTodo('// TODO x', []), undefined);
  });

  it('titles a selection by its first line that says something', () => {
    assert.equal(titleFromSelection('\n\n   return total / count;\n}\n'), 'return total / count;');
    assert.equal(titleFromSelection('  \n '), '');
    assert.equal(titleFromSelection('x'.repeat(300), 10), `${'x'.repeat(9)}…`);
  });

  it('says where the code came from, with the code when the field holds lines', () => {
    assert.equal(codeContext({ path: 'src/a.ts', line: 12 }, 'let a = 1;\n', true), 'src/a.ts:12\n\nlet a = 1;');
    assert.equal(codeContext({ path: 'src/a.ts', line: 12 }, 'let a = 1;', false), 'src/a.ts:12');
  });
});
