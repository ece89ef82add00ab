// The panel commands: "Create Record…" (an app), "Query View…" (a view), "Run Saved Query" and "Delete
// Saved Query". From the tree they get their target as an argument (panelTargets.ts); from the palette
// they ask for it.
import * as vscode from 'vscode';
import type { Portals } from '../auth/portals';
import { cancelled } from '../auth/signInUi';
import { prompter } from '../ui/prompter';
import { RecordFormPanel } from '../webviews/recordFormPanel';
import type { SavedQueryEntry, SavedQueryStore } from '../webviews/savedQueries';
import { ViewQueryPanel } from '../webviews/viewQueryPanel';
import { appTargetOf, pickApp, pickView, savedQueryTargetOf, viewTargetOf, type SavedQueryTarget, type ViewTarget } from './panelTargets';
import { registerCommand } from './register';

export const PANEL_COMMANDS = {
  createRecord: 'portal.createRecord',
  queryView: 'portal.queryView',
  runSavedQuery: 'portal.runSavedQuery',
  deleteSavedQuery: 'portal.deleteSavedQuery',
} as const;

export interface PanelCommandDeps {
  portals: Portals;
  savedQueries: SavedQueryStore;
  extensionUri: vscode.Uri;
}

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
    description: `view ${entry.viewId} of app ${entry.appId} · ${deps.portals.get(entry.portalId)?.label ?? entry.portalId}`,
    detail: `${entry.query.filters.length} filter${entry.query.filters.length === 1 ? '' : 's'}`,
  }));
  const chosen = await prompter().quickPick(items, { placeHolder: `${title}: which query?`, matchOnDescription: true });
  if (!chosen) throw cancelled(title);
  const { portalId, appId, viewId, query } = chosen.entry;
  return { portalId, appId, viewId, queryName: query.name };
}

export function registerPanelCommands(deps: PanelCommandDeps): vscode.Disposable {
  return vscode.Disposable.from(
    registerCommand(PANEL_COMMANDS.createRecord, async (arg) => {
      const target = appTargetOf(arg) ?? (await pickApp(deps.portals, 'Create Record'));
      RecordFormPanel.show(deps, target);
    }),
    registerCommand(PANEL_COMMANDS.queryView, async (arg) => {
      const target: ViewTarget = viewTargetOf(arg) ?? (await pickView(deps.portals, 'Query View'));
      ViewQueryPanel.show(deps, target);
    }),
    registerCommand(PANEL_COMMANDS.runSavedQuery, async (arg) => {
      const target = await savedQueryTarget(deps, arg, 'Run Saved Query');
      const query = deps.savedQueries.get(target, target.queryName);
      if (!query) throw new Error(`There is no saved query "${target.queryName}" for view ${target.viewId} of app ${target.appId}.`);
      ViewQueryPanel.show(deps, target, query);
    }),
    registerCommand(PANEL_COMMANDS.deleteSavedQuery, async (arg) => {
      const target = await savedQueryTarget(deps, arg, 'Delete Saved Query');
      const answer = await prompter().warn(`Delete the saved query "${target.queryName}"?`, { modal: true }, 'Delete');
      if (answer !== 'Delete') throw cancelled('Deleting the saved query');
      await deps.savedQueries.delete(target, target.queryName);
    }),
  );
}
