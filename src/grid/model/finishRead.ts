// The end of a read of the grid's rows, without `vscode`: pending rows the read left out go after the view's
// rows, and the page is told; then the columns become the metadata's (which may mean looking up the Lookup
// apps' columns over the network).
import type { GridModel } from './gridModel';

export interface ReadEndSteps {
  /** Rows appended at the end (the page appends them too). */
  appended(recordIds: readonly string[]): void;
  /** The page starts over with the grid as it is now. */
  startOver(): void;
  /** The columns as the metadata says: true when they changed (the page must start over), undefined when the grid was read again meanwhile. */
  columnsChanged(): Promise<boolean | undefined>;
}

/**
 * The page is told in the same turn as the rows move: it names rows by position (a paste, a fill, a clear),
 * so a block sent while the columns are looked up must not be planned against an order the page has not
 * seen. Returns false when the grid was read again while the columns were looked up.
 */
export async function finishRead(model: GridModel, steps: ReadEndSteps): Promise<boolean> {
  const finished = model.finishRows();
  if (finished === 'reordered') steps.startOver();
  else if (finished.length > 0) steps.appended(finished);
  const changed = await steps.columnsChanged();
  if (changed === undefined) return false;
  if (changed) steps.startOver();
  return true;
}
