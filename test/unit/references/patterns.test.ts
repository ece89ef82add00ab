// Reference patterns (issue 33): what counts as a reference to a record in plain text, for several apps
// and portals at once, and which templates are refused and why.
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { checkTemplate, findReferences, formatReference, referencePrefix, type ReferencePattern } from '../../../src/references/patterns';

const tickets: ReferencePattern = { portalId: 'prod', appId: '201', template: 'TCK-{id}' };
const orders: ReferencePattern = { portalId: 'prod', appId: '102', template: '#{id}' };
const other: ReferencePattern = { portalId: 'staging', appId: '7', template: 'ORD-{id}' };

function found(text: string, patterns: readonly ReferencePattern[]): string[] {
  return findReferences(text, patterns).map(
    (ref) => `${text.slice(ref.start, ref.end)}=${ref.pattern.portalId}/${ref.pattern.appId}/${ref.recordId}`,
  );
}

describe('references: patterns', () => {
  it("finds each app's references, of several portals, in order", () => {
    const text = 'Fixes TCK-12 and #5, see ORD-3 (staging).\nTCK-100001.';
    assert.deepEqual(found(text, [tickets, orders, other]), [
      'TCK-12=prod/201/12',
      '#5=prod/102/5',
      'ORD-3=staging/7/3',
      'TCK-100001=prod/201/100001',
    ]);
  });

  it('takes a reference only when it stands alone', () => {
    assert.deepEqual(found('XTCK-1 TCK-1a a#2 TCK-_3 TCK-4_ éTCK-5 TCK-', [tickets, orders]), []);
    assert.deepEqual(found('(TCK-1) [#2], "TCK-3". TCK-4:', [tickets, orders]), [
      'TCK-1=prod/201/1',
      '#2=prod/102/2',
      'TCK-3=prod/201/3',
      'TCK-4=prod/201/4',
    ]);
  });

  it('honours a suffix, and prefers the longer template where two could match', () => {
    const bracket: ReferencePattern = { portalId: 'p', appId: '1', template: '[{id}]' };
    const long: ReferencePattern = { portalId: 'p', appId: '2', template: 'AB-TCK-{id}' };
    const short: ReferencePattern = { portalId: 'p', appId: '3', template: 'TCK-{id}' };
    assert.deepEqual(found('[12] [13 AB-TCK-4 TCK-5', [bracket, short, long]), ['[12]=p/1/12', 'AB-TCK-4=p/2/4', 'TCK-5=p/3/5']);
  });

  it('gives a template used twice to the first app, and leaves out templates with a problem', () => {
    const again: ReferencePattern = { portalId: 'prod', appId: '999', template: 'TCK-{id}' };
    const bad: ReferencePattern = { portalId: 'prod', appId: '1', template: '{id}' };
    assert.deepEqual(found('TCK-1 and 42', [tickets, again, bad]), ['TCK-1=prod/201/1']);
    assert.deepEqual(found('anything', []), []);
  });

  it('formats a reference and gives its prefix', () => {
    assert.equal(formatReference(tickets, '42'), 'TCK-42');
    assert.equal(formatReference({ ...tickets, template: '[{id}]' }, '7'), '[7]');
    assert.equal(referencePrefix(tickets), 'TCK-');
    assert.equal(referencePrefix(orders), '#');
  });

  it('checks templates, saying what is wrong', () => {
    for (const fine of ['TCK-{id}', '#{id}', 'TCK{id}', '[{id}]', 'a.b+{id}', 'Ticket#{id}'])
      assert.equal(checkTemplate(fine), undefined, fine);
    const problems: [string, RegExp][] = [
      ['', /empty/],
      ['TCK-', /no \{id\}/],
      ['{id}', /before \{id\}/],
      ['{id}-x', /before \{id\}/],
      ['T-{id}{id}', /more than once/],
      ['T {id}', /space/],
      ['T1{id}', /digit just before/],
      ['T{id}2', /digit just after/],
      ['T{x}{id}', /braces/],
      [`${'A'.repeat(40)}{id}`, /longer than/],
    ];
    for (const [template, message] of problems) assert.match(checkTemplate(template) ?? '', message, template);
  });

  // Round trip: every reference written into any text (separated from it by a character that is no
  // letter, digit or `_`) is found, where it was put, with its app and id.
  const prefixChar = fc.constantFrom('A', 'B', 'Z', '#', '-', '!', '.', 'q');
  const template = fc.array(prefixChar, { minLength: 1, maxLength: 5 }).map((chars) => {
    const prefix = chars.join('');
    return /[A-Za-z]$/.test(prefix) || /[^A-Za-z0-9]$/.test(prefix) ? `${prefix}{id}` : `${prefix}-{id}`;
  });
  const filler = fc.string({ unit: fc.constantFrom('x', ' ', '\n', '(', ')', ',', 'é', '😀', '1', '#', 'A', '-'), maxLength: 8 });

  it('finds every reference written into any text (fast-check)', () => {
    fc.assert(
      fc.property(template, fc.array(fc.tuple(filler, fc.integer({ min: 1, max: 10 ** 9 })), { maxLength: 6 }), (chosen, pieces) => {
        const pattern: ReferencePattern = { portalId: 'p', appId: 'a', template: chosen };
        let text = '';
        const expected: { start: number; id: string }[] = [];
        for (const [before, id] of pieces) {
          text += `${before} `;
          expected.push({ start: text.length, id: String(id) });
          text += `${formatReference(pattern, String(id))} `;
        }
        const refs = findReferences(text, [pattern]);
        for (const want of expected)
          assert.ok(
            refs.some(
              (ref) =>
                ref.start === want.start &&
                ref.recordId === want.id &&
                text.slice(ref.start, ref.end) === formatReference(pattern, want.id),
            ),
            `${JSON.stringify(text)}: ${JSON.stringify(want)} not in ${JSON.stringify(refs)}`,
          );
      }),
    );
  });

  it('never reports a reference that is not its template with an id (fast-check)', () => {
    const anyText = fc.string({ unit: fc.constantFrom('T', 'C', 'K', '-', '#', '1', '0', ' ', 'x', '\n', '_', '[', ']'), maxLength: 40 });
    fc.assert(
      fc.property(anyText, (text) => {
        for (const ref of findReferences(text, [tickets, orders, { portalId: 'p', appId: 'b', template: '[{id}]' }])) {
          assert.equal(text.slice(ref.start, ref.end), formatReference(ref.pattern, ref.recordId));
          assert.match(ref.recordId, /^[0-9]+$/);
          assert.ok(!/[\p{L}\p{N}_]/u.test(text[ref.start - 1] ?? ' ') && !/[\p{L}\p{N}_]/u.test(text[ref.end] ?? ' '));
        }
      }),
    );
  });
});
