// A grid's save with VS Code's progress (Cancel): the changed rows sent through saveChanges (a bounded
// number at once, conflicts held back, checked with one read of the grid's view when many changed), the
// conflict check's reads of the portal's copies kept (a saved row takes the portal's copy plus what was
// sent), and the records created noted.
import * as vscode from 'vscode';
import type { PortalClient } from '../../api/client';
import type { ViewFilter } from '../../api/filters';
import type { RecordData } from '../../api/types';
import type { GridModel, SaveSummary } from '../../grid/gridModel';
import { portalRecordStore, type RecordStore } from '../../grid/recordStore';
import { saveChanges } from '../../grid/saveRunner';
import { CHECK_BATCHES, readViewCopies, type ViewCheckSource } from '../../grid/viewCheck';

/** Rows saved at once: the portal is a shared server, and one slow row must not hold the others. */
const SAVE_CONCURRENCY = 4;

export interface GridSaved {
  readonly summary: SaveSummary;
  /** The portal's copies the conflict check read, by record id. */
  readonly current: ReadonlyMap<string, RecordData>;
  /** The records created from new rows. */
  readonly createdIds: readonly string[];
}

/** The grid's view on its portal, as the grid shows it (its filters); `drafts`: new rows are created as drafts. */
export interface GridPortal {
  readonly client: PortalClient;
  readonly appId: string;
  readonly viewId: string;
  readonly filters: readonly ViewFilter[];
  readonly drafts: boolean;
}

/** Saves the model's pending rows to the portal; `what` names the grid in the progress ("of All orders"). */
export async function saveGrid(model: GridModel, portal: GridPortal, what: string, token: vscode.CancellationToken): Promise<GridSaved> {
    // The rows this save sends: a row an invalid cell blocks is not among them.
    const pending = model.changeSet.savableRows().length;
    const current = new Map<string, RecordData>();
    const createdIds: string[] = [];
    const portalStore = portalRecordStore(portal.client, portal.appId, { draft: portal.drafts });
    const filters = [...portal.filters];
    // The view's answer is kept as the GET's is (a later GET of a row, after an uncertain failure, replaces it).
    const viewCheck: ViewCheckSource = {
      viewRows: model.rowCount,
      roundTripMs: () => portal.client.roundTripMs,
      read: async (wanted, signal, onRows, onCopy) => {
        const copies = await readViewCopies(portal.client, { appId: portal.appId, viewId: portal.viewId, filters }, wanted, signal, onRows, { onCopy, batches: CHECK_BATCHES });
        for (const [recordId, copy] of copies) current.set(recordId, copy);
        return copies;
      },
    };
    // The check's read is kept: a saved row takes the portal's copy plus what was sent.
    const store: RecordStore = {
      readCurrent: async (recordId, signal) => {
        const copy = await portalStore.readCurrent(recordId, signal);
        if (copy) current.set(recordId, copy);
        return copy;
      },
      update: (recordId, fields, signal) => portalStore.update(recordId, fields, signal),
      create: async (fields, signal) => {
        const created = await portalStore.create(fields, signal);
        createdIds.push(created.recordId);
        return created;
      },
    };
    const summary = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Saving ${pending} changed row${pending === 1 ? '' : 's'} ${what}`, cancellable: true },
      async (progress, progressToken) => {
        const abort = new AbortController();
        const cancel = (): void => abort.abort(new vscode.CancellationError());
        const onSaveCancelled = token.onCancellationRequested(cancel);
        const onProgressCancelled = progressToken.onCancellationRequested(cancel);
        let reported = 0;
        try {
          const report = await saveChanges(model.changeSet, store, {
            concurrency: SAVE_CONCURRENCY,
            signal: abort.signal,
            viewCheck,
            onProgress: (step) => {
              const increment = ((step.done - reported) / Math.max(1, step.total)) * 100;
              reported = step.done;
              const rowsRead = step.viewRowsRead ? `: ${step.viewRowsRead.toLocaleString('en-US')} rows read` : '';
              const reading = step.viewRowsRead === undefined ? '' : ` · reading the view to check the rows against the portal${rowsRead}`;
              progress.report({ increment, message: `${step.done} of ${step.total}${reading}` });
            },
          });
          return model.afterSave(report, current);
        } finally {
          onSaveCancelled.dispose();
          onProgressCancelled.dispose();
        }
      },
    );
    return { summary, current, createdIds };
}
