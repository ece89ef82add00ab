// Mapping source columns to the app's columns, and converting values by kind with the rules and messages
// of src/api/formats.ts. The columns are the emulator's Orders app (102), read over HTTP.
import * as assert from 'node:assert/strict';
import { checkValue } from '../../../src/api/formats';
import type { Column } from '../../../src/api/types';
import { convertNumber, convertValue, converterFor, detectDecimalSeparator } from '../../../src/import/convert';
import { mappingProblems, proposeMapping, setTarget, type ImportMapping } from '../../../src/import/mapping';
import { timeZoneProblem } from '../../../src/import/zonedTime';
import { choice, column, multiChoice } from '../api/valueCases';
import { useImportPortal } from './support';

describe('import: mapping and conversion', () => {
  const portal = useImportPortal({ reset: 'none' });
  const byField = (field: string): Column => portal.orders.find((candidate) => candidate.field_id_in_data === field) as Column;

  describe('mapping', () => {
    it('matches by name (case, spaces, underscores ignored) or field_id_in_data, and finds the record id column', () => {
      const mapping = proposeMapping(['ID', 'title', 'ORDER_DATE', 'f17', 'Customer  id', 'Colour'], portal.orders);
      assert.deepEqual(
        mapping.columns.map((entry) => [entry.source, entry.target.kind === 'field' ? entry.target.field : entry.target.kind]),
        [
          ['ID', 'recordId'],
          ['title', 'f11'],
          ['ORDER_DATE', 'f15'],
          ['f17', 'f17'],
          ['Customer  id', 'f12'],
          ['Colour', 'ignored'],
        ],
      );
    });

    it('marks columns the API cannot set as ignored, with the reason', () => {
      const mapping = proposeMapping(['Order no.', 'Customer'], portal.orders);
      for (const entry of mapping.columns) {
        assert.equal(entry.target.kind, 'ignored');
        assert.match(
          entry.target.kind === 'ignored' ? entry.target.reason : '',
          /read-only \((Auto Number|LookUp)\): it cannot be set through the API/,
        );
      }
    });

    it('keeps one source per field: the first match in a proposal, the latest choice in an edit', () => {
      const proposed = proposeMapping(['Title', 'f11'], portal.orders);
      assert.deepEqual(proposed.columns[1].target.kind, 'ignored');
      const edited: ImportMapping = setTarget(proposed, 'f11', { kind: 'field', field: 'f11' }, portal.orders);
      assert.deepEqual(edited.columns[1].target, { kind: 'field', field: 'f11' });
      assert.equal(edited.columns[0].target.kind, 'ignored');
      assert.match(edited.columns[0].target.kind === 'ignored' ? edited.columns[0].target.reason : '', /f11 feeds Title \(f11\) instead/);
      assert.equal(proposed.columns[1].target.kind, 'ignored', 'the proposal itself is not changed');
    });

    it('says before any row is read when required columns are not fed or the match column is missing', () => {
      const problems = mappingProblems(proposeMapping(['Title'], portal.orders), portal.orders, { creates: true, matchField: 'f12' });
      assert.equal(problems.length, 3, problems.join('\n'));
      assert.match(problems.join('\n'), /Order date \(f15\) is required/);
      assert.match(problems.join('\n'), /Amount \(f17\) is required/);
      assert.match(problems.join('\n'), /matched on Customer id \(f12\)/);
    });
  });

  describe('conversion', () => {
    it('dates: DD-MM-YYYY as is, ISO 8601 to DD-MM-YYYY, with the formats messages otherwise', () => {
      const date = byField('f15');
      assert.deepEqual(convertValue(date, '21-11-2026'), { value: '21-11-2026' });
      assert.deepEqual(convertValue(date, ' 2026-11-21 '), { value: '21-11-2026' });
      const wrong = convertValue(date, '2026-02-30');
      assert.equal(wrong.problem, `${checkValue(date, '30-02-2026')} (read from "2026-02-30")`);
      assert.equal(wrong.expected, 'DD-MM-YYYY');
      assert.equal(convertValue(date, '11/21/2026').problem, checkValue(date, '11/21/2026'));
      // A date written as a date-time at midnight (spreadsheets and JSON exports do), in UTC or without a zone.
      for (const text of [
        '2026-11-21T00:00',
        '2026-11-21T00:00:00',
        '2026-11-21 00:00:00.000Z',
        '2026-11-21T00:00:00+00:00',
        '21-11-2026 00:00',
      ]) {
        assert.deepEqual(convertValue(date, text), { value: '21-11-2026' }, text);
      }
      // Another time, or midnight elsewhere (another day in UTC), is not a date: refused, not cut.
      for (const text of ['2026-11-21T10:30', '2026-11-21T00:00:00+02:00'])
        assert.match(convertValue(date, text).problem ?? '', /expected DD-MM-YYYY/, text);
    });

    it('date-times: ISO 8601 with an offset, or local times of the file time zone, to UTC', () => {
      const delivery = byField('f16');
      assert.deepEqual(convertValue(delivery, '2026-11-21T14:05:59Z'), { value: '21-11-2026 14:05' });
      assert.deepEqual(convertValue(delivery, '2026-11-21T14:05+01:00'), { value: '21-11-2026 13:05' });
      assert.deepEqual(convertValue(delivery, '21-11-2026 14:05'), { value: '21-11-2026 14:05' });
      // UTC written every way (written out without a Date): the wall clock as it is, seconds dropped.
      for (const text of ['2026-11-21T14:05', '2026-11-21 14:05:59.5+00:00', '2026-11-21T14:05-0000', '2026-11-21t14:05:30z']) {
        assert.deepEqual(convertValue(delivery, text), { value: '21-11-2026 14:05' }, text);
      }
      assert.deepEqual(convertValue(delivery, '2026-11-21'), { value: '21-11-2026 00:00' });
      assert.deepEqual(convertValue(delivery, '0100-01-02T03:04Z'), { value: '02-01-0100 03:04' });
      assert.deepEqual(convertValue(delivery, '2026-11-21T23:30:00-00:30'), { value: '22-11-2026 00:00' }, 'a half-hour offset');
      assert.deepEqual(convertValue(delivery, '21-11-2026 14:05', { timeZone: 'Europe/Berlin' }), { value: '21-11-2026 13:05' });
      assert.deepEqual(
        convertValue(delivery, '2026-07-01 00:30', { timeZone: 'Europe/Berlin' }),
        { value: '30-06-2026 22:30' },
        'summer time',
      );
      assert.deepEqual(
        convertValue(delivery, '2026-03-08 02:30', { timeZone: 'America/New_York' }),
        { value: '08-03-2026 07:30' },
        'a skipped hour',
      );
      assert.deepEqual(
        convertValue(delivery, '2026-11-01 01:30', { timeZone: 'America/New_York' }),
        { value: '01-11-2026 05:30' },
        'a repeated hour: the first',
      );
      assert.match(convertValue(delivery, '2026-11-21 25:00').problem ?? '', /not a real date and time/);
      // What the dry run's Expected column says: the zone the import reads such times in, not the API's UTC.
      assert.equal(
        convertValue(delivery, 'tomorrow', { timeZone: 'Europe/Berlin' }).expected,
        "DD-MM-YYYY hh:mm or ISO 8601, in the file's time zone (Europe/Berlin) unless it carries an offset",
      );
      assert.equal(convertValue(delivery, 'tomorrow').expected, 'DD-MM-YYYY hh:mm or ISO 8601, in UTC unless it carries an offset');
      assert.match(timeZoneProblem('Mars/Olympus') ?? '', /unknown time zone/);
    });

    it('date-times of years 1-99 keep their year, and one that leaves the years 0001-9999 in UTC is a problem of its row', () => {
      const delivery = byField('f16');
      // Date.UTC reads years 0-99 as 1900-1999.
      assert.deepEqual(convertValue(delivery, '0050-01-01T10:00+01:00'), { value: '01-01-0050 09:00' });
      assert.deepEqual(convertValue(delivery, '0050-01-01T10:00Z'), { value: '01-01-0050 10:00' });
      // Etc/GMT-1 is UTC+1 all year (a city's zone that far back is its local mean time: Berlin's +0:53:28).
      assert.deepEqual(
        convertValue(delivery, '0048-02-29 10:00', { timeZone: 'Etc/GMT-1' }),
        { value: '29-02-0048 09:00' },
        'a leap day, in a time zone',
      );
      assert.deepEqual(convertValue(delivery, '0004-02-29T00:30+01:00'), { value: '28-02-0004 23:30' }, 'year 4 is a leap year');
      // Past 9999 (or before 0001, the formats' first year) once in UTC: the row fails with why, the import goes on.
      for (const text of ['9999-12-31T23:30:00-05:00', '0001-01-01T00:30+01:00']) {
        const conversion = convertValue(delivery, text);
        assert.equal(conversion.value, undefined, text);
        assert.match(conversion.problem ?? '', /outside the years 0001-9999 in UTC/, text);
        assert.match(conversion.expected ?? '', /ISO 8601/);
      }
    });

    it('date-times in the hours a clock skips or repeats, east of UTC too: the offset before, the first of two', () => {
      const delivery = byField('f16');
      const cases: Array<[string, string, string, string]> = [
        ['2026-03-29 02:30', 'Europe/Berlin', '29-03-2026 01:30', 'skipped: read at +01:00'],
        ['2026-10-25 02:30', 'Europe/Berlin', '25-10-2026 00:30', 'repeated: the first, at +02:00'],
        ['2026-10-25 01:30', 'Europe/Berlin', '24-10-2026 23:30', 'just before the repeated hour'],
        ['2026-10-25 03:30', 'Europe/Berlin', '25-10-2026 02:30', 'just after it'],
        ['2026-10-04 02:30', 'Australia/Sydney', '03-10-2026 16:30', 'skipped: read at +10:00'],
        ['2026-04-05 02:30', 'Australia/Sydney', '04-04-2026 15:30', 'repeated: the first, at +11:00'],
      ];
      for (const [text, timeZone, sent, why] of cases)
        assert.deepEqual(convertValue(delivery, text, { timeZone }), { value: sent }, `${timeZone} ${text}: ${why}`);
    });

    it('numbers with the file decimal separator, never misreading 1,5 as 15', () => {
      assert.equal(convertNumber('1.234,50', ','), '1234.50');
      assert.equal(convertNumber('3,5', ','), '3.5');
      assert.equal(convertNumber('1,234,567.5', '.'), '1234567.5');
      assert.equal(convertNumber('1 234,5', ','), '1234.5');
      assert.equal(convertNumber('+12', '.'), '12');
      assert.equal(convertNumber('1,5', '.'), '1,5');
      const amount = byField('f17');
      assert.equal(convertValue(amount, '1,5').problem, `${checkValue(amount, '1,5')}`);
      assert.deepEqual(convertValue(amount, '1,5', { decimalSeparator: ',' }), { value: '1.5' });
      assert.equal(detectDecimalSeparator(['12', '3,5', '1.234,00', '1,234']), ',');
      assert.equal(detectDecimalSeparator(['12', '3.5', '1,234']), '.');
    });

    it('numbers below 1 with three decimals: a leading 0 is never a thousands group', () => {
      assert.equal(convertNumber('0,125', '.'), '0,125', 'refused, not read as 125');
      assert.equal(convertNumber('0.125', ','), '0.125', 'refused, not read as 125');
      assert.equal(convertNumber('-0,125', '.'), '-0,125');
      assert.equal(convertNumber('0,125', ','), '0.125');
      assert.equal(convertNumber('0.125', '.'), '0.125');
      assert.equal(convertNumber('0 125', ','), '0 125');
      assert.equal(convertNumber('1,500', '.'), '1500', 'a grouped thousand still is one');
      assert.equal(detectDecimalSeparator(['0,125', '1,500', '2,250']), ',', 'a German file of amounts below 10');
      assert.equal(detectDecimalSeparator(['0.125', '1.500', '2.250']), '.');
    });

    it('choices by id or by name, single and multiple', () => {
      assert.deepEqual(convertValue(choice, 'open'), { value: '1' });
      assert.deepEqual(convertValue(choice, '2'), { value: '2' });
      assert.deepEqual(convertValue(multiChoice, 'Closed; 1'), { value: '2,1' });
      assert.deepEqual(convertValue(multiChoice, ' OPEN ,closed'), { value: '1,2' });
      assert.match(convertValue(multiChoice, 'Open;;Closed').problem ?? '', /not one of the choices: \(empty item\)/);
      const unknown = convertValue(choice, 'Pending');
      assert.equal(unknown.problem, checkValue(choice, 'Pending'));
      assert.match(unknown.expected ?? '', /a choice id: 1 Open, 2 Closed/);
    });

    it('a column converter gives every repeated cell the conversion a first one gets, problems too, past the cells it keeps', () => {
      // Choice, user and date converters keep each distinct cell's conversion (up to a bound): a repeat must
      // come out as convertValue() makes it, whether the cell was kept or came after the bound.
      const cases: Array<[Column, string[]]> = [
        [multiChoice, ['Open', ' open ', 'Closed; 1', 'Pending', 'Open', ' Pending', 'Closed; 1', ' open ', 'Pending']],
        [choice, ['2', 'Closed', '7', '2', '7', 'Closed']],
        [byField('f22'), ['ada@example.com', 'ada', 'ada@example.com;grace@example.com', 'ada', 'ada@example.com']],
        [byField('f15'), ['2026-11-21', '31-02-2026', '2026-11-21', '31-02-2026']],
      ];
      for (const [col, cells] of cases) {
        const convert = converterFor(col);
        for (const cell of cells) assert.deepEqual(convert(cell), convertValue(col, cell), `${col.type_name} ${JSON.stringify(cell)}`);
      }
      const convert = converterFor(byField('f15'));
      const days = Array.from({ length: 1500 }, (_, index) => new Date(Date.UTC(2020, 0, 1 + index)).toISOString().slice(0, 10));
      for (const day of [...days, ...days, '2026-02-30']) assert.deepEqual(convert(day), convertValue(byField('f15'), day), day);
    });

    it('users from an e-mail list with spaces or semicolons; durations h:mm padded', () => {
      const owner = byField('f22');
      assert.deepEqual(convertValue(owner, 'ada@example.com; grace@example.com'), { value: 'ada@example.com,grace@example.com' });
      assert.deepEqual(convertValue(owner, ' ada@example.com '), { value: 'ada@example.com' });
      assert.deepEqual(convertValue(owner, ';ada@example.com;;grace@example.com,'), { value: 'ada@example.com,grace@example.com' });
      assert.equal(convertValue(owner, 'ada').problem, `${checkValue(owner, 'ada')}`);
      assert.deepEqual(convertValue(byField('f21'), '1:30'), { value: '01:30' });
      assert.deepEqual(convertValue(column('Text Field', '0'), '  keep  '), { value: '  keep  ' });
    });
  });
});
