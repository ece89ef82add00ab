// The Query View's filter builder with Add filter and Run, as the grid and the board show it above a view:
// Run hands the valid filters on, or says which need attention. `prefix` keeps each panel's element ids.
import { button } from '../components/button';
import { el } from '../components/dom';
import type { ViewFilter } from '../../src/api/filters';
import { FilterBuilder } from './filterRows';

export interface FilterBarOptions {
  readonly prefix: 'grid' | 'board';
  /** The Run button's tooltip. */
  readonly runTitle: string;
  /** Some filters are not valid: the panel says so. */
  readonly invalid: () => void;
  readonly run: (filters: ViewFilter[]) => void;
}

export function filterBar({ prefix, runTitle, invalid, run }: FilterBarOptions): { element: HTMLElement; builder: FilterBuilder } {
  const builder = new FilterBuilder(() => undefined);
  const runFilters = (): void => {
    const filters = builder.validFilters();
    if (!filters) return invalid();
    run(filters);
  };
  const element = el(
    'section',
    { className: `${prefix}-filters`, attrs: { 'aria-label': 'Filters of the view' } },
    builder.element,
    el(
      'div',
      { className: `${prefix}-filter-actions` },
      button('Add filter', { id: `${prefix}-add-filter`, onClick: () => builder.add() }),
      button('Run', { id: `${prefix}-run`, title: runTitle, onClick: runFilters }),
    ),
  );
  return { element, builder };
}
