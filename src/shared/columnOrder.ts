// The one order of an app's columns, used by the host (catalog, Query View filters) and the panels (the
// record form). Pure: no vscode, no node, no DOM.
import type { Column } from '../api/types';

/**
 * Columns in position order. A position that is empty or not a number goes last: the portal leaves it
 * empty on columns it has not placed yet, and reading '' as 0 would put them first, while NaN in a
 * comparison leaves the order to the sort's whims. Ties (and the unplaced) keep the portal's order.
 */
export function byPosition(columns: readonly Column[]): Column[] {
  const rank = (column: Column): number => {
    const position = column.position.trim() === '' ? Number.NaN : Number(column.position);
    return Number.isFinite(position) ? position : Number.POSITIVE_INFINITY;
  };
  return columns
    .map((column, index) => ({ column, index, rank: rank(column) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((entry) => entry.column);
}
