import * as assert from 'node:assert/strict';
import { columnKind, isWritable, kindName, kindOfTypeName } from '../../../src/api/columnKinds';

describe('column kinds', () => {
  it('reads the documented type names', () => {
    assert.equal(kindOfTypeName('Text Field'), 'text');
    assert.equal(kindOfTypeName('Choice'), 'choice');
    assert.equal(kindOfTypeName('LookUp'), 'lookup');
    assert.equal(kindOfTypeName('Auto Number'), 'autonumber');
  });

  it('normalises punctuation, case and ampersands in type names', () => {
    assert.equal(kindOfTypeName('Phone/Fax No.'), 'phone');
    assert.equal(kindOfTypeName('DATE & TIME'), 'datetime');
    assert.equal(kindOfTypeName('e-mail'), 'email');
  });

  it('falls back to the type code only when the name is unknown', () => {
    assert.equal(kindOfTypeName('Something New', '16'), 'lookup');
    assert.equal(kindOfTypeName('Choice', '0'), 'choice');
    assert.equal(kindOfTypeName('Something New', '999'), 'unknown');
  });

  it('treats read-only and unknown kinds as not writable', () => {
    assert.equal(isWritable({ type: '15', type_name: 'Auto Number' }), false);
    assert.equal(isWritable({ type: '16', type_name: 'LookUp' }), false);
    assert.equal(isWritable({ type: '99', type_name: 'Signature' }), false);
    assert.equal(isWritable({ type: '0', type_name: 'Text Field' }), true);
    assert.equal(columnKind({ type: '2', type_name: 'Choice' }), 'choice');
  });

  it("names a kind as the portal does, and in the portal's words where it sends no name", () => {
    assert.equal(kindName({ type: '5', type_name: 'Date & Time' }), 'Date & Time');
    assert.equal(kindName({ type: '5', type_name: '' }), 'Date & Time');
    assert.equal(kindName({ type: '16', type_name: '  ' }), 'LookUp');
    assert.equal(kindName({ type: '99', type_name: '' }), 'Unknown kind');
  });
});
