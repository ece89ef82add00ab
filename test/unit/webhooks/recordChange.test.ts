import * as assert from 'node:assert/strict';
import { recordChangeOf } from '../../../src/webhooks/recordChange';

describe('the record change of an event name', () => {
  it("reads the emulator's events", () => {
    assert.equal(recordChangeOf('record.created'), 'created');
    assert.equal(recordChangeOf('record.updated'), 'updated');
    assert.equal(recordChangeOf('record.deleted'), 'deleted');
    assert.equal(recordChangeOf('comment.created'), undefined);
    assert.equal(recordChangeOf('attachment.created'), undefined);
  });

  it('reads other spellings a portal may use', () => {
    assert.equal(recordChangeOf('RECORD_DELETE'), 'deleted');
    assert.equal(recordChangeOf('recordDeleted'), 'deleted');
    assert.equal(recordChangeOf('record-trashed'), 'deleted');
    assert.equal(recordChangeOf('Record Added'), 'created');
    assert.equal(recordChangeOf('new_record'), 'created');
    assert.equal(recordChangeOf('record.edited'), 'updated');
    assert.equal(recordChangeOf('record.published'), 'updated');
    assert.equal(recordChangeOf('CommentAdded'), undefined);
  });

  it('takes an unknown event about a record as an update (reading again is safe)', () => {
    assert.equal(recordChangeOf('record.touched'), 'updated');
    assert.equal(recordChangeOf('x'), 'updated');
  });
});
