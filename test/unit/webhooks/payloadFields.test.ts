import * as assert from 'node:assert/strict';
import { payloadFields, summaryOf } from '../../../src/webhooks/payloadFields';

describe('payload fields for the tree', () => {
  it('lists an object field by field, objects and arrays expandable', () => {
    const fields = payloadFields({ event: 'record.updated', data: { f1: 'a', f2: '' }, tags: [1, 2], empty: {}, n: 5, none: null });
    assert.deepEqual(
      fields.map(({ key, expandable, summary }) => [key, expandable, summary]),
      [
        ['event', false, '"record.updated"'],
        ['data', true, '{2 fields}'],
        ['tags', true, '[2 items]'],
        ['empty', false, '{0 fields}'],
        ['n', false, '5'],
        ['none', false, 'null'],
      ],
    );
    assert.deepEqual(
      payloadFields(fields[2].value).map((field) => [field.key, field.summary]),
      [
        ['0', '1'],
        ['1', '2'],
      ],
    );
    assert.deepEqual(payloadFields('scalar'), []);
  });

  it('shows long or multi-line text on one clipped line', () => {
    const summary = summaryOf(`line one\nline two ${'x'.repeat(300)}`);
    assert.ok(!summary.includes('\n'));
    assert.ok(summary.length <= 120, `${summary.length}`);
    assert.ok(summary.endsWith('…'));
    assert.equal(summaryOf([1]), '[1 item]');
    assert.equal(summaryOf({ a: 1 }), '{1 field}');
  });
});
