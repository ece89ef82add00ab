// A grid's save with VS Code's progress (Cancel): the changed rows sent through saveChanges (as many at
// once as the portal's limiter allows, conflicts held back, checked with one read of the grid's view when many changed), then
// the model told what happened (a saved row takes the portal's copy it was checked against plus what was
// sent), and the records saved and created named for the grid and the open documents.
import * as vscode from 'vscode';
import type { GridModel, SaveSummary } from '../model/gridModel';
import { savingOn, type SavePortal } from '../model/saveRunner';

export interface GridSaved {
  readonly summary: SaveSummary;
  /** The records updated. */
  readonly savedIds: readonly string[];
  /** The records created from new rows. */
  readonly createdIds: readonly string[];
}

/** Saves the model's pending rows to the portal; `what` names the grid in the progress ("of All orders"). */
export async function saveGrid(model: GridModel, portal: SavePortal, what: string, token: vscode.CancellationToken): Promise<GridSaved> {
  // The rows this save sends: a row an invalid cell blocks is not among them.
  const pending = model.savableCount();
  const { store, options } = savingOn(portal, model.rowCount);
  const report = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `Saving ${pending} changed row${pending === 1 ? '' : 's'} ${what}`,
      cancellable: true,
    },
    async (progress, progressToken) => {
      const abort = new AbortController();
      const cancel = (): void => abort.abort(new vscode.CancellationError());
      const onSaveCancelled = token.onCancellationRequested(cancel);
      const onProgressCancelled = progressToken.onCancellationRequested(cancel);
      let reported = 0;
      try {
        return await model.send(store, {
          ...options,
          signal: abort.signal,
          onProgress: (step) => {
            const increment = ((step.done - reported) / Math.max(1, step.total)) * 100;
            reported = step.done;
            const rowsRead = step.viewRowsRead ? `: ${step.viewRowsRead.toLocaleString('en-US')} rows read` : '';
            const reading = step.viewRowsRead === undefined ? '' : ` · reading the view to check the rows against the portal${rowsRead}`;
            progress.report({ increment, message: `${step.done} of ${step.total}${reading}` });
          },
        });
      } finally {
        onSaveCancelled.dispose();
        onProgressCancelled.dispose();
      }
    },
  );
  const summary = model.afterSave(report);
  const savedIds = report.outcomes.flatMap((outcome) => (outcome.kind === 'saved' ? [outcome.recordId] : []));
  const createdIds = report.outcomes.flatMap((outcome) => (outcome.kind === 'created' ? [outcome.created] : []));
  return { summary, savedIds, createdIds };
}
