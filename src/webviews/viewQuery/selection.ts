// The records of the rows selected in the Query View: the page sends their positions in the order it shows
// (ranges: a selection of 100,000 rows is two numbers, and the page holds only the rows in sight), and the
// host, which holds the whole result in that same order, reads their record ids here.
import type { ViewRow } from '../../api/answers';

export interface RowRange {
  start: number;
  end: number;
}

/** Record ids of the rows at `ranges` (display positions; `order` maps them to stored rows), each once, in display order. */
export function selectedRecordIds(
  rows: { readonly length: number; row(index: number): ViewRow },
  order: Uint32Array | undefined,
  ranges: readonly RowRange[],
): string[] {
  const ids = new Set<string>();
  for (const { start, end } of ranges) {
    for (let position = Math.max(0, start); position < Math.min(end, rows.length); position += 1) {
      const id = rows.row(order ? order[position] : position).id;
      if (id !== undefined && id !== '') ids.add(id);
    }
  }
  return [...ids];
}
