// Every filter operator on every kind it applies to, against the emulator: for each column of the test
// views and each operator operatorsForKind() offers, the rows the portal returns must be exactly the rows of
// the unfiltered view that satisfy the operator as the emulator's README defines it (ordered kinds by value,
// the rest as case-insensitive text; contains is a substring test).
import * as assert from 'node:assert/strict';
import type { PortalClient, ViewRead } from '../../../src/api/client';
import { kindOfTypeName, type ColumnKind } from '../../../src/api/columnKinds';
import { PortalError } from '../../../src/api/errors';
import { FILTER_OPERATOR_LABELS, operatorNeedsValue, operatorsForKind, type ViewFilter } from '../../../src/api/filters';
import { parseDate, parseDateTime, parseDuration, parseNumber } from '../../../src/api/formats';
import type { Column, FilterOperatorName } from '../../../src/api/types';
import { clientFor, rejectsWith, startPortal, type Emulator } from './portal';

type Key = (value: string) => number | undefined;

function keyOf(kind: ColumnKind): Key | undefined {
  switch (kind) {
    case 'number':
    case 'currency':
    case 'autonumber':
      return parseNumber;
    case 'date':
      return (value) => {
        const date = parseDate(value);
        return date && date.year * 10000 + date.month * 100 + date.day;
      };
    case 'datetime':
      return (value) => parseDateTime(value)?.getTime();
    case 'duration':
      return parseDuration;
    default:
      return undefined;
  }
}

function ordered<T extends number | string>(operator: FilterOperatorName, a: T, b: T): boolean {
  switch (operator) {
    case 'lessThan':
      return a < b;
    case 'lessThanOrEqual':
      return a <= b;
    case 'greaterThan':
      return a > b;
    default:
      return a >= b;
  }
}

/** Whether a cell satisfies the filter, by the README's rules. */
function satisfies(kind: ColumnKind, operator: FilterOperatorName, cell: string, value: string): boolean {
  const key = keyOf(kind);
  const lower = value.toLowerCase();
  switch (operator) {
    case 'contains':
      return cell.toLowerCase().includes(lower);
    case 'doesNotContain':
      return !cell.toLowerCase().includes(lower);
    case 'empty':
      return cell === '';
    case 'notEmpty':
      return cell !== '';
    case 'equals':
    case 'doesNotEqual': {
      const equal = key ? key(cell) === key(value) : cell.toLowerCase() === lower;
      return operator === 'equals' ? equal : !equal;
    }
    default: {
      if (!key) return cell !== '' && ordered(operator, cell.toLowerCase(), lower);
      const cellKey = key(cell);
      const bound = key(value);
      return cellKey !== undefined && bound !== undefined && ordered(operator, cellKey, bound);
    }
  }
}

/** A value to compare with: the median of the column's values (a piece of it for substring tests). */
function valueFor(operator: FilterOperatorName, cells: string[]): string | undefined {
  const values = [...new Set(cells.filter((cell) => cell !== ''))].sort();
  if (values.length === 0) return undefined;
  const median = values[Math.floor(values.length / 2)];
  if (operator !== 'contains' && operator !== 'doesNotContain') return median;
  const piece = median.length > 4 ? median.slice(1, 4) : median;
  return piece.toUpperCase(); // case-insensitive
}

const VIEWS: Array<{ app: string; view: string }> = [
  { app: '101', view: '1' }, // Customers: all own columns
  { app: '102', view: '3' }, // Orders: numbers, amounts, date-times, multi-select, LookUp columns
  { app: '102', view: '5' }, // Orders with columns of the Lookup app Customers (l<N>)
  { app: '202', view: '9' }, // Knowledge base
  { app: '201', view: '6' }, // Tickets (generated)
];

describe('view filters against the emulator', function () {
  let emulator: Emulator;
  let client: PortalClient;
  const columnsById = new Map<string, Column>();

  before(async () => {
    emulator = await startPortal();
    ({ client } = clientFor(emulator));
    for (const appId of ['101', '102', '201', '202'])
      for (const column of await client.listColumns(appId)) columnsById.set(column.field_id, column);
  });
  after(() => emulator.close());

  /** The kind a column compares as: a LookUp compares as the column it shows. */
  function comparedKind(fieldId: string, typeName: string): ColumnKind {
    let column = columnsById.get(fieldId);
    let kind = column ? kindOfTypeName(column.type_name, column.type) : kindOfTypeName(typeName);
    for (let depth = 0; kind === 'lookup' && column && depth < 5; depth += 1) {
      column = columnsById.get(String(column.lookup_field_id));
      if (column) kind = kindOfTypeName(column.type_name, column.type);
    }
    return kind;
  }

  const covered = new Map<ColumnKind, Set<FilterOperatorName>>();

  for (const { app, view } of VIEWS) {
    it(`app ${app} view ${view}: every operator on every column returns exactly the matching rows`, async () => {
      const all: ViewRead = await client.readView(app, view);
      assert.ok(all.rows.length >= 6, 'enough rows to compare');
      let checked = 0;
      for (const entry of all.metadata) {
        const ownKind = kindOfTypeName(entry.type_name);
        const kind = comparedKind(entry.id, entry.type_name);
        const lookupApp = entry.app_id === app ? undefined : entry.app_id;
        const cells = all.rows.map((row) => row.values[entry.field_id_in_data]);
        for (const operator of operatorsForKind(ownKind)) {
          const value = operatorNeedsValue(operator) ? valueFor(operator, cells) : undefined;
          if (operatorNeedsValue(operator) && value === undefined) continue;
          const filter: ViewFilter = { column: entry.id, operator, value, lookupApp };
          const filtered = await client.readView(app, view, [filter]);
          const expected = all.rows
            .filter((row) => satisfies(kind, operator, row.values[entry.field_id_in_data], value ?? ''))
            .map((row) => row.id);
          const label = `${entry.field_id_in_data} (${entry.type_name}) ${FILTER_OPERATOR_LABELS[operator]} ${JSON.stringify(value ?? '')}`;
          assert.deepEqual(
            filtered.rows.map((row) => row.id),
            expected,
            label,
          );
          if (!covered.has(ownKind)) covered.set(ownKind, new Set());
          covered.get(ownKind)?.add(operator);
          checked += 1;
        }
      }
      assert.ok(checked > 20, `${checked} filters checked`);
    });
  }

  it('covered every operator of every filterable kind', () => {
    const kinds: ColumnKind[] = [
      'text',
      'multiline',
      'email',
      'phone',
      'url',
      'number',
      'currency',
      'date',
      'datetime',
      'duration',
      'choice',
      'user',
      'autonumber',
      'lookup',
    ];
    for (const kind of kinds) assert.deepEqual([...(covered.get(kind) ?? [])].sort(), operatorsForKind(kind).sort(), kind);
  });

  it('combines several filters (all must hold)', async () => {
    const filters: ViewFilter[] = [
      { column: '17', operator: 'greaterThanOrEqual', value: '100' },
      { column: '20', operator: 'contains', value: '1' },
      { column: '3', operator: 'contains', value: 'example.com', lookupApp: '101' },
    ];
    const all = await client.readView('102', '5');
    const filtered = await client.readView('102', '5', filters);
    const expected = all.rows.filter((row) => Number(row.values.f17) >= 100 && row.values.l3?.includes('example.com')).map((row) => row.id);
    const tags = new Map((await client.readView('102', '3')).rows.map((row) => [row.id, row.values.f20]));
    assert.deepEqual(
      filtered.rows.map((row) => row.id),
      expected.filter((id) => tags.get(id)?.includes('1')),
    );
    assert.ok(filtered.rows.length > 0 && filtered.rows.length < all.rows.length);
  });

  it('refuses locally what cannot be encoded, sending nothing', async () => {
    const { client: counted, requests } = clientFor(emulator);
    const error = await rejectsWith(counted.readView('101', '1', [{ column: '2', operator: 'equals', value: 'A|B' }]), {
      kind: 'invalid-input',
      code: 'invalid_filter',
    });
    assert.match(error.message, /"\|"/);
    assert.equal(requests.length, 0);
  });

  it("reports the portal's refusal of a filter it cannot apply", async () => {
    const error = await rejectsWith(client.readView('102', '5', [{ column: '3', operator: 'equals', value: 'x' }]), {
      kind: 'http',
      status: 400,
      code: 'invalid_filter',
    });
    assert.match(error.portalMessage ?? '', /filter_apps/);
    assert.ok(error instanceof PortalError);
    await rejectsWith(client.readView('102', '3', [{ column: '15', operator: 'lessThan', value: '2026-01-01' }]), {
      status: 400,
      code: 'invalid_filter',
    });
  });
});
