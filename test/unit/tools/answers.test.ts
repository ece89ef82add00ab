// The language model tools' plain logic: answers sized for a model, names resolved to ids, values checked
// with the documents' rules, the confirmation's lines, the conflict check. No portal needed here (the
// emulator suite beside this one covers the tools end to end).
import * as assert from 'node:assert/strict';
import { PortalError } from '../../../src/api/errors';
import type { Column } from '../../../src/api/types';
import { bounded, describeColumn, failureText, quotedText, shortValue } from '../../../src/tools/answers';
import { changeLines, conflictSentence, planCreate, planUpdate } from '../../../src/tools/changes';
import { ToolRefusal, type ToolHost, type ToolPortal } from '../../../src/tools/host';
import { operatorOf, resolveView, viewAnswer, viewFilters } from '../../../src/tools/query';
import { resolveField, resolvePortal, wireValue } from '../../../src/tools/resolve';
import { choice, column } from '../api/valueCases';

function choiceColumn(fieldId: string, name: string, names: string[], ids: string[], multi = false): Column {
  const choices = names.map((label, index) => ({ id: ids[index], name: label, color: '#1E88E5', order: ids[index] }));
  return {
    ...choice,
    field_id: fieldId,
    field_id_in_data: `f${fieldId}`,
    field_name: name,
    choices,
    ...(multi ? { choice_type: '2' } : {}),
  };
}

const status = choiceColumn('19', 'Status', ['New', 'Delivered'], ['1', '4']);
const tags = choiceColumn('20', 'Tags', ['Urgent', 'Fragile'], ['1', '4'], true);
const columns: Column[] = [
  { ...column('Auto Number', '15'), field_id: '10', field_id_in_data: 'f10', field_name: 'Order no.' },
  { ...column('Text Field', '0'), field_id: '11', field_id_in_data: 'f11', field_name: 'Title', required: '1' },
  { ...column('LookUp', '16'), field_id: '13', field_id_in_data: 'f13', field_name: 'Customer' },
  { ...column('Date', '4'), field_id: '15', field_id_in_data: 'f15', field_name: 'Order date', required: '1' },
  status,
  tags,
];
const read = { f10: '5001', f11: 'Chairs', f13: 'Acme', f15: '02-01-2026', f19: '1', f20: '' };

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ToolRefusal, `expected a ToolRefusal, got ${String(error)}`);
    return error.message;
  }
  assert.fail('expected a refusal');
}

function hostWith(portals: ToolPortal[]): ToolHost {
  const unused = (): never => assert.fail('nothing may be read');
  const log = { debug: unused, info: unused, warn: unused };
  return {
    portals: () => portals,
    activePortal: () => undefined,
    client: unused,
    sites: unused,
    columns: unused,
    views: () => [],
    allowChanges: () => true,
    recordChanged: unused,
    offerSignIn: unused,
    log,
  };
}

describe('language model tools: answers and checks', () => {
  it('keeps answers within their bound and says how much was left out', () => {
    const lines = Array.from({ length: 500 }, (_, index) => `row ${index} ${'x'.repeat(50)}`);
    const text = bounded(['head'], lines, (left) => `… ${left} more rows left out`, 2000);
    assert.ok(text.length <= 2000, `${text.length} characters`);
    const shown = text.split('\n').filter((line) => line.startsWith('row ')).length;
    assert.match(text, new RegExp(`… ${500 - shown} more rows left out$`));
    assert.equal(
      bounded(['head'], ['a', 'b'], () => 'never'),
      'head\na\nb',
    );
    assert.equal(shortValue(`a\n\n${'b'.repeat(300)}`, 20), `a ${'b'.repeat(17)}… (302 characters)`);
  });

  it('quotes a value with its line breaks, tabs, quotes and invisible characters made visible', () => {
    assert.equal(quotedText('Line one\r\nLine "two"\tend'), '"Line one\\r\\nLine \\"two\\"\\tend"');
    assert.equal(
      quotedText('a\u2028b\u202Ec\u200Bd\u{E0041}'),
      '"a\\u2028b\\u202ec\\u200bd\\u{e0041}"',
      'separators, bidi controls, zero-width and tag characters',
    );
    assert.equal(quotedText(`${'x'.repeat(10)}\n${'y'.repeat(10)}`, 8), '"xxxxxxx"… (21 characters)');
    assert.equal(quotedText('x'.repeat(5000)), JSON.stringify('x'.repeat(5000)), 'uncut unless asked');
  });

  it('describes a column with its id, name, kind, format, choices by name and what the API can set', () => {
    assert.equal(describeColumn(columns[3]), '- f15 (Order date): Date; DD-MM-YYYY; required');
    assert.equal(describeColumn(tags), '- f20 (Tags): Choice; several of: Urgent, Fragile');
    assert.equal(describeColumn(columns[0]), '- f10 (Order no.): Auto Number; read-only (the portal fills it)');
  });

  it('asks which portal when several are connected, and refuses a signed-out one naming the sign-in command', () => {
    const one: ToolPortal = { id: 'emulator', label: 'Emulator', state: 'signedIn' };
    const two: ToolPortal = { id: 'production', label: 'Production', state: 'signedOut' };
    assert.equal(resolvePortal(hostWith([one]), undefined), one);
    assert.match(
      refusal(() => resolvePortal(hostWith([one, two]), undefined)),
      /^Several portals are connected: "Emulator" \(id emulator\), "Production" \(id production\)\. Ask the user which one/,
    );
    assert.equal(resolvePortal(hostWith([one, two]), 'emulator'), one, 'by id');
    assert.equal(resolvePortal(hostWith([one, two]), 'EMULATOR '), one, 'by name, any case');
    assert.equal(
      refusal(() => resolvePortal(hostWith([one, two]), 'Production')),
      'The portal "Production" (id production) cannot be used: it is signed out. The user must sign in first with the command "Portal: Sign In" (portal.signIn); nothing was read or sent.',
    );
    assert.match(
      refusal(() => resolvePortal(hostWith([]), undefined)),
      /Portal: Add Portal…/,
    );
  });

  it('finds fields by id, field id or name, and choices by name', () => {
    assert.equal(resolveField(columns, 'f15', 'Orders'), columns[3]);
    assert.equal(resolveField(columns, '15', 'Orders'), columns[3]);
    assert.equal(resolveField(columns, 'order date', 'Orders'), columns[3]);
    assert.match(
      refusal(() => resolveField(columns, 'Colour', 'Orders')),
      /^Orders has no field "Colour"\. Its fields: f10 \(Order no\.\), f11 \(Title\)/,
    );
    assert.equal(wireValue(status, 'delivered'), '4');
    assert.equal(wireValue(status, '4'), '4');
    assert.equal(wireValue(tags, 'Urgent, fragile'), '1,4');
    assert.equal(wireValue(status, 'Lost'), 'Lost', 'left for the formats check to refuse');
  });

  it("plans an update of only the changed fields, checked with the documents' rules", () => {
    const plan = planUpdate(columns, read, { Status: 'Delivered', Title: 'Chairs', f15: '03-01-2026' }, 'Orders');
    assert.deepEqual(
      plan.changes.map((change) => [change.column.field_id_in_data, change.before, change.after]),
      [
        ['f19', '1', '4'],
        ['f15', '02-01-2026', '03-01-2026'],
      ],
    );
    assert.deepEqual(
      plan.unchanged.map((item) => item.field_id_in_data),
      ['f11'],
    );
    assert.deepEqual(changeLines(plan.changes, false), [
      '- f19 (Status): "New" → "Delivered"',
      '- f15 (Order date): "02-01-2026" → "03-01-2026"',
    ]);
    assert.equal(
      refusal(() => planUpdate(columns, read, { 'Order date': '2026-01-31' }, 'Orders')),
      'f15 (Order date): expected DD-MM-YYYY, got 2026-01-31. Nothing was sent; correct the value and try again.',
    );
    assert.match(
      refusal(() => planUpdate(columns, read, { Status: 'Lost' }, 'Orders')),
      /^f19 \(Status\): not one of the choices: Lost \(choices: 1 New, 4 Delivered\)\./,
    );
    assert.match(
      refusal(() => planUpdate(columns, read, { Customer: 'Globex' }, 'Orders')),
      /^f13 \(Customer\): read-only \(LookUp\)/,
    );
    assert.match(
      refusal(() => planUpdate(columns, read, { Title: '' }, 'Orders')),
      /^f11 \(Title\): required/,
    );
    assert.match(
      refusal(() => planUpdate(columns, read, { Status: 'New', f19: 'Delivered' }, 'Orders')),
      /both name f19 \(Status\)/,
    );
  });

  it('plans a create with every required field, refusing read-only ones', () => {
    assert.deepEqual(changeLines(planCreate(columns, { Title: 'Lamps', 'Order date': '05-02-2026', Tags: 'Fragile' }, 'Orders'), true), [
      '- f11 (Title): "Lamps"',
      '- f15 (Order date): "05-02-2026"',
      '- f20 (Tags): "Fragile"',
    ]);
    assert.match(
      refusal(() => planCreate(columns, { Title: 'Lamps' }, 'Orders')),
      /^f15 \(Order date\): required/,
    );
  });

  it('names the fields that moved since the confirmation when an update is refused as a conflict', () => {
    assert.equal(
      conflictSentence(columns, read, { ...read, f11: 'Desks', f15: '09-09-2026', f13: 'Globex' }, 'Record 1 of Orders'),
      'Record 1 of Orders changed in the portal after the user confirmed: f11 (Title) is now "Desks", was "Chairs"; f15 (Order date) is now "09-09-2026", was "02-01-2026". Nothing was sent; run the tool again so the user confirms against the current values.',
      'read-only fields (the LookUp) are not what a save could overwrite',
    );
  });

  it("turns filters by column name, operator name and value into the view's filters", () => {
    assert.equal(operatorOf('less than'), 'lessThan');
    assert.equal(operatorOf('<='), 'lessThanOrEqual');
    assert.equal(operatorOf('is empty'), 'empty');
    assert.equal(operatorOf('about'), undefined);
    const { filters, described } = viewFilters(
      columns,
      [
        { column: 'Status', operator: 'equals', value: 'Delivered' },
        { column: 'Order date', operator: 'lessThan', value: '01-02-2026' },
      ],
      'Orders',
    );
    assert.deepEqual(filters, [
      { column: '19', operator: 'equals', value: '4' },
      { column: '15', operator: 'lessThan', value: '01-02-2026' },
    ]);
    assert.deepEqual(described, ['Status equals "Delivered"', 'Order date less than "01-02-2026"']);
    assert.equal(
      refusal(() => viewFilters(columns, [{ column: 'Order date', operator: 'lessThan', value: '2026-02-01' }], 'Orders')),
      'Filter 1: f15 (Order date) less than: expected a date as DD-MM-YYYY, got 2026-02-01. Nothing was sent.',
    );
    assert.match(
      refusal(() => viewFilters(columns, [{ column: 'Title', operator: 'greaterThan', value: 'A' }], 'Orders')),
      /^Filter 1: f11 \(Title\) cannot be filtered with "greaterThan"\. Its operators: contains, doesNotContain, equals/,
    );
    assert.match(
      refusal(() => viewFilters(columns, [{ column: 'Status', operator: 'equals', value: 'Lost' }], 'Orders')),
      /has no choice "Lost"\. Its choices: New, Delivered/,
    );
    assert.deepEqual(resolveView([{ viewId: '4', name: 'Open orders' }], 'open orders', 'Orders'), { viewId: '4', name: 'Open orders' });
    assert.match(
      refusal(() => resolveView([], 'Late orders', 'Orders')),
      /cannot list views, so give the view's id/,
    );
  });

  it('answers a view with a row count, choice names and what was left out', () => {
    const rows = Array.from({ length: 30 }, (_, index) => ({
      id: String(index + 1),
      draft: index === 0,
      values: { f11: `Order ${index + 1}`, f19: '4', f20: '1,4' },
    }));
    const metadata = ['f11', 'f19', 'f20'].map((key) => {
      const found = columns.find((item) => item.field_id_in_data === key) as Column;
      return {
        view_id: '3',
        field_id_in_data: key,
        field_name: found.field_name,
        field_description: '',
        app_id: '102',
        id: found.field_id,
        type_name: found.type_name,
      };
    });
    const byKey = new Map(columns.map((item) => [item.field_id_in_data, item]));
    const text = viewAnswer('View "All orders" (3)', { count: rows.length, rows, metadata }, byKey, ['Status equals "Delivered"'], 5);
    assert.deepEqual(text.split('\n'), [
      'View "All orders" (3) with the filters Status equals "Delivered": 30 rows.',
      'Columns: record id | f11 Title | f19 Status | f20 Tags',
      '1 (draft) | Order 1 | Delivered | Urgent, Fragile',
      '2 | Order 2 | Delivered | Urgent, Fragile',
      '3 | Order 3 | Delivered | Urgent, Fragile',
      '4 | Order 4 | Delivered | Urgent, Fragile',
      '5 | Order 5 | Delivered | Urgent, Fragile',
      '… 25 more rows left out (of 30); narrow the filters or raise "limit" (at most 100).',
    ]);
  });

  it('says rows were left out also when a shown value holds the words "left out"', () => {
    const rows = Array.from({ length: 50 }, (_, index) => ({
      id: String(index + 1),
      draft: false,
      values: { f11: index === 0 ? 'Parcel left out in the rain' : `Order ${index + 1}` },
    }));
    const metadata = [
      {
        view_id: '3',
        field_id_in_data: 'f11',
        field_name: 'Title',
        field_description: '',
        app_id: '102',
        id: '11',
        type_name: 'Text Field',
      },
    ];
    const lines = viewAnswer(
      'View "All orders" (3)',
      { count: rows.length, rows, metadata },
      new Map(columns.map((item) => [item.field_id_in_data, item])),
      [],
      20,
    ).split('\n');
    assert.equal(lines.length, 2 + 20 + 1);
    assert.equal(lines[2], '1 | Parcel left out in the rain');
    assert.equal(lines.at(-1), '… 30 more rows left out (of 50); narrow the filters or raise "limit" (at most 100).');
  });

  it("answers a failure in one sentence with the portal's own words, never a secret", () => {
    const refused = new PortalError({
      kind: 'http',
      status: 400,
      code: 'duplicate_value',
      field: 'f2',
      message: 'Updating record 2 of app 101 failed: Bad Request (HTTP 400): f2 (Name) is taken.',
      portalMessage: 'f2 (Name) is taken.',
    });
    assert.equal(
      failureText(refused, { columns: [{ ...column('Text Field', '0'), field_id_in_data: 'f2', field_name: 'Name' }] }),
      'Updating record 2 of app 101 failed: Bad Request (HTTP 400): f2 (Name) is taken.',
    );
    const words = new PortalError({
      kind: 'http',
      status: 403,
      code: 'comments_disabled',
      message: 'Adding a comment failed: Forbidden (HTTP 403).',
      portalMessage: 'The comments plugin is off.',
    });
    assert.equal(failureText(words), 'Adding a comment failed: Forbidden (HTTP 403). The portal said: The comments plugin is off.');
    const expired = new PortalError({
      kind: 'http',
      status: 401,
      code: 'unauthorized',
      message: 'Reading record 1 failed: not signed in to the portal.',
    });
    assert.equal(
      failureText(expired, { portalLabel: 'Emulator' }),
      'The sign-in to "Emulator" is no longer accepted: the user must sign in again with the command "Portal: Sign In" (portal.signIn).',
    );
    assert.equal(
      failureText(new PortalError({ kind: 'network', message: 'Reading view 3 of app 102 failed: the portal did not answer.' })),
      'Reading view 3 of app 102 failed: the portal did not answer. Trying again later may help.',
    );
    const lines = new PortalError({
      kind: 'http',
      status: 400,
      code: 'invalid_value',
      message: 'Creating a record failed: Bad Request (HTTP 400).',
      portalMessage: 'Two problems:\n  f2 is taken;\r\n  f3 is no e-mail.',
    });
    assert.equal(
      failureText(lines),
      'Creating a record failed: Bad Request (HTTP 400). The portal said: Two problems: f2 is taken; f3 is no e-mail.',
      "one line, whatever the portal's message holds",
    );
    const inMessage = new PortalError({
      kind: 'http',
      status: 500,
      message: 'Reading record 1 failed (HTTP 500): Internal\nerror',
      portalMessage: 'Internal\nerror',
    });
    assert.equal(failureText(inMessage), 'Reading record 1 failed (HTTP 500): Internal error Trying again later may help.');
  });
});
