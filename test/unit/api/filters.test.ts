import * as assert from 'node:assert/strict';
import type { ColumnKind } from '../../../src/api/columnKinds';
import { PortalError } from '../../../src/api/errors';
import {
  FILTER_OPERATOR_LABELS,
  FILTER_OPERATOR_NAMES,
  encodeFilters,
  filterQuery,
  filterValueProblem,
  operatorNeedsValue,
  operatorsForKind,
} from '../../../src/api/filters';

function refusal(action: () => unknown, pattern: RegExp): void {
  assert.throws(action, (error: unknown) => {
    assert.ok(error instanceof PortalError);
    assert.equal(error.kind, 'invalid-input');
    assert.equal(error.code, 'invalid_filter');
    assert.match(error.message, pattern);
    return true;
  });
}

describe('view filters', () => {
  it('encodes items by position, operators as their codes', () => {
    assert.deepEqual(
      encodeFilters([
        { column: '12', operator: 'contains', value: 'abc' },
        { column: '30', operator: 'greaterThanOrEqual', value: '5', lookupApp: '9' },
        { column: '13', operator: 'empty' },
      ]),
      { filter_columns: '12|30|13', filter_values: 'abc|5|', filter_apps: '|9|', filter_operators: '0|9|4' },
    );
  });

  it('encodes every one of the ten operators to its documented code', () => {
    const codes = FILTER_OPERATOR_NAMES.map((operator) => encodeFilters([{ column: '1', operator, value: 'x' }]).filter_operators);
    assert.deepEqual(codes, ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
  });

  it('sends no value for empty / not empty, whatever was typed', () => {
    assert.equal(encodeFilters([{ column: '1', operator: 'notEmpty', value: 'ignored|too' }]).filter_values, '');
  });

  it('refuses a "|" in a value, a column or a lookup app, naming the filter', () => {
    refusal(
      () =>
        encodeFilters([
          { column: '1', operator: 'equals', value: 'ok' },
          { column: '2', operator: 'equals', value: 'a|b' },
        ]),
      /Filter 2: the value contains "\|"/,
    );
    refusal(() => encodeFilters([{ column: '1|2', operator: 'equals', value: 'a' }]), /the column contains "\|"/);
    refusal(() => encodeFilters([{ column: '1', operator: 'equals', value: 'a', lookupApp: '3|4' }]), /the lookup app contains "\|"/);
  });

  it('refuses a missing value, a missing column and an unknown operator', () => {
    refusal(() => encodeFilters([{ column: '1', operator: 'lessThan' }]), /"less than" needs a value/);
    refusal(() => encodeFilters([{ column: '1', operator: 'equals', value: '' }]), /needs a value/);
    refusal(() => encodeFilters([{ column: ' ', operator: 'empty' }]), /no column chosen/);
    refusal(() => encodeFilters([{ column: '1', operator: 'like' as never, value: 'x' }]), /unknown operator "like"/);
  });

  it('builds the query: nothing without filters, optional lists left out when empty', () => {
    assert.deepEqual(filterQuery([]), []);
    assert.deepEqual(filterQuery([{ column: '1', operator: 'empty' }]), [
      ['filter_columns', '1'],
      ['filter_operators', '4'],
    ]);
    assert.deepEqual(new Map(filterQuery([{ column: '1', operator: 'equals', value: 'x', lookupApp: '5' }])).get('filter_apps'), '5');
  });

  it('offers only the operators that fit a kind', () => {
    const ordered = ['lessThan', 'lessThanOrEqual', 'greaterThan', 'greaterThanOrEqual'];
    for (const kind of ['number', 'currency', 'date', 'datetime', 'duration'] as ColumnKind[]) {
      const operators = operatorsForKind(kind);
      for (const operator of ordered) assert.ok(operators.includes(operator as never), `${kind} offers ${operator}`);
      assert.ok(!operators.includes('contains'), `${kind} has no contains`);
    }
    for (const kind of ['text', 'multiline', 'email', 'phone', 'url', 'user', 'choice'] as ColumnKind[]) {
      const operators = operatorsForKind(kind);
      for (const operator of ordered) assert.ok(!operators.includes(operator as never), `${kind} has no ${operator}`);
      for (const operator of ['equals', 'doesNotEqual', 'empty', 'notEmpty', 'contains', 'doesNotContain']) {
        assert.ok(operators.includes(operator as never), `${kind} offers ${operator}`);
      }
    }
    assert.equal(operatorsForKind('unknown').length, 10);
    assert.equal(operatorsForKind('lookup').length, 10, 'a LookUp compares as the column it shows');
    assert.ok(operatorsForKind('autonumber').includes('greaterThan'));
  });

  it('checks a value against the kind it is compared with', () => {
    assert.equal(filterValueProblem('date', 'lessThan', '2026-01-01'), 'expected a date as DD-MM-YYYY, got 2026-01-01');
    assert.equal(filterValueProblem('date', 'lessThan', '01-01-2026'), undefined);
    assert.match(filterValueProblem('number', 'equals', 'ten') ?? '', /expected a number/);
    assert.match(filterValueProblem('duration', 'greaterThan', '90') ?? '', /hh:mm/);
    assert.equal(filterValueProblem('number', 'contains', '1.'), undefined);
    assert.equal(filterValueProblem('text', 'lessThan', 'anything'), undefined);
    assert.equal(filterValueProblem('currency', 'empty', undefined), undefined);
    assert.match(filterValueProblem('text', 'equals', '') ?? '', /needs a value/);
    assert.match(filterValueProblem('text', 'equals', 'a|b') ?? '', /\|/);
  });

  it('labels all ten operators and knows which need a value', () => {
    assert.equal(Object.keys(FILTER_OPERATOR_LABELS).length, 10);
    assert.equal(FILTER_OPERATOR_LABELS.lessThanOrEqual, 'less than or equal to');
    assert.deepEqual(
      FILTER_OPERATOR_NAMES.filter((operator) => !operatorNeedsValue(operator)),
      ['empty', 'notEmpty'],
    );
  });
});
