// Watch View and Stop Watching: from a view's (or My Records') item in the Portal view, another command's
// view target, or the palette (then a view is picked: any view to watch, a watched one to stop).
import type { Stores } from '../catalog/stores';
import { WATCH_COMMANDS } from '../ids';
import { viewTargetOf, type ViewTarget } from '../model/targets';
import { prompter } from '../ui/prompter';
import type { WatchedViews } from '../watched/watchedViews';
import { pickView } from './pickers';
import type { CommandTable } from './register';

export type WatchCommandParts = Pick<Stores, 'portals' | 'catalog' | 'views'> & { readonly watched: WatchedViews };

const named = (view: ViewTarget): string => view.viewName ?? `view ${view.viewId}`;

export function watchCommands(parts: WatchCommandParts): CommandTable {
  return {
    [WATCH_COMMANDS.watchView]: async (arg?: unknown) => {
      const view = viewTargetOf(arg) ?? (await pickView(parts.portals, parts.catalog, parts.views, { title: 'Watch View' }));
      if (!view) return;
      await parts.watched.watch(view);
    },
    [WATCH_COMMANDS.stopWatching]: async (arg?: unknown) => {
      const view = viewTargetOf(arg) ?? (await pickWatched(parts));
      if (!view) return;
      if (!parts.watched.isWatched(view)) {
        await prompter().info(`${named(view)} is not watched.`);
        return;
      }
      await parts.watched.unwatch(view);
    },
  };
}

async function pickWatched(parts: WatchCommandParts): Promise<ViewTarget | undefined> {
  const watched = parts.watched.list();
  if (watched.length === 0) {
    await prompter().info('No view is watched. Watch one from its item in the Portal view (Watch View).');
    return undefined;
  }
  const picked = await prompter().quickPick(
    watched.map((view) => ({ label: named(view), description: `${view.portalId} · app ${view.appId}`, view })),
    { title: 'Stop Watching', placeHolder: 'The watched view to stop reading' },
  );
  return picked?.view;
}
