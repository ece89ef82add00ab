// The panel commands: "Create Record…" (an app), "Query View…" (a view), "Run Saved Query" and "Delete
// Saved Query". From the tree they get their target as an argument (panelTargets.ts); from the palette
// they ask for it.
import { cancelled } from '../api/errors';
import * as vscode from 'vscode';
import type { SavedQueryEntry } from '../catalog/savedQueries';
import type { Stores } from '../catalog/stores';
import { BOARD_VIEW_TYPE, GRID_VIEW_TYPE, PANEL_COMMANDS } from '../ids';
import { viewOfUri } from '../model/recordAddress';
import { viewGridUri } from '../model/recordUri';
import { appTargetOf, recordTargetOf, viewTargetOf } from '../model/targets';
import { prompter } from '../ui/prompter';
import { RecordFormPanel } from '../webviews/recordFormPanel';
import { ViewQueryPanel } from '../webviews/viewQueryPanel';
import { savedQueryTargetOf, type AppTarget, type SavedQueryTarget, type ViewTarget } from './panelTargets';
import { pickApp, pickView } from './pickers';
import type { CommandTable } from './register';

export type PanelCommandDeps = Pick<
  Stores,
  'portals' | 'catalog' | 'views' | 'recordEvents' | 'savedQueries' | 'viewReads' | 'versions'
> & {
  readonly extensionUri: vscode.Uri;
  /** Shows a record's row in the open grids of the view at `uri` (the grid editor's). */
  readonly revealInGrid: (uri: vscode.Uri, recordId: string) => void;
};

interface SavedItem extends vscode.QuickPickItem {
  entry: SavedQueryEntry;
}

/** The saved query named by the argument, or the one the user picks among all. */
async function savedQueryTarget(deps: PanelCommandDeps, arg: unknown, title: string): Promise<SavedQueryTarget> {
  const named = savedQueryTargetOf(arg);
  if (named) return named;
  const all = deps.savedQueries.listAll();
  if (all.length === 0) throw new Error('No query is saved yet: build one in "Portal: Query View…" and choose "Save query…".');
  const items: SavedItem[] = all.map((entry) => ({
    entry,
    label: entry.query.name,
    description: `${deps.views.get(entry.portalId, entry.appId, entry.viewId)?.name ?? `view ${entry.viewId}`} of app ${entry.appId} · ${deps.portals.get(entry.portalId)?.label ?? entry.portalId}`,
    detail: `${entry.query.filters.length} filter${entry.query.filters.length === 1 ? '' : 's'}`,
  }));
  const chosen = await prompter().quickPick(items, { placeHolder: `${title}: which query?`, matchOnDescription: true });
  if (!chosen) throw cancelled(title);
  const { portalId, appId, viewId, query } = chosen.entry;
  const viewName = deps.views.get(portalId, appId, viewId)?.name;
  return { portalId, appId, viewId, ...(viewName ? { viewName } : {}), queryName: query.name };
}

/** The app's name from the catalog (kept, so usually no request); undefined when it cannot be read now. */
async function appName(deps: PanelCommandDeps, target: AppTarget): Promise<string | undefined> {
  return (await deps.catalog.app(target.portalId, target.appId).catch(() => undefined))?.name;
}

/** The view with its name: as given, or as the user added it to the tree. */
function named(deps: PanelCommandDeps, target: ViewTarget): ViewTarget {
  if (target.viewName) return target;
  const viewName = deps.views.get(target.portalId, target.appId, target.viewId)?.name;
  return viewName ? { ...target, viewName } : target;
}

/** The address of the view's grid (or board) open in a tab already (its names may differ from today's), if any. */
function openGridUri(view: ViewTarget, viewType = GRID_VIEW_TYPE): vscode.Uri | undefined {
  for (const tab of vscode.window.tabGroups.all.flatMap((group) => group.tabs)) {
    if (!(tab.input instanceof vscode.TabInputCustom) || tab.input.viewType !== viewType) continue;
    const open = viewOfUri(tab.input.uri);
    if (open && open.portalId === view.portalId && open.appId === view.appId && open.viewId === view.viewId) return tab.input.uri;
  }
  return undefined;
}

export function panelCommands(deps: PanelCommandDeps): CommandTable {
  return {
    [PANEL_COMMANDS.createRecord]: async (arg) => {
      const target = appTargetOf(arg) ?? (await pickApp(deps.portals, deps.catalog, { title: 'Create Record' }));
      if (!target) throw cancelled('Create Record');
      RecordFormPanel.show(deps, target, await appName(deps, target));
    },
    [PANEL_COMMANDS.queryView]: async (arg) => {
      const target = viewTargetOf(arg) ?? (await pickView(deps.portals, deps.catalog, deps.views, { title: 'Query View' }));
      if (!target) throw cancelled('Query View');
      ViewQueryPanel.show(deps, named(deps, target), { appName: await appName(deps, target) });
    },
    [PANEL_COMMANDS.openViewAsGrid]: async (arg) => {
      const target = viewTargetOf(arg) ?? (await pickView(deps.portals, deps.catalog, deps.views, { title: 'Open View as Grid' }));
      if (!target) throw cancelled('Open View as Grid');
      const view = named(deps, target);
      const uri = openGridUri(view) ?? viewGridUri(view, { appName: await appName(deps, target) });
      await vscode.commands.executeCommand('vscode.openWith', uri, GRID_VIEW_TYPE);
      // A record named too (a reference's hover): its row is the one shown.
      const record = recordTargetOf(arg);
      if (record) deps.revealInGrid(uri, record.recordId);
    },
    [PANEL_COMMANDS.openViewAsBoard]: async (arg) => {
      const target = viewTargetOf(arg) ?? (await pickView(deps.portals, deps.catalog, deps.views, { title: 'Open View as Board' }));
      if (!target) throw cancelled('Open View as Board');
      const view = named(deps, target);
      // The board's address is the grid's: the same view, drawn as cards by the other editor.
      const uri = openGridUri(view, BOARD_VIEW_TYPE) ?? viewGridUri(view, { appName: await appName(deps, target) });
      await vscode.commands.executeCommand('vscode.openWith', uri, BOARD_VIEW_TYPE);
    },
    [PANEL_COMMANDS.runSavedQuery]: async (arg) => {
      const target = await savedQueryTarget(deps, arg, 'Run Saved Query');
      const query = deps.savedQueries.get(target, target.queryName);
      if (!query) throw new Error(`There is no saved query "${target.queryName}" for view ${target.viewId} of app ${target.appId}.`);
      ViewQueryPanel.show(deps, named(deps, target), { appName: await appName(deps, target), run: query });
    },
    [PANEL_COMMANDS.deleteSavedQuery]: async (arg) => {
      const target = await savedQueryTarget(deps, arg, 'Delete Saved Query');
      if (deps.savedQueries.listMarked(target).some((entry) => entry.shared && entry.query.name === target.queryName)) {
        throw new Error(
          `The saved query "${target.queryName}" is shared with the workspace: remove it from .vscode/portal.json to remove it for the team.`,
        );
      }
      const answer = await prompter().warn(`Delete the saved query "${target.queryName}"?`, { modal: true }, 'Delete');
      if (answer !== 'Delete') throw cancelled('Deleting the saved query');
      await deps.savedQueries.delete(target, target.queryName);
    },
  };
}
