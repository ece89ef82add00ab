// Columns of every kind with valid and invalid values: the formats test checks them locally and the client
// test sends them to the emulator, so the client's verdict and the portal's must agree.
import type { Column } from '../../../src/api/types';

export function column(typeName: string, type: string, extra: Partial<Column> = {}): Column {
  return {
    app_id: '1',
    field_id: '7',
    field_id_in_data: 'f7',
    field_name: typeName,
    field_description: '',
    type,
    type_name: typeName,
    position: '1',
    unique_value: '0',
    ...extra,
  };
}

export const choice = column('Choice', '2', {
  choice_type: '0',
  choices: [
    { id: '2', name: 'Closed', color: '#00ff00', order: '2' },
    { id: '1', name: 'Open', color: '#ff0000', order: '1' },
  ],
});
export const multiChoice = { ...choice, choice_type: '2' };

/** Valid and invalid values per kind. */
export const VALUE_CASES: Array<{ column: Column; valid: string[]; invalid: string[] }> = [
  { column: column('Text Field', '0'), valid: ['anything', '  ', '<b>', '😀 ünïcode'], invalid: [] },
  {
    column: column('Multiline', '1'),
    valid: [
      'plain text',
      '<p>a <b>b</b></p>',
      'a<br>b',
      'x < y',
      '<img src="a.png"/>',
      '<a href=">" title=\'x\' data-x=1 hidden>link</a>',
      '<!-- note --><!DOCTYPE html><p>x</p>',
    ],
    invalid: ['<p>open', '<b>x</i>', '</p>', '<p', '<a href="x>y</a>', '<p class=>x</p>', '<!-- open', '<br></br>', '<a"b">x</a>'],
  },
  {
    column: column('Email', '6'),
    valid: ['ann@example.com', 'a.b+c@sub.example.org', "o'neil@example.co.uk"],
    invalid: [
      'ann',
      'ann@',
      '@example.com',
      'ann@example',
      'a b@example.com',
      'a@b@example.com',
      'a..b@example.com',
      '.a@example.com',
      'ann@example.c',
      'ann@-x.com',
      'ann@example.123',
    ],
  },
  {
    column: column('Phone/Fax No.', '7'),
    valid: ['0123456789', '+44 20 7946 0000', '(020) 7946-0000', 'ext12', '020/7946.0000'],
    invalid: ['12#34', 'call me!', '+', '()', '12_34'],
  },
  {
    column: column('URL', '8'),
    valid: ['https://example.com', 'http://127.0.0.1:8080/a?b=c'],
    invalid: ['example.com', 'ftp://example.com/x', 'https://exa mple.com', 'not a url', 'http:example.com', 'https://'],
  },
  {
    column: column('Number', '3'),
    valid: ['0', '12', '-3.5', '.5', '-.5', '1234567.125', '007'],
    invalid: ['abc', '1,5', '1e3', '12.', '--1', '1 000', 'NaN', 'Infinity', '+4', ' 12'],
  },
  { column: column('Currency', '9'), valid: ['1200.50', '0', '-12'], invalid: ['$12', '12€', 'twelve', '1,200.50'] },
  {
    column: column('Date', '4'),
    valid: ['21-11-2026', '29-02-2024', '01-01-0001'],
    invalid: ['2026-11-21', '21/11/2026', '31-02-2026', '29-02-2026', '1-1-2026', '21-13-2026', '00-01-2026'],
  },
  {
    column: column('Date & Time', '5'),
    valid: ['21-11-2026 14:05', '01-01-2026 00:00', '31-12-2026 23:59'],
    invalid: ['21-11-2026', '21-11-2026 24:00', '21-11-2026 14:60', '21-11-2026 2:05', '2026-11-21 14:05', '21-11-2026T14:05'],
  },
  { column: column('Duration', '10'), valid: ['00:00', '01:30', '23:59'], invalid: ['1:30', '24:00', '00:60', '90', '01:30:00'] },
  { column: choice, valid: ['1', '2'], invalid: ['7', 'Open', '1,2', ' 1'] },
  { column: multiChoice, valid: ['1', '1,2', '2,1'], invalid: ['7', '1,7', 'Open', '2, 1', '1,1', '1,'] },
  {
    column: column('User', '11'),
    valid: ['ann@example.com', 'ann@example.com,bob@example.org'],
    invalid: ['ann', 'ann@example.com,', 'ann@example.com;bob@example.org', 'ann@example.com,bob', 'ann@example.com, bob@example.org'],
  },
];
