// Watched views put together: the marks (tree decorations and the Portal view's badge), the reads, and
// what ties them to the tree (a watched view's item says so; selecting a view clears its marks).
import type * as vscode from 'vscode';
import type { Stores } from '../catalog/stores';
import { createLogger } from '../log';
import type { ExplorerTree } from '../tree/explorer';
import type { ExplorerNode } from '../tree/nodes';
import type { LiveRefresh } from '../webhooks/liveRefresh';
import { ChangeMarks } from './changeMarks';
import type { MyRecordsSource } from './ownRecords';
import { watchKey, WatchedViews } from './watchedViews';

export interface WatchedFeatureParts {
  readonly stores: Stores;
  readonly state: vscode.Memento;
  readonly explorer: ExplorerTree;
  readonly explorerView: vscode.TreeView<ExplorerNode>;
  readonly liveRefresh: LiveRefresh;
  readonly myRecords?: MyRecordsSource;
}

export function watchedViewsFeature(parts: WatchedFeatureParts): {
  watched: WatchedViews;
  marks: ChangeMarks;
  disposables: vscode.Disposable[];
} {
  const { stores, explorer, explorerView } = parts;
  const marks = new ChangeMarks(explorerView);
  const watched = new WatchedViews({
    ...stores,
    state: parts.state,
    liveRefresh: parts.liveRefresh,
    marks,
    log: createLogger('watch'),
    ...(parts.myRecords ? { myRecords: parts.myRecords } : {}),
  });
  explorer.setViewNote((node) => (watched.isWatched(node) ? 'watching' : undefined));
  const disposables: vscode.Disposable[] = [
    marks,
    watched,
    watched.onDidChange(() => explorer.redrawViews()),
    explorerView.onDidChangeSelection((event) => {
      for (const node of event.selection) if (node.kind === 'view') marks.clearView(watchKey(node));
    }),
  ];
  return { watched, marks, disposables };
}
