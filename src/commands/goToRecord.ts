// "Go to Record…" (palette, and the inline action of a view in the Portal view): a quick pick over the
// view's records by id, title and every text column, matching as the user types, opening the record on
// Enter. The view's rows come from the tree's store (read once, as they arrive); the search runs over a
// RecordIndex (src/catalog/recordIndex.ts) built in slices while the pick is open, so the first matches
// show while the rest is still arriving or being indexed. Our matches are the items (alwaysShow), so the
// quick pick's own filter, which sees only labels, hides none of them.
import * as vscode from 'vscode';
import { kindOfTypeName, type ColumnKind } from '../api/columnKinds';
import type { RowStore } from '../api/rowStore';
import type { Portals } from '../auth/portals';
import { cancelled } from '../auth/signInUi';
import type { Catalog } from '../catalog/catalog';
import { RecordIndex } from '../catalog/recordIndex';
import { titleColumnOfView } from '../catalog/recordTitles';
import { recordTitle } from '../catalog/titleField';
import type { TitleFields } from '../catalog/titleFields';
import type { StoredView, ViewRows } from '../catalog/viewRows';
import type { ViewStore } from '../catalog/views';
import { EXPLORER_COMMANDS } from '../ids';
import type { ExplorerNode } from '../tree/nodes';
import { selectedView } from '../tree/selectedView';
import { openRecord } from '../webviews/openRecord';
import { pickView } from './pickers';
import { describeError } from '../ui/errorBoundary';
import type { CommandTable } from './register';
import { viewTargetOf, type ViewTarget } from '../model/targets';

export interface GoToRecordDeps {
  /** The Portal view, whose selected view Ctrl+F / Cmd+F searches. */
  readonly treeView?: vscode.TreeView<ExplorerNode>;
  readonly portals: Portals;
  readonly catalog: Catalog;
  readonly views: ViewStore;
  readonly rows: ViewRows;
  readonly titles: TitleFields;
}

/** Matches shown at once: a screenful and more; typing narrows them. */
const SHOWN = 100;
/** Rows indexed between two looks at the event loop (~20 ms of work). */
const INDEX_SLICE = 10_000;
/** Column kinds whose text is searched (besides the id and the title). */
const TEXT_KINDS: ReadonlySet<ColumnKind> = new Set(['text', 'multiline', 'email', 'url', 'phone', 'user', 'lookup']);

interface RecordItem extends vscode.QuickPickItem {
  recordId: string;
}

export function goToRecordCommands(deps: GoToRecordDeps): CommandTable {
  return {
    [EXPLORER_COMMANDS.goToRecord]: async (arg) => {
      const given = viewTargetOf(arg);
      const target = given ?? (await pickView(deps.portals, deps.catalog, deps.views, { title: 'Go to Record' }));
      if (!target) throw cancelled('Go to Record');
      const viewName = target.viewName ?? deps.views.get(target.portalId, target.appId, target.viewId)?.name ?? `View ${target.viewId}`;
      await goToRecord(deps, { ...target, viewName });
    },
    [EXPLORER_COMMANDS.findRecordInSelectedView]: async () => {
      const view = deps.treeView ? selectedView(deps.treeView) : undefined;
      // Nothing of a view selected: the tree's own find, as Ctrl+Alt+F opens it.
      if (!view) await vscode.commands.executeCommand('list.find');
      else await goToRecord(deps, view);
    },
  };
}

async function goToRecord(deps: GoToRecordDeps, view: ViewTarget & { viewName: string }): Promise<void> {
  const pick = vscode.window.createQuickPick<RecordItem>();
  pick.title = `Go to Record in ${view.viewName}`;
  pick.placeholder = 'Type a record id, a title or any text of the record';
  pick.matchOnDescription = false;
  pick.matchOnDetail = false;
  pick.busy = true;
  const closed = new AbortController();
  let answered = false;
  const done = new Promise<RecordItem | undefined>((resolve) => {
    pick.onDidAccept(() => {
      answered = true;
      resolve(pick.selectedItems[0]);
    });
    pick.onDidHide(() => {
      closed.abort(); // stops the indexing, and this caller's wait for the view
      resolve(undefined);
    });
  });
  let index: RecordIndex | undefined;
  let title: Parameters<typeof recordTitle>[2];
  let status = 'Loading…';
  const show = (rows: RowStore | undefined): void => {
    if (!index || !rows || rows.isReleased) return;
    pick.items = index.search(pick.value, SHOWN).map((row): RecordItem => {
      const record = rows.row(row);
      const id = record.id ?? '';
      return { label: recordTitle(id, record.values, title), description: `#${id}${record.draft ? ' · Draft' : ''}`, alwaysShow: true, recordId: id };
    });
    pick.placeholder = `${status} Type a record id, a title or any text of the record`;
  };
  pick.onDidChangeValue(() => show(current));
  pick.show();

  let current: RowStore | undefined;
  const read = deps.rows.read(view, closed.signal);
  read.catch(() => undefined); // reported below, once
  let stored: StoredView | undefined;
  let failure: unknown;
  // Not awaited: it only notes the outcome; the loop below polls these while it indexes what has arrived.
  void read.then(
    (value) => (stored = value),
    (error: unknown) => (failure = error),
  );
  const metadataOf = async (rows: RowStore): Promise<void> => {
    if (index) return;
    // Until the metadata arrives (it follows the rows), the app's columns say which keys are text.
    const columns = rows.metadata ?? (await deps.catalog.columns(view.portalId, view.appId, closed.signal)).map((column) => ({ field_id_in_data: column.field_id_in_data, type_name: column.type_name, field_name: column.field_name, id: column.field_id, app_id: column.app_id, view_id: view.viewId, field_description: '' }));
    title = await titleColumnOfView(deps.catalog, view, deps.titles.get(view), { metadata: columns }, closed.signal);
    const textKeys = columns.filter((entry) => TEXT_KINDS.has(kindOfTypeName(entry.type_name))).map((entry) => entry.field_id_in_data);
    index = new RecordIndex(rows, { titleKey: title?.field_id_in_data, textKeys });
  };
  try {
    // Index what has arrived, in slices, until the read is over and every row is indexed (or the pick closes).
    while (!closed.signal.aborted && !answered) {
      const rows = stored?.rows ?? deps.rows.arrivingRows(view);
      if (failure !== undefined) throw failure;
      if (stored?.rows.isReleased) throw new Error(`${view.viewName} was refreshed while Go to Record read it: run Go to Record again.`);
      if (rows && !rows.isReleased) {
        current = rows;
        await metadataOf(rows);
        index?.extend(INDEX_SLICE);
        const count = rows.length.toLocaleString('en-US');
        status = !stored ? `Loading… ${count} rows.` : stored.partial ? `Partial: ${count} rows were read (${stored.partial.message}).` : `${count} records.`;
        show(rows);
        if (stored && index?.upToDate) break;
      }
      await new Promise((resolve) => setTimeout(resolve, rows ? 0 : 50));
    }
    pick.busy = false;
    const chosen = await done;
    if (!chosen) throw cancelled('Go to Record');
    await openRecord(view.portalId, view.appId, chosen.recordId);
  } catch (error) {
    if (closed.signal.aborted) throw cancelled('Go to Record');
    pick.placeholder = describeError(error);
    throw error;
  } finally {
    closed.abort();
    pick.dispose();
  }
}
