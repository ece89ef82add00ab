// "Go to Record…" (palette, and the inline action of a view in the Portal view): a quick pick over the
// view's records by id, title and every text column, matching as the user types, opening the record on
// Enter. The view's rows come from the tree's store (read once, as they arrive); the search runs over a
// RecordIndex (src/catalog/recordIndex.ts) built in slices while the pick is open, so the first matches
// show while the rest is still arriving or being indexed. Our matches are the items (alwaysShow), so the
// quick pick's own filter, which sees only labels, hides none of them.
import * as vscode from 'vscode';
import { kindOfTypeName, type ColumnKind } from '../api/columnKinds';
import { cancelled, isCancellation } from '../api/errors';
import type { RowStore } from '../api/rowStore';
import { RecordFinder, type RecordPickItem, type RecordPickSink } from '../catalog/recordFinder';
import { RecordIndex } from '../catalog/recordIndex';
import { titleColumnOfView } from '../catalog/recordTitles';
import type { Stores } from '../catalog/stores';
import type { StoredView, ViewRows } from '../catalog/viewRows';
import { EXPLORER_COMMANDS } from '../ids';
import type { ExplorerNode } from '../tree/nodes';
import { selectedView } from '../tree/selectedView';
import { openRecord } from '../webviews/openRecord';
import { pickView } from './pickers';
import { describeError } from '../ui/errorBoundary';
import type { CommandTable } from './register';
import { viewTargetOf, type ViewTarget } from '../model/targets';

export type GoToRecordDeps = Pick<Stores, 'portals' | 'catalog' | 'views' | 'rows' | 'titles'> & {
  /** The Portal view, whose selected view Ctrl+F / Cmd+F searches. */
  readonly treeView?: vscode.TreeView<ExplorerNode>;
};

/** Matches shown at once: a screenful and more; typing narrows them. */
const SHOWN = 100;
/** Indexing between two turns of the event loop, in ms: a keystroke waits at most about this long for it. */
const INDEX_SLICE_MS = 10;
/** Column kinds whose text is searched (besides the id and the title). */
const TEXT_KINDS: ReadonlySet<ColumnKind> = new Set(['text', 'multiline', 'email', 'url', 'phone', 'user', 'lookup']);

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
  const pick = vscode.window.createQuickPick<RecordPickItem>();
  pick.title = `Go to Record in ${view.viewName}`;
  pick.matchOnDescription = false;
  pick.matchOnDetail = false;
  pick.busy = true;
  const closed = new AbortController();
  let answered = false;
  const done = new Promise<RecordPickItem | undefined>((resolve) => {
    pick.onDidAccept(() => {
      answered = true;
      resolve(pick.selectedItems[0]);
    });
    pick.onDidHide(() => {
      closed.abort(); // stops the indexing, and this caller's wait for the view
      resolve(undefined);
    });
  });
  let loading = true;
  const refreshedText = `${view.viewName} was refreshed while Go to Record read it: run Go to Record again.`;
  let status = '';
  const say = (text: string): void => {
    if (text === status) return;
    status = text;
    pick.placeholder = `${text}Type a record id, a title or any text of the record`;
  };
  say('');
  // The finder's busy (a search under way) and the view's (rows still arriving) are one spinner.
  const sink: RecordPickSink = {
    get items() {
      return pick.items;
    },
    set items(items) {
      pick.items = items;
    },
    get busy() {
      return pick.busy;
    },
    set busy(searching) {
      pick.busy = searching || loading;
    },
    refreshed() {
      loading = false;
      pick.busy = false;
      pick.placeholder = refreshedText;
    },
  };
  let finder: RecordFinder | undefined;
  pick.onDidChangeValue((value) => finder?.find(value));
  pick.show();

  const read = deps.rows.read(view, closed.signal);
  read.catch(() => undefined); // reported below, once
  let stored: StoredView | undefined;
  let failure: unknown;
  // Not awaited: it only notes the outcome; the loop below looks at these while it indexes what has arrived.
  void read.then(
    (value) => (stored = value),
    (error: unknown) => (failure = error),
  );
  const finderOf = async (rows: RowStore): Promise<RecordFinder> => {
    // Until the metadata arrives (it follows the rows), the app's columns say which keys are text.
    const columns =
      rows.metadata ??
      (await deps.catalog.columns(view.portalId, view.appId, closed.signal)).map((column) => ({
        field_id_in_data: column.field_id_in_data,
        type_name: column.type_name,
        field_name: column.field_name,
        id: column.field_id,
        app_id: column.app_id,
        view_id: view.viewId,
        field_description: '',
      }));
    const title = await titleColumnOfView(deps.catalog, view, deps.titles.get(view), { metadata: columns }, closed.signal);
    const textKeys = columns.filter((entry) => TEXT_KINDS.has(kindOfTypeName(entry.type_name))).map((entry) => entry.field_id_in_data);
    return new RecordFinder(new RecordIndex(rows, { titleKey: title?.field_id_in_data, textKeys }), rows, title, sink, { limit: SHOWN });
  };
  try {
    // Index what has arrived, a few milliseconds at a time (keystrokes are answered between two slices),
    // until the read is over and every row is indexed (or the pick closes); with nothing left to index,
    // wait for more rows rather than look again and again.
    let index: RecordIndex | undefined;
    while (!closed.signal.aborted && !answered) {
      // A refresh ends the read under way as cancelled (the pick itself is still open).
      if (failure !== undefined) throw isCancellation(failure) ? new Error(refreshedText) : failure;
      if (stored?.rows.isReleased) throw new Error(refreshedText);
      const rows = stored?.rows ?? deps.rows.arrivingRows(view);
      if (rows && !rows.isReleased) {
        if (!finder) {
          finder = await finderOf(rows);
          index = finder.index;
          finder.find(pick.value);
        }
        const before = index?.size;
        if (index && !index.upToDate) index.extendFor(INDEX_SLICE_MS);
        if (index?.size !== before) finder.indexed();
        loading = !stored;
        const count = rows.length.toLocaleString('en-US');
        say(
          !stored
            ? `Loading… ${count} rows. `
            : stored.partial
              ? `Partial: ${count} rows were read (${stored.partial.message}). `
              : `${count} records. `,
        );
        if (stored && index?.upToDate) break;
        if (index && !index.upToDate) {
          await new Promise((resolve) => setImmediate(resolve));
          continue;
        }
      }
      await moreRows(deps.rows, view, read, closed.signal);
    }
    loading = false;
    if (!finder?.searching) pick.busy = false;
    const chosen = await done;
    if (!chosen) throw cancelled('Go to Record');
    await openRecord(view.portalId, view.appId, chosen.recordId, chosen.label);
  } catch (error) {
    if (closed.signal.aborted) throw cancelled('Go to Record');
    pick.placeholder = describeError(error);
    throw error;
  } finally {
    closed.abort();
    finder?.stop();
    pick.dispose();
  }
}

/** Until more rows of the view arrive, its read ends, or `signal` aborts. */
function moreRows(rows: ViewRows, view: ViewTarget, read: Promise<unknown>, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      arrived.dispose();
      signal.removeEventListener('abort', done);
      resolve();
    };
    const arrived = rows.onDidArrive((arrival) => {
      if (arrival.portalId === view.portalId && arrival.appId === view.appId && arrival.viewId === view.viewId) done();
    });
    signal.addEventListener('abort', done);
    read.then(done, done);
  });
}
