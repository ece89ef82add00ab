// The one set of stores the features share, built once by src/features.ts (the composition root). Each part
// names what it stands on as a Pick of this set, so that a new store is declared here once.
import type { Portals } from '../auth/portals';
import type { Catalog } from './catalog';
import type { RecordEvents } from './recordEvents';
import type { SavedQueryStore } from './savedQueries';
import type { TitleFields } from './titleFields';
import type { ViewRows } from './viewRows';
import type { ViewStore } from './views';
import type { WorkspaceSetup } from './workspaceSetup';
import type { ViewReadHub } from '../records/viewRead';
import type { Versions } from '../records/versions';

export interface Stores {
  /** The connections to portals, their sign-in state and clients. */
  readonly portals: Portals;
  /** Sites, apps and columns per portal, kept until refreshed. */
  readonly catalog: Catalog;
  /** The team's shared setup: each workspace folder's .vscode/portal.json, watched, matched to connections. */
  readonly workspace: WorkspaceSetup;
  /** The views the user added and those the workspace file names, per portal and app. */
  readonly views: ViewStore;
  /** The shared copies of views' rows, one per portal, view and filters, held while anything shows them. */
  readonly viewReads: ViewReadHub;
  /** The rows of views read (one request per view until refreshed). */
  readonly rows: ViewRows;
  /** The title field chosen per app. */
  readonly titles: TitleFields;
  /** The bus of record changes (created, updated, deleted). */
  readonly recordEvents: RecordEvents;
  /** The queries saved per view. */
  readonly savedQueries: SavedQueryStore;
  /** Where the record store offers every version it sees (Record History). */
  readonly versions: Versions;
}
