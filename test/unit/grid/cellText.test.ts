// Text to and from the API's value formats per column kind, beyond what the paste tests cover: the
// locale's separators and date order, time zones that follow daylight saving, and the form's conversion.
import * as assert from 'node:assert/strict';
import type { Column } from '../../../src/api/types';
import { dateOrderOf, decimalSeparatorOf, textToValue, valueToText, type TextOptions } from '../../../src/grid/model/cellText';
import { localFromUtc, utcFromLocal } from '../../../src/shared/enteredValues';

function column(typeName: string, extra: Partial<Column> = {}): Column {
  return {
    app_id: '1',
    field_id: '1',
    field_id_in_data: 'f1',
    field_name: typeName,
    field_description: '',
    type: '',
    type_name: typeName,
    position: '1',
    unique_value: '0',
    ...extra,
  };
}

const DMY: TextOptions = { dateOrder: 'DMY', utcOffset: 0 };

describe('grid: cell text', function () {
  it("reads the locale's date order and decimal separator from Intl", () => {
    assert.equal(dateOrderOf('en-US'), 'MDY');
    assert.equal(dateOrderOf('de-DE'), 'DMY');
    assert.equal(dateOrderOf('ja-JP'), 'YMD');
    assert.equal(decimalSeparatorOf('de-DE'), ',');
    assert.equal(decimalSeparatorOf('en-GB'), '.');
  });

  it("reads numbers with the locale's separators only where the grouping is regular", () => {
    const number = column('Number');
    const german: TextOptions = { ...DMY, decimalSeparator: ',' };
    assert.deepEqual(textToValue(number, '1.234.567,5', german), { value: '1234567.5' });
    assert.deepEqual(textToValue(number, '-12,75', german), { value: '-12.75' });
    assert.deepEqual(textToValue(number, '1,234.5', DMY), { value: '1234.5' });
    assert.deepEqual(textToValue(number, '12,34', DMY), { value: '12,34' }, 'left for the check to refuse');
    assert.deepEqual(textToValue(column('Currency', { currency_symbol: 'CHF' }), 'CHF 1’200.00'.replace('’', "'"), DMY), {
      value: '1200.00',
    });
    assert.deepEqual(textToValue(column('Currency'), '-$12.50', DMY), { value: '-12.50' });
  });

  it('reads durations, users and trims what only white space separates', () => {
    assert.deepEqual(textToValue(column('Duration'), ' 1:30 ', DMY), { value: '01:30' });
    assert.deepEqual(textToValue(column('Duration'), '02:15:00', DMY), { value: '02:15' });
    assert.deepEqual(textToValue(column('User'), 'ada@example.com; grace@example.com\n', DMY), {
      value: 'ada@example.com,grace@example.com',
    });
    assert.deepEqual(textToValue(column('Email'), ' a@example.com ', DMY), { value: 'a@example.com' });
    assert.deepEqual(textToValue(column('Text Field'), ' kept as typed ', DMY), { value: ' kept as typed ' });
    assert.deepEqual(textToValue(column('Date'), '   ', DMY), { value: '' });
  });

  it('sends a local date & time in UTC, with an offset that can follow daylight saving time', () => {
    const berlin = (local: { month: number }): number => (local.month >= 4 && local.month <= 10 ? 120 : 60);
    assert.deepEqual(textToValue(column('Date & Time'), '01-07-2026 12:00', { dateOrder: 'DMY', utcOffset: berlin }), {
      value: '01-07-2026 10:00',
    });
    assert.deepEqual(textToValue(column('Date & Time'), '01-01-2026 00:30', { dateOrder: 'DMY', utcOffset: berlin }), {
      value: '31-12-2025 23:30',
    });
    assert.deepEqual(textToValue(column('Date & Time'), '12/31/2026 12:15 am', { dateOrder: 'MDY', utcOffset: 0 }), {
      value: '31-12-2026 00:15',
    });
    assert.match(textToValue(column('Date & Time'), '31-12-2026 25:00', DMY).problem ?? '', /not a real date and time/);
    assert.equal(valueToText(column('Date & Time'), '01-07-2026 10:00', { utcOffset: berlin }), '01-07-2026 12:00');
  });

  it('converts a local date & time as the create-record form does when no offset is given', () => {
    // The form hands utcFromLocal() what the browser's date-time input holds, in the runtime's time zone.
    const local = new Date(2026, 10, 21, 14, 5);
    const expected = `${String(local.getUTCDate()).padStart(2, '0')}-${String(local.getUTCMonth() + 1).padStart(2, '0')}-${local.getUTCFullYear()} ${String(local.getUTCHours()).padStart(2, '0')}:${String(local.getUTCMinutes()).padStart(2, '0')}`;
    assert.equal(utcFromLocal({ year: 2026, month: 11, day: 21, hours: 14, minutes: 5 }), expected);
    assert.equal(localFromUtc(expected), '21-11-2026 14:05');
    assert.equal(utcFromLocal({ year: 2026, month: 2, day: 29, hours: 1, minutes: 0 }, 0), '', 'no 29 February in 2026');
  });
});
