import * as assert from 'node:assert/strict';
import { CopyClock } from '../../../src/fs/copyClock';

/** VS Code's rule (validateWriteFile): a save conflicts when mtime advanced and the size differs from the size read. */
function conflicts(read: { mtime: number; size: number }, now: { mtime: number; size: number }): boolean {
  return read.mtime < now.mtime && read.size !== now.size;
}

describe('the stat of a record document', () => {
  it("starts near the text's byte length, offset by less than 1024", () => {
    const clock = new CopyClock(1000, 5);
    const stat = clock.observe('{"f1": "ü"}', '["ü"]', 1000);
    assert.deepEqual(stat, { mtime: 1000, size: 12 + 5 }, '12 bytes: ü takes two');
    assert.equal(clock.ctime, 1000);
  });

  it("stays the same while the portal's copy does", () => {
    const clock = new CopyClock(0, 0);
    const first = clock.observe('text', 'a', 10);
    assert.deepEqual(clock.observe('text', 'a', 50), first);
  });

  it('makes a save conflict after any change of a writable field, even one that keeps the length', () => {
    const clock = new CopyClock(0, 0);
    const read = clock.observe('{"f1": "aaaa"}', 'aaaa', 10);
    const now = clock.observe('{"f1": "bbbb"}', 'bbbb', 10);
    assert.ok(now.mtime > read.mtime, 'mtime strictly increases, even within the same millisecond');
    assert.ok(conflicts(read, now));
  });

  it('never reports a size again after a change: shrinking by one byte is no escape', () => {
    const clock = new CopyClock(0, 0);
    const sizes = new Set<number>();
    let text = 'x'.repeat(200);
    for (let step = 0; step < 150; step += 1) {
      text = text.slice(1);
      const stat = clock.observe(text, text, step);
      assert.ok(!sizes.has(stat.size), `step ${step}: size ${stat.size} was reported before`);
      assert.ok(stat.size < text.length + 1024);
      sizes.add(stat.size);
    }
  });

  it('moves only the mtime when read-only fields change: reloads, but no conflict', () => {
    const clock = new CopyClock(0, 3);
    const read = clock.observe('{"f12": "1", "f13": "Acme"}', '["1"]', 10);
    const now = clock.observe('{"f12": "1", "f13": "Acme Corporation"}', '["1"]', 20);
    assert.equal(now.size, read.size);
    assert.ok(now.mtime > read.mtime);
    assert.ok(!conflicts(read, now));
    const touched = clock.touch(20);
    assert.ok(touched.mtime > now.mtime && touched.size === now.size);
  });
});
