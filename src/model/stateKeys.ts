// The keys under which the stores keep what they know per portal in VS Code's global state. They sit on the
// ground floor because two floors need them: the catalog's stores write them, and Remove Portal
// (auth/forgetPortal.ts, below the catalog) forgets a portal's entries in them.

/** Global state kept per portal: { [portalId]: { [appId]: value } } (catalog/perAppState.ts). */
export const PER_APP_STATE_KEYS = { views: 'portal.views', titleFields: 'portal.titleFields' } as const;
/** Global state kept per view: { [JSON of [portalId, appId, viewId]]: queries } (catalog/savedQueries.ts). */
export const SAVED_QUERIES_KEY = 'portal.savedQueries';
