// What the panel commands work on. The tree hands over an app ({ portalId, appId }) to portal.createRecord
// and a view ({ portalId, appId, viewId, viewName? }) to portal.queryView, parsed by targets.ts; a saved
// query adds its name for portal.runSavedQuery and portal.deleteSavedQuery.
import { viewTargetOf, type ViewTarget } from '../model/targets';

export type { AppTarget, ViewTarget } from '../model/targets';

/** A saved query of a view: the argument of portal.runSavedQuery and portal.deleteSavedQuery. */
export interface SavedQueryTarget extends ViewTarget {
  readonly queryName: string;
}

export function savedQueryTargetOf(arg: unknown): SavedQueryTarget | undefined {
  const view = viewTargetOf(arg);
  const queryName = typeof arg === 'object' && arg !== null ? (arg as { queryName?: unknown }).queryName : undefined;
  return view && typeof queryName === 'string' && queryName.trim() !== '' ? { ...view, queryName: queryName.trim() } : undefined;
}
