import * as assert from 'node:assert/strict';
import {
  checkRecord,
  checkValue,
  formatDate,
  formatDateTime,
  formatDuration,
  formatHint,
  formatNumber,
  formatUsers,
  htmlProblem,
  missingRequired,
  parseDate,
  parseDateTime,
  parseDuration,
  parseNumber,
  parseUsers,
} from '../../../src/api/formats';
import type { Column } from '../../../src/api/types';
import { VALUE_CASES, choice, column, multiChoice } from './valueCases';

describe('value formats', () => {
  describe('checkValue', () => {
    for (const { column: col, valid, invalid } of VALUE_CASES) {
      const name = `${col.type_name}${col.choice_type === '2' ? ' (multi-select)' : ''}`;
      it(`accepts valid ${name} values`, () => {
        for (const value of valid) assert.equal(checkValue(col, value), undefined, `${name} should accept ${JSON.stringify(value)}`);
      });
      if (invalid.length > 0) {
        it(`refuses invalid ${name} values with a reason`, () => {
          for (const value of invalid) {
            const problem = checkValue(col, value);
            assert.equal(typeof problem, 'string', `${name} should refuse ${JSON.stringify(value)}`);
            assert.ok(problem && problem.length > 10, `a reason for ${JSON.stringify(value)}`);
          }
        });
      }
      it(`accepts the empty string for ${name} (required-ness is separate)`, () => {
        assert.equal(checkValue(col, ''), undefined);
      });
    }

    it('says what was expected and what was found', () => {
      assert.equal(checkValue(column('Date', '4'), '2026-11-21'), 'expected DD-MM-YYYY, got 2026-11-21');
      assert.equal(checkValue(choice, '7'), 'not one of the choices: 7 (choices: 1 Open, 2 Closed)');
      assert.match(checkValue(column('Date', '4'), '31-02-2026') ?? '', /not a real date: 31-02-2026/);
      assert.match(checkValue(column('Currency', '9'), '$12') ?? '', /without a currency symbol/);
      assert.match(checkValue(column('Duration', '10'), '1:30') ?? '', /expected hh:mm, got 1:30/);
      assert.match(checkValue(column('Multiline', '1'), '<p>open') ?? '', /<p> is never closed/);
      assert.match(checkValue(multiChoice, '1,7') ?? '', /not one of the choices: 7 \(/);
    });

    it('gives the same messages from the one-pass checks an import makes per cell', () => {
      // Dates and date-times are matched once, choices and users checked without building the message's
      // lists first, e-mail parts by whole-part patterns: these are the verdicts and words they had before.
      const dateTime = column('Date & Time', '5');
      const users = column('User', '11');
      const email = column('Email', '6');
      const cases: Array<[Column, string, string | undefined]> = [
        [dateTime, '31-04-2026 10:00', 'not a real date and time: 31-04-2026 10:00 (expected DD-MM-YYYY hh:mm, 24-hour, UTC)'],
        [dateTime, '30-04-2026 24:00', 'not a real date and time: 30-04-2026 24:00 (expected DD-MM-YYYY hh:mm, 24-hour, UTC)'],
        [dateTime, '21-11-2026 14:05 ', 'expected DD-MM-YYYY hh:mm (UTC), got 21-11-2026 14:05 '],
        [column('Date', '4'), '31-04-2026', 'not a real date: 31-04-2026 (expected DD-MM-YYYY)'],
        [multiChoice, '1,2,1', 'names a choice twice: 1,2,1'],
        [multiChoice, '1,,2', 'not one of the choices: (empty item) (choices: 1 Open, 2 Closed)'],
        [multiChoice, '1, 2', 'not one of the choices:  2 (no spaces around the ids) (choices: 1 Open, 2 Closed)'],
        [choice, '1 ', 'not one of the choices: 1  (no spaces around the ids) (choices: 1 Open, 2 Closed)'],
        [
          users,
          'ann@example.com, bob@example.org',
          'expected comma-separated e-mail addresses, got " bob@example.org" (no spaces after the commas)',
        ],
        [users, 'ann@example.com,,bob@example.org', 'expected comma-separated e-mail addresses, got an empty item'],
        [users, 'ann@example.com,bob,carl', 'expected comma-separated e-mail addresses, got bob'],
        [email, `a@b.${'c'.repeat(63)}`, undefined],
        [email, `a@b.${'c'.repeat(64)}`, `expected an e-mail address like name@example.com, got a@b.${'c'.repeat(35)}…`],
        [email, `${'a'.repeat(64)}@example.com`, undefined],
        [email, `${'a'.repeat(65)}@example.com`, `expected an e-mail address like name@example.com, got ${'a'.repeat(39)}…`],
        [email, 'ann@example.com.', 'expected an e-mail address like name@example.com, got ann@example.com.'],
        [email, 'ann.@example.com', 'expected an e-mail address like name@example.com, got ann.@example.com'],
      ];
      for (const [col, value, message] of cases) assert.equal(checkValue(col, value), message, `${col.type_name} ${JSON.stringify(value)}`);
    });

    it('keeps a long value short in the message', () => {
      const message = checkValue(column('Email', '6'), 'x'.repeat(500)) ?? '';
      assert.ok(message.length < 120, message);
      assert.match(message, /…$/);
    });

    it('refuses every value of read-only and unknown kinds, the empty one too', () => {
      for (const col of [column('Auto Number', '15'), column('LookUp', '16'), column('Signature', '99')]) {
        assert.match(checkValue(col, '12') ?? '', /read-only/);
        assert.match(checkValue(col, '') ?? '', /read-only/);
      }
    });
  });

  describe('htmlProblem', () => {
    it('accepts comments, doctype, void and self-closed elements', () => {
      assert.equal(htmlProblem('<!DOCTYPE html><!-- <p> --><div><br><hr/><input type="x"></div>'), undefined);
    });
    it('names the unclosed or mismatched tag', () => {
      assert.equal(htmlProblem('<div><span></div>'), '</div> closes <span>');
      assert.equal(htmlProblem('<ul><li>a</li>'), '<ul> is never closed');
    });
  });

  describe('conversions', () => {
    it('dates round-trip and refuse impossible ones', () => {
      assert.deepEqual(parseDate('21-11-2026'), { year: 2026, month: 11, day: 21 });
      assert.equal(formatDate({ year: 2026, month: 1, day: 5 }), '05-01-2026');
      assert.equal(formatDate({ year: 33, month: 2, day: 1 }), '01-02-0033');
      assert.equal(parseDate('29-02-2100'), undefined);
      assert.deepEqual(parseDate('29-02-2000'), { year: 2000, month: 2, day: 29 });
      assert.throws(() => formatDate({ year: 2026, month: 2, day: 30 }), RangeError);
    });

    it('date-times are UTC, minutes only', () => {
      const date = parseDateTime('21-11-2026 14:05');
      assert.equal(date?.toISOString(), '2026-11-21T14:05:00.000Z');
      assert.equal(formatDateTime(new Date('2026-11-21T14:05:59.999Z')), '21-11-2026 14:05');
      assert.equal(formatDateTime(new Date('2026-11-21T23:30:00-02:00')), '22-11-2026 01:30');
      assert.equal(parseDateTime('21-11-2026 24:00'), undefined);
      assert.throws(() => formatDateTime(new Date(Number.NaN)), RangeError);
    });

    it('durations are minutes up to 23:59', () => {
      assert.equal(parseDuration('01:30'), 90);
      assert.equal(formatDuration(90), '01:30');
      assert.equal(formatDuration(0), '00:00');
      assert.equal(formatDuration(1439), '23:59');
      assert.throws(() => formatDuration(1440), RangeError);
      assert.throws(() => formatDuration(1.5), RangeError);
      assert.equal(parseDuration('24:00'), undefined);
    });

    it('numbers are plain decimals both ways', () => {
      assert.equal(parseNumber('-3.5'), -3.5);
      assert.equal(parseNumber('1e3'), undefined);
      assert.equal(parseNumber(''), undefined);
      assert.equal(formatNumber(12.5), '12.5');
      assert.equal(formatNumber(1e21), '1000000000000000000000');
      assert.equal(formatNumber(1.5e-7), '0.00000015');
      assert.equal(formatNumber(-2.5e22), '-25000000000000000000000');
      assert.throws(() => formatNumber(Number.POSITIVE_INFINITY), RangeError);
      for (const value of [0.1, 123456.789, 1e21, 1.5e-7, -42]) assert.equal(parseNumber(formatNumber(value)), value);
    });

    it('users are comma-separated e-mail addresses', () => {
      assert.deepEqual(parseUsers('ann@example.com, bob@example.org,'), ['ann@example.com', 'bob@example.org']);
      assert.equal(formatUsers([' ann@example.com', 'bob@example.org', '']), 'ann@example.com,bob@example.org');
      assert.deepEqual(parseUsers(''), []);
    });
  });

  describe('formatHint', () => {
    it('gives the expected format per kind', () => {
      assert.equal(formatHint(column('Date', '4')), 'DD-MM-YYYY');
      assert.equal(formatHint(column('Date & Time', '5')), 'DD-MM-YYYY hh:mm (UTC)');
      assert.equal(formatHint(column('Duration', '10')), 'hh:mm');
      assert.equal(formatHint(choice), 'a choice id: 1 Open, 2 Closed');
      assert.match(formatHint(multiChoice), /^comma-separated choice ids/);
      assert.match(formatHint(column('Currency', '9', { currency_symbol: '€' })), /€/);
      assert.equal(formatHint(column('Auto Number', '15')), 'read-only');
    });
  });

  describe('records', () => {
    const columns: Column[] = [
      column('Text Field', '0', { field_id: '1', field_id_in_data: 'f1', field_name: 'Title', required: '1' }),
      column('Date', '4', { field_id: '2', field_id_in_data: 'f2', field_name: 'Due', required: '0' }),
      column('Auto Number', '15', { field_id: '3', field_id_in_data: 'f3', field_name: 'No.', required: '1' }),
      { ...choice, field_id: '4', field_id_in_data: 'f4', field_name: 'Status', required: '1' },
    ];

    it('lists required writable fields left out or blank', () => {
      assert.deepEqual(missingRequired(columns, { f1: '', f2: '01-01-2026' }), ['f1', 'f4']);
      assert.deepEqual(missingRequired(columns, { f1: ' ', f4: '1' }), []);
      assert.deepEqual(missingRequired(columns, { f1: 'x', f4: '1' }), []);
    });

    it('checks a create body: unknown, read-only, bad values, missing required', () => {
      const problems = checkRecord(columns, { f1: 'Title', f2: '2026-01-01', f3: '12', f99: 'x' }, { creating: true });
      assert.deepEqual(
        problems.map((problem) => problem.field),
        ['f2', 'f3', 'f99', 'f4'],
      );
      assert.match(problems[0].message, /expected DD-MM-YYYY, got 2026-01-01/);
      assert.match(problems[1].message, /read-only \(Auto Number\)/);
      assert.match(problems[2].message, /unknown field/);
      assert.match(problems[3].message, /required: Status/);
    });

    it('on update, only clearing a required field is missing', () => {
      assert.deepEqual(checkRecord(columns, { f2: '01-01-2026' }, { creating: false }), []);
      const problems = checkRecord(columns, { f1: '' }, { creating: false });
      assert.deepEqual(problems, [{ field: 'f1', message: 'required: Title must have a value' }]);
    });
  });
});
