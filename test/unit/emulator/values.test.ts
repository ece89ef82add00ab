import * as assert from 'node:assert/strict';
import type { ReadRecordResponse } from '../../../src/api/types';
import { call, clientToken, form, nestedError, useEmulator } from './helpers';

interface KindSamples {
  kind: string;
  /** app id and field_id_in_data of a column of that kind, on record 1 */
  app: string;
  field: string;
  valid: string[];
  invalid: string[];
}

const SAMPLES: KindSamples[] = [
  { kind: 'text', app: '102', field: 'f11', valid: ['Anything at all', 'with <b>markup</b> & symbols ✓', ' spaced '], invalid: [] },
  {
    kind: 'multiline',
    app: '101',
    field: 'f8',
    valid: [
      'plain text',
      '<p>one</p><p>two<br>three</p>',
      '<ul><li>a</li></ul>',
      'a < b and c > d',
      '<img src="x.png" alt="x">',
      '<!-- note --><p>x</p>',
      '<br/>',
    ],
    invalid: ['<p>unclosed', '<b><i>crossed</b></i>', '</p>', '<p class="x>broken</p>', '<!-- never closed'],
  },
  {
    kind: 'email',
    app: '101',
    field: 'f3',
    valid: ['a@example.com', 'first.last+tag@sub.example.org', "o'brien@example.co.uk"],
    invalid: [
      'no-at.example.com',
      'a@b',
      'a@@example.com',
      'a b@example.com',
      '.a@example.com',
      'a@-example.com',
      'a@example.c0m',
      ' a@example.com',
    ],
  },
  {
    kind: 'phone',
    app: '101',
    field: 'f4',
    valid: ['+1 (555) 010-2000', '555.0123', '1-800-FLOWERS', 'ext 12', '030/1234'],
    invalid: ['555#12', 'call me!', '+1 555 ☎', '--'],
  },
  {
    kind: 'url',
    app: '101',
    field: 'f5',
    valid: ['https://example.com', 'http://localhost:8080/a?b=c#d', 'https://sub.example.org/path'],
    invalid: ['example.com', 'ftp://example.com', 'https://', 'https:/example.com', 'http://exa mple.com', 'mailto:a@example.com'],
  },
  {
    kind: 'number',
    app: '102',
    field: 'f18',
    valid: ['42', '-12.5', '0.25', '.5', '007', '-0'],
    invalid: ['1e3', '+1', '1.', '1,5', '1 000', 'abc', 'Infinity', '0x10', ' 1'],
  },
  {
    kind: 'currency',
    app: '102',
    field: 'f17',
    valid: ['1250', '99.95', '-10.00', '0.125'],
    invalid: ['€12', '12 EUR', '1,250.00', '$5', '12e2'],
  },
  {
    kind: 'date',
    app: '101',
    field: 'f9',
    valid: ['01-01-2026', '29-02-2024', '31-12-1999'],
    invalid: ['31-02-2026', '29-02-2025', '2026-01-01', '1-1-2026', '00-01-2026', '01-13-2026', '01/01/2026', '01-01-26', '01-01-0000'],
  },
  {
    kind: 'datetime',
    app: '102',
    field: 'f16',
    valid: ['01-01-2026 00:00', '29-02-2024 23:59', '15-06-2026 09:05'],
    invalid: [
      '01-01-2026',
      '01-01-2026 24:00',
      '01-01-2026 12:60',
      '01-01-2026 9:05',
      '31-04-2026 10:00',
      '01-01-2026T10:00',
      '01-01-2026  10:00',
    ],
  },
  {
    kind: 'duration',
    app: '102',
    field: 'f21',
    valid: ['00:00', '01:30', '23:59'],
    invalid: ['24:00', '1:30', '01:60', '90', '01:30:00', '-01:00'],
  },
  { kind: 'choice (dropdown)', app: '102', field: 'f19', valid: ['1', '5'], invalid: ['6', 'New', '1,2', '0'] },
  { kind: 'choice (radio)', app: '101', field: 'f6', valid: ['3'], invalid: ['Gold', '4'] },
  {
    kind: 'choice (multi-select)',
    app: '102',
    field: 'f20',
    valid: ['1', '1,2', '4,3,2,1'],
    invalid: ['1, 2', '1,1', '9', '1,', 'Urgent'],
  },
  {
    kind: 'user',
    app: '102',
    field: 'f22',
    valid: ['ada@example.com', 'ada@example.com,grace@example.com'],
    invalid: ['ada', 'ada@example.com, grace@example.com', 'ada@example.com;grace@example.com', 'ada@example.com,'],
  },
];

describe('emulator: value validation', () => {
  const running = useEmulator();
  let token: string;

  before(async () => {
    token = await clientToken(running.emulator);
  });

  const put = (app: string, fields: Record<string, string>, record = '1') =>
    call(running.emulator, 'PUT', `/api/v1/app/${app}/record/${record}`, { token, body: form(fields) });

  for (const { kind, app, field, valid, invalid } of SAMPLES) {
    describe(kind, () => {
      for (const value of valid) {
        it(`accepts ${JSON.stringify(value)} and stores it as sent`, async () => {
          const result = await put(app, { [field]: value });
          assert.equal(result.status, 200, result.text);
          const read = (await call(running.emulator, 'GET', `/api/v1/app/${app}/record/1`, { token })).json as ReadRecordResponse;
          assert.equal(read.data[field], value);
        });
      }
      for (const value of invalid) {
        it(`refuses ${JSON.stringify(value)} with 400 invalid_value naming ${field}`, async () => {
          const before = (await call(running.emulator, 'GET', `/api/v1/app/${app}/record/1`, { token })).json as ReadRecordResponse;
          const result = await put(app, { [field]: value });
          assert.equal(result.status, 400);
          const error = nestedError(result);
          assert.equal(error.code, 'invalid_value');
          assert.equal(error.field, field);
          assert.ok(error.message.startsWith(`${field} (`), error.message);
          const after = (await call(running.emulator, 'GET', `/api/v1/app/${app}/record/1`, { token })).json as ReadRecordResponse;
          assert.deepEqual(after.data, before.data, 'nothing changed');
        });
      }
      it('accepts the empty string, which clears the value', async () => {
        if (field === 'f11' || field === 'f17')
          return assert.equal((await put(app, { [field]: '' })).status, 400, 'a required field cannot be emptied');
        assert.equal((await put(app, { [field]: '' })).status, 200);
      });
    });
  }

  it('refuses an unknown field, naming it', async () => {
    const result = await put('101', { f2: 'Acme Corporation', f999: 'x' });
    assert.equal(result.status, 400);
    assert.deepEqual(nestedError(result), {
      code: 'unknown_field',
      message: 'f999 is not a column of app 101 (Customers).',
      field: 'f999',
    });
  });

  it('refuses Auto Number and LookUp fields as read-only', async () => {
    const autoNumber = await put('102', { f10: '1' });
    assert.equal(nestedError(autoNumber).code, 'read_only_field');
    assert.equal(nestedError(autoNumber).field, 'f10');
    const lookup = await put('102', { f13: 'Globex' });
    assert.equal(nestedError(lookup).code, 'read_only_field');
    assert.equal(nestedError(lookup).field, 'f13');
  });

  it('refuses a create without a required field, naming the first one missing', async () => {
    const result = await call(running.emulator, 'POST', '/api/v1/app/102/record/', { token, body: form({ f11: 'Only a title' }) });
    assert.equal(result.status, 400);
    assert.equal(nestedError(result).code, 'missing_required_field');
    assert.equal(nestedError(result).field, 'f15');
  });

  it('refuses a value a Unique column already holds', async () => {
    const result = await call(running.emulator, 'POST', '/api/v1/app/101/record/', { token, body: form({ f2: 'Globex' }) });
    assert.equal(result.status, 400);
    assert.equal(nestedError(result).code, 'duplicate_value');
    assert.equal(nestedError(result).field, 'f2');
    assert.equal((await put('101', { f2: 'Globex' }, '2')).status, 200, 'a record keeps its own value');
  });

  it('refuses a parameter given twice', async () => {
    const body = new URLSearchParams([
      ['f4', '1'],
      ['f4', '2'],
    ]);
    const result = await call(running.emulator, 'PUT', '/api/v1/app/101/record/1', { token, body });
    assert.equal(result.status, 400);
    assert.equal(nestedError(result).field, 'f4');
  });
});
